// One tenant's receivers must not delay another's alerts (issue 38, point 3),
// from outside and on every backend: token A's many subscriptions point at a
// receiver that accepts the connection and never answers, token B's one
// subscription at a receiver that answers at once. B's alert must arrive
// within a sweep or two, long before A's deliveries time out, and A must hold
// no more than its share of sockets at once.

import { expect, test } from "bun:test";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { PER_TOKEN_IN_FLIGHT } from "../../src/alerts/alert-sweep.ts";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { createLogger } from "../../src/log.ts";
import type { Store } from "../../src/store/store.ts";
import { forEachBackend } from "../support/backends.ts";
import { tempDir, track } from "../support/cleanup.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const SWEEP_MS = 50;
/** A's deliveries hang this long: B's alert must come well within it. */
const DELIVERY_TIMEOUT_MS = 3_000;
/** A's servers, each with the 10 subscriptions a server may have: more than one batch of the old queue (20). */
const A_SERVERS = 4;

/** A receiver that accepts every connection, reads what it is sent and never answers; counts the connections open at once. */
function startSilentReceiver(): { url: string; connections: () => number; mostAtOnce: () => number } {
  let open = 0;
  let total = 0;
  let most = 0;
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open() {
        open += 1;
        total += 1;
        most = Math.max(most, open);
      },
      data() {},
      close() {
        open -= 1;
      },
    },
  });
  track(() => listener.stop(true));
  return { url: `http://127.0.0.1:${listener.port}/hook`, connections: () => total, mostAtOnce: () => most };
}

/** A receiver answering 204 at once, noting when each delivery came (performance.now()). */
function startPromptReceiver(): { url: string; arrivals: number[] } {
  const arrivals: number[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      await request.text();
      arrivals.push(performance.now());
      return new Response(null, { status: 204 });
    },
  });
  track(() => receiver.stop(true));
  return { url: `http://127.0.0.1:${receiver.port}/hook`, arrivals };
}

/** The app as serve composes it over `store`, sweeping every SWEEP_MS on `clock`, each delivery given DELIVERY_TIMEOUT_MS. */
async function startInstance(store: Store, clock: { now: number }): Promise<string> {
  const config = loadConfig({ PENNANT_DB: `${tempDir("fair")}/unused.db`, PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_RENDER_THREADS: "0" });
  const app = await createApp({
    config, store, now: () => clock.now, log: createLogger({ level: "error", write: () => {} }), alertIntervalMs: SWEEP_MS, alertDeliveryTimeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const port = listen(app, "127.0.0.1", 0);
  // Registered after the store's own cleanup, so it runs first: the app stops before its store closes.
  track(() => app.stop(true));
  return `http://127.0.0.1:${port}`;
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms`);
    await Bun.sleep(5);
  }
}

forEachBackend("fair deliveries", (open) => {
  test("one token's receiver that never answers does not delay another token's alert, and holds at most its share of sockets", async () => {
    const clock = { now: Date.now() };
    const store = await open(() => clock.now);
    const base = await startInstance(store, clock);
    const silent = startSilentReceiver();
    const prompt = startPromptReceiver();
    const tokenOf = async (label: string) => {
      const token = generateToken();
      await store.tokens.create({ hash: hashToken(token), scope: "all", label, now: clock.now });
      return token;
    };
    const call = async (token: string, serverUuid: string, path: string, body: object, status: number) => {
      const response = await fetch(signedRequest(base, { path, token, serverUuid, body }, clock.now));
      expect(`${response.status} ${await response.text()}`).toStartWith(String(status));
    };

    const tokenA = await tokenOf("a");
    const serversA = Array.from({ length: A_SERVERS }, () => newUuid());
    // Each body differs (its server's name, the URL's path): one signature is accepted for one request only.
    for (const [i, serverUuid] of serversA.entries()) {
      await call(tokenA, serverUuid, "/api/server/update", { name: `A${i}`, status: "online" }, 200);
      for (let n = 0; n < 10; n++) await call(tokenA, serverUuid, "/api/server/webhooks", { url: `${silent.url}/${i}/${n}`, events: ["offline"], format: "json", grace_seconds: 0 }, 201);
    }
    const tokenB = await tokenOf("b");
    const serverB = newUuid();
    await call(tokenB, serverB, "/api/server/update", { name: "B", status: "online" }, 200);
    await call(tokenB, serverB, "/api/server/webhooks", { url: prompt.url, events: ["offline"], format: "json", grace_seconds: 0 }, 201);
    await Bun.sleep(5 * SWEEP_MS);

    // A's alerts first, already being sent (and hanging), then B's a second later on the clock: a queue in order of time puts B's last.
    for (const [i, serverUuid] of serversA.entries()) await call(tokenA, serverUuid, "/api/server/update", { name: `A${i}`, status: "offline" }, 200);
    await until(() => silent.connections() > 0, 2_000);
    clock.now += 1_000;
    const changed = performance.now();
    await call(tokenB, serverB, "/api/server/heartbeat", { status: "offline" }, 200);
    await until(() => prompt.arrivals.length > 0, 2 * DELIVERY_TIMEOUT_MS + 1_000).catch(() => {});
    const latency = (prompt.arrivals[0] ?? Infinity) - changed;

    // Within a few sweeps and the receiver's own answer; the old queue made it wait for two of A's timeouts.
    expect(latency).toBeLessThan(DELIVERY_TIMEOUT_MS / 3);
    expect(prompt.arrivals).toHaveLength(1);
    expect(silent.mostAtOnce()).toBeLessThanOrEqual(PER_TOKEN_IN_FLIGHT);
  }, 30_000);
});
