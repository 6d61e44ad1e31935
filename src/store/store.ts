// The store: everything Pennant keeps (tokens, server and plugin records with
// their history, the replay memory) behind one interface, one implementation
// per backend (sqlite-store.ts, postgres/postgres-store.ts). Every operation is asynchronous, so a
// backend across the network fits the same callers; nothing above src/store
// knows which backend it has. Refusals come out as the errors of
// write-refusals.ts, faults no request can fix as StoreUnavailableError.

import type { ReplayRecord, ReplayStatus } from "../auth/replay.ts";
import type { TokenScope } from "../auth/token.ts";
import type { RowBatch, RowCounts } from "./dump.ts";
import type { HistoryMarks, HistoryStep, MinuteSample } from "./history.ts";
import type { PluginFields, PluginRow, ServerFields, ServerPushKind, ServerRow, ServerSample, TokenRow } from "./records.ts";
import type { NetworkRequest, NetworkView, NetworkWrite } from "./network-records.ts";
import type { RefusalCount } from "./push-refusals.ts";
import type { PageSwitch } from "./server-pages.ts";
import type {
  Attempt, DueDelivery, DueShare, LiveAsk, LiveLease, LiveOutcome, NewWebhook, Transition, WatchedServer, WebhookRemoval, WebhookRow,
} from "./webhook-records.ts";

/** Who pushes: a stored token, or an unknown one that open registration lets in. */
export interface PushCredentials {
  /** Null for an unknown token that open registration lets in. */
  tokenId: number | null;
  tokenHash: string;
}

/** Bounds counted across pushes (PENNANT_REGISTRATION_MAX, PENNANT_MAX_BYTES_PER_TOKEN). */
export interface PushBounds {
  registrationMax: number;
  maxBytesPerToken: number;
}

/** The record a push writes, what it sets, and how many records of its kind one token may own. */
export type RecordWrite =
  | { kind: "server"; uuid: string; serverPush: ServerPushKind; fields: ServerFields; maxPerToken: number }
  | { kind: "plugin"; uuid: string; fields: PluginFields; maxPerToken: number };

/** A signed push, authenticated and past the replay guard's look-up. */
export interface Push {
  credentials: PushCredentials;
  replay: ReplayRecord;
  now: number;
  bounds: PushBounds;
  record: RecordWrite;
}

/** A token as `token create` makes it. */
export interface NewToken {
  hash: string;
  scope: TokenScope;
  label: string;
  now: number;
}

export interface TokenStore {
  create(token: NewToken): Promise<TokenRow>;
  /** Every token, the oldest first. */
  list(): Promise<TokenRow[]>;
  /** Revokes a token; false when there is no such active token. */
  revoke(id: number, now: number): Promise<boolean>;
  /**
   * Remembers the signed request (the admin's, http/admin-routes.ts) and
   * creates the token in one transaction: "duplicate" (nothing written) for an
   * exact resend of one accepted; ReplayError with nothing written.
   */
  createOnce(token: NewToken, replay: ReplayRecord): Promise<TokenRow | "duplicate">;
  /** Remembers the signed request and revokes the token in one transaction; UnknownTokenError or ReplayError with nothing written. */
  revokeOnce(id: number, now: number, replay: ReplayRecord): Promise<ReplayStatus>;
  /** The token with this hash, revoked or not (a revoked token may not be claimed again). */
  findByHash(hash: string): Promise<TokenRow | undefined>;
  /** Deletes the tokens open registration made that have been idle for a day, with their records; returns how many. */
  expireIdleRegistrations(now: number): Promise<number>;
}

export interface ServerStore {
  get(uuid: string): Promise<ServerRow | undefined>;
  /** Every server record, the most recently seen first (for the operator's `servers` command). */
  list(): Promise<ServerRow[]>;
  /** The servers of one token, the most recently seen first (its owner's console). */
  ownedBy(tokenId: number): Promise<ServerRow[]>;
  /** Samples of one server since a time, oldest first. */
  samples(uuid: string, since: number): Promise<ServerSample[]>;
  /** Players online since a time, one point per `bucketMs` (aligned to the epoch): the bucket's highest count at its newest sample's time, oldest first. */
  sampleBuckets(uuid: string, since: number, bucketMs: number): Promise<Array<{ at: number; online: number }>>;
  /**
   * Remembers the signed request and shows or hides the server's public page,
   * in one transaction: "duplicate" (nothing written) for an exact resend of
   * one accepted; UnknownServerError (the token owns no such server) or
   * ReplayError with nothing written.
   */
  switchPage(change: PageSwitch): Promise<ReplayStatus>;
}

/** A server's rolled-up history (history.ts). */
export interface HistoryStore {
  /**
   * One sweep run at `now`: rolls up a bounded span of each level, drops rows
   * past their keeping; true when more is waiting (call again). Running it
   * again, or on two instances at once, changes nothing more.
   */
  sweep(now: number, staleAfterMs: number): Promise<boolean>;
  /** How far each level is written: every bucket before its mark. */
  marks(): Promise<HistoryMarks>;
  /** One server's buckets of a level (`levelMs`) in [since, before), summed per step of `stepMs` in the database, oldest first. */
  steps(uuid: string, levelMs: number, stepMs: number, since: number, before: number): Promise<HistoryStep[]>;
  /** One server's minute samples in [since, before), after the latest earlier one whose update holds into it (less than staleAfterMs older), oldest first: what the sweep has not rolled up yet. */
  unrolledSamples(uuid: string, since: number, before: number, staleAfterMs: number): Promise<MinuteSample[]>;
}

export interface PluginStore {
  get(uuid: string): Promise<PluginRow | undefined>;
  /** The plugins of one token, the most recently seen first. */
  ownedBy(tokenId: number): Promise<PluginRow[]>;
}

export interface ReplayStore {
  /** The fingerprint remembered under a replay key still inside the window (null for a row kept from before fingerprints); undefined when none is. */
  rememberedFingerprint(key: string, now: number): Promise<string | null | undefined>;
  /**
   * Records `clockSkewMs` as the window in force from `now` and returns the
   * earliest push timestamp the replay memory can vouch for (0: all of them).
   */
  adoptClockSkew(clockSkewMs: number, now: number): Promise<number>;
}

/** Server pushes refused in the last day, per server UUID, code and token (push-refusals.ts). */
export interface RefusalStore {
  /** Adds refusals counted since the last call (at most MAX_REFUSALS_PER_BATCH) and drops rows past a day or over MAX_REFUSAL_ROWS. */
  add(counts: readonly RefusalCount[], now: number): Promise<void>;
  /** The refusals whose last time is at or after `since`, the latest first; only those whose request `tokenId` authenticated, when given. */
  list(since: number, tokenId?: number): Promise<RefusalCount[]>;
}

export interface Store {
  readonly tokens: TokenStore;
  readonly servers: ServerStore;
  readonly plugins: PluginStore;
  readonly replay: ReplayStore;
  /** Alert subscriptions and their deliveries (src/alerts). */
  readonly webhooks: WebhookStore;
  readonly history: HistoryStore;
  /** Networks: servers of one token summed by one banner and badge (network-records.ts). */
  readonly networks: NetworkStore;
  /** Server pushes refused in the last day (for `pennant servers`). */
  readonly refusals: RefusalStore;
  /**
   * Accepts a push in one transaction: remembers its replay key, registers its
   * token under open registration, checks ownership and limits, writes the
   * record (and an update's history sample). A refused push (a replay, not the
   * owner, over a limit) stores nothing. "duplicate" (nothing written) when
   * this exact push is already remembered. The token was looked up before:
   * an unknown one that a push of the same token registered since makes this
   * push that token's, and of pushes racing for one new record exactly one
   * becomes its owner, the others NotOwnerError.
   */
  push(push: Push): Promise<ReplayStatus>;
  /** Why the store cannot serve (cannot be read, or its writes are failing, since when), or undefined when it can. */
  problem(): Promise<string | undefined>;
  /**
   * Everything the store keeps, read from one snapshot in batches of at most
   * BATCH_ROWS rows (dump.ts), tokens first: what `load` takes. The replay
   * memory is handed out as it stands at `now`: the keys still inside their window.
   */
  dump(now: number): AsyncIterable<RowBatch>;
  /**
   * Writes `batches` (another store's dump) in one transaction and returns how
   * many rows of each kind it wrote: a failure leaves the store empty.
   * StoreNotEmptyError, with nothing written, when the store holds data. Row
   * ids are kept, and ids made afterwards follow them.
   */
  load(batches: AsyncIterable<RowBatch>): Promise<RowCounts>;
  /** Writes a consistent copy to the new file `target` and returns its size in bytes (BackupError when it cannot). */
  backup(target: string): Promise<number>;
  close(): Promise<void>;
}

export interface WebhookStore {
  /**
   * Remembers the signed request and writes the subscription in one
   * transaction. An exact duplicate of the request that made one hands that
   * one back (duplicate: true); the signature reused elsewhere is a
   * ReplayError; a server at its maximum a WebhookLimitError; nothing is
   * written then. When no other active subscription watches the server, its
   * remembered state becomes `hook.state` and its player record the highest
   * of the one remembered and its samples' (of updates saying online): the
   * start that later changes are compared with. The subscription is told the
   * remembered state.
   */
  create(hook: NewWebhook): Promise<{ row: WebhookRow; duplicate: boolean }>;
  /** The server's subscriptions, the oldest first. */
  list(serverUuid: string): Promise<WebhookRow[]>;
  /**
   * Remembers the signed request and removes one of the server's
   * subscriptions (and its waiting deliveries) in one transaction, so a
   * request that removes something is accepted once, like every push; an
   * exact duplicate changes nothing. UnknownWebhookError (no such one) or
   * ReplayError with nothing written.
   */
  remove(removal: WebhookRemoval): Promise<ReplayStatus>;
  /** Every server with a subscription that is not paused, with its players' peak in the samples taken at or after `peakSince`. */
  watched(peakSince: number): Promise<WatchedServer[]>;
  /**
   * Claims a change and queues the deliveries of its event, in one
   * transaction. A player record moves to the higher count and every
   * subscription to players_record gets it. A state is remembered (and since
   * when it holds), and each subscription not told it yet is told it, its
   * event queued if it asked for it: `offline` once the server has been
   * offline for the subscription's grace, `online` after an `offline`. The
   * number queued, or null when nothing was claimed (no change, or another
   * instance claimed it already), or when nothing is remembered of the
   * server yet (a subscription older than the start that subscribing
   * remembers): it is remembered then, nothing sent.
   */
  claim(transition: Transition): Promise<number | null>;
  /**
   * Leases deliveries due at `now` for `leaseMs` (no other instance takes them
   * meanwhile), fairly across tokens: each token's oldest first, then each
   * one's second, and so on (round robin), a token's in-flight deliveries
   * taking their turns first, within `share`.
   */
  due(now: number, leaseMs: number, share: DueShare): Promise<DueDelivery[]>;
  /**
   * Records an attempt: a success or a give-up removes the delivery, a failure
   * reschedules it (and with `holdUntil` moves the subscription's other
   * waiting deliveries to then at the earliest); pauses a subscription failing too long.
   */
  settle(attempt: Attempt): Promise<void>;
  /**
   * Leases the discord-live messages to post or edit at `now` for
   * `leaseMs` (no other instance takes them meanwhile): those not paused,
   * past their next time, with no message yet or one that shows other than
   * `ask.shown` of their server; fairly across tokens within `ask.share`, as
   * `due`.
   */
  leaseLive(ask: LiveAsk): Promise<LiveLease[]>;
  /** Records a post or an edit of a live message and ends its lease; `gone` pauses the subscription, `failed` for a day too. */
  settleLive(outcome: LiveOutcome): Promise<void>;
}

export interface NetworkStore {
  /**
   * Remembers the signed request and makes the network what it says, in one
   * transaction: creates the slug for its token or replaces its name and
   * servers. "duplicate" (nothing written) for an exact resend of one
   * accepted. Refused with nothing written: NetworkOwnerError (the slug is
   * another token's), NetworkServersError (a server another token's or never
   * pushed), ReplayError (the signature used for another request).
   */
  put(network: NetworkWrite): Promise<ReplayStatus>;
  /** Remembers the signed request and removes the token's network; UnknownNetworkError, NetworkOwnerError or ReplayError with nothing written. */
  remove(removal: NetworkRequest): Promise<ReplayStatus>;
  /** The network with its member servers in the order named; undefined when no network has this slug. */
  get(slug: string): Promise<NetworkView | undefined>;
  /** The networks of one token by slug, each with its members in the order named. */
  ownedBy(tokenId: number): Promise<NetworkView[]>;
}
