// The parts of a Store (store.ts) both backends make the same way: every
// operation is one of the shared queries, run by the backend (alone, or in one
// transaction), and the few a backend does its own way are handed in.
// SqliteStore and PostgresStore keep only opening, faults and the push.

import type { QueryContext, RememberRequest, Steps } from "./query-steps.ts";
import { adoptClockSkew } from "./replay-memory.ts";
import { readHistorySteps, readMarks, readUnrolledSamples } from "./server-history.ts";
import { createToken, createTokenOnce, getPlugin, getServer, listSampleBuckets, listSamples, listServers, listTokens, revokeToken, revokeTokenOnce } from "./record-queries.ts";
import { listTokenNetworks, listTokenPlugins, listTokenServers } from "./owned-records.ts";
import { getNetwork, putNetwork, removeNetwork } from "./networks.ts";
import { addRefusals, listRefusals } from "./push-refusals.ts";
import { switchServerPage } from "./server-pages.ts";
import type { Store, TokenStore } from "./store.ts";
import { claimTransition, createWebhook, leaseDue, leaseLive, listWebhooks, removeWebhook, settleAttempt, settleLive, watchedServers } from "./webhooks.ts";

/** How a backend runs an operation: its steps alone, or in one transaction; either way its faults come out as StoreUnavailableError. */
export interface QueryRunner {
  read<T>(operation: (q: QueryContext) => Steps<T>): Promise<T>;
  transaction<T>(operation: (q: QueryContext) => Steps<T>): Promise<T>;
}

/** What each backend does its own way. */
export interface OwnOperations {
  findTokenByHash: TokenStore["findByHash"];
  expireIdleRegistrations: TokenStore["expireIdleRegistrations"];
  rememberedFingerprint: Store["replay"]["rememberedFingerprint"];
  rememberRequest: RememberRequest;
  sweepHistory: Store["history"]["sweep"];
}

export type StoreParts = Pick<Store, "tokens" | "servers" | "plugins" | "replay" | "webhooks" | "history" | "networks" | "refusals">;

export function storeParts({ read, transaction }: QueryRunner, own: OwnOperations): StoreParts {
  const remember = own.rememberRequest;
  return {
    tokens: {
      create: (token) => read((q) => createToken(q, token)),
      list: () => read(listTokens),
      revoke: (id, now) => read((q) => revokeToken(q, id, now)),
      createOnce: (token, replay) => transaction((q) => createTokenOnce(q, remember, token, replay)),
      revokeOnce: (id, now, replay) => transaction((q) => revokeTokenOnce(q, remember, id, now, replay)),
      findByHash: own.findTokenByHash,
      expireIdleRegistrations: own.expireIdleRegistrations,
    },
    servers: {
      get: (uuid) => read((q) => getServer(q, uuid)),
      list: () => read(listServers),
      ownedBy: (tokenId) => read((q) => listTokenServers(q, tokenId)),
      samples: (uuid, since) => read((q) => listSamples(q, uuid, since)),
      sampleBuckets: (uuid, since, bucketMs) => read((q) => listSampleBuckets(q, uuid, since, bucketMs)),
      switchPage: (change) => transaction((q) => switchServerPage(q, remember, change)),
    },
    plugins: { get: (uuid) => read((q) => getPlugin(q, uuid)), ownedBy: (tokenId) => read((q) => listTokenPlugins(q, tokenId)) },
    replay: {
      rememberedFingerprint: own.rememberedFingerprint,
      adoptClockSkew: (clockSkewMs, now) => transaction((q) => adoptClockSkew(q, clockSkewMs, now)),
    },
    webhooks: {
      create: (hook) => transaction((q) => createWebhook(q, remember, hook)),
      list: (serverUuid) => read((q) => listWebhooks(q, serverUuid)),
      remove: (removal) => transaction((q) => removeWebhook(q, remember, removal)),
      watched: (peakSince) => read((q) => watchedServers(q, peakSince)),
      claim: (transition) => transaction((q) => claimTransition(q, transition)),
      due: (now, leaseMs, share) => transaction((q) => leaseDue(q, now, leaseMs, share)),
      settle: (attempt) => transaction((q) => settleAttempt(q, attempt)),
      leaseLive: (ask) => transaction((q) => leaseLive(q, ask)),
      settleLive: (outcome) => transaction((q) => settleLive(q, outcome)),
    },
    history: {
      sweep: own.sweepHistory,
      marks: () => read(readMarks),
      steps: (uuid, levelMs, stepMs, since, before) => read((q) => readHistorySteps(q, uuid, levelMs, stepMs, since, before)),
      unrolledSamples: (uuid, since, before, staleAfterMs) => read((q) => readUnrolledSamples(q, uuid, since, before, staleAfterMs)),
    },
    networks: {
      put: (network) => transaction((q) => putNetwork(q, remember, network)),
      remove: (removal) => transaction((q) => removeNetwork(q, remember, removal)),
      get: (slug) => read((q) => getNetwork(q, slug)),
      ownedBy: (tokenId) => read((q) => listTokenNetworks(q, tokenId)),
    },
    refusals: {
      add: (counts, now) => transaction((q) => addRefusals(q, counts, now)),
      list: (since, tokenId) => read((q) => listRefusals(q, since, tokenId)),
    },
  };
}

/** A store whose parts are storeParts' (SqliteStore, PostgresStore): each keeps opening, faults and the push. */
export abstract class StoreOfParts {
  declare readonly tokens: StoreParts["tokens"];
  declare readonly servers: StoreParts["servers"];
  declare readonly plugins: StoreParts["plugins"];
  declare readonly replay: StoreParts["replay"];
  declare readonly webhooks: StoreParts["webhooks"];
  declare readonly history: StoreParts["history"];
  declare readonly networks: StoreParts["networks"];
  declare readonly refusals: StoreParts["refusals"];

  constructor(runner: QueryRunner, own: OwnOperations) {
    Object.assign(this, storeParts(runner, own));
  }
}
