// The alert sweep against a real store of each backend and a real HTTP
// receiver, the sweeps run one at a time by the test: what a change between
// two sweeps, or between subscribing and the first sweep, sends.

import { expect, test } from "bun:test";
import { AlertSweep } from "../../src/alerts/alert-sweep.ts";
import type { Store } from "../../src/store/store.ts";
import type { ServerState } from "../../src/store/webhook-records.ts";
import { forEachBackend } from "../support/backends.ts";
import { track } from "../support/cleanup.ts";
import { pushUpdate } from "../support/history.ts";

const SERVER = "00000000-0000-4000-8000-000000000023";
const STALE_MS = 900_000;
let requests = 0;

/** A receiver on loopback keeping the JSON body of every delivery. */
function startReceiver(): { url: string; bodies: Array<Record<string, unknown>> } {
  const bodies: Array<Record<string, unknown>> = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      bodies.push((await request.json()) as Record<string, unknown>);
      return new Response(null, { status: 204 });
    },
  });
  track(() => receiver.stop(true));
  return { url: `http://127.0.0.1:${receiver.port}/hook`, bodies };
}

/** A subscription of SERVER to `events`, made at `now` while the server is `state`, as the route makes it; no grace unless given. */
async function subscribe(store: Store, url: string, events: string[], now: number, state: ServerState, graceMs = 0): Promise<void> {
  requests += 1;
  const replay = { key: `sweep-${requests}`.padEnd(64, "0"), fingerprint: `sweep-${requests}`, timestampMs: now, expiresAt: Number.MAX_SAFE_INTEGER };
  await store.webhooks.create({ id: crypto.randomUUID(), serverUuid: SERVER, url, events, format: "json", secret: "s".repeat(64), now, replay, maxPerServer: 10, state, graceMs, intervalMs: 0 });
}

/** A sweep on `clock`, every delivery sent to loopback; a failed sweep fails the test. */
function alertSweep(store: Store, clock: { now: number }): AlertSweep {
  return new AlertSweep({
    store, now: () => clock.now, staleAfterMs: STALE_MS, resolve: async () => ({ address: "127.0.0.1" }),
    // No live messages here (test/alerts/live-messages.test.ts).
    live: { discordApi: "http://127.0.0.1:9/api/v10", publicUrl: null, view: () => Promise.reject(new Error("no live message in these tests")) },
    reportFailure: (error) => {
      throw error;
    },
  });
}

forEachBackend("alert sweep", (open) => {
  test("a record reached and left between two sweeps sends one players_record with its count", async () => {
    const store = await open();
    const clock = { now: 1_000_000 };
    const receiver = startReceiver();
    await pushUpdate(store, SERVER, clock.now, 7);
    await subscribe(store, receiver.url, ["players_record"], clock.now, "online");
    const sweep = alertSweep(store, clock);
    await sweep.sweep();
    for (const players of [50, 10]) {
      clock.now += 10_000;
      await pushUpdate(store, SERVER, clock.now, players);
    }
    clock.now += 5_000;
    await sweep.sweep();
    expect(receiver.bodies).toHaveLength(1);
    expect(receiver.bodies[0]).toMatchObject({ event: "players_record", status: "online", players: { online: 50, max: 100 } });
    // Later sweeps read the 50 again (their overlap), and it is no news.
    clock.now += 10_000;
    await pushUpdate(store, SERVER, clock.now, 12);
    await sweep.sweep();
    expect(receiver.bodies).toHaveLength(1);
  });

  test("a change between subscribing and the first sweep is sent; the state when subscribing is not", async () => {
    const store = await open();
    const clock = { now: 1_000_000 };
    const receiver = startReceiver();
    await pushUpdate(store, SERVER, clock.now, 7);
    await subscribe(store, receiver.url, ["offline", "online", "players_record"], clock.now, "online");
    clock.now += 5_000;
    await pushUpdate(store, SERVER, clock.now, 9, "offline");
    await alertSweep(store, clock).sweep();
    expect(receiver.bodies.map((body) => body.event)).toEqual(["offline"]);
  });

  test("subscribing to a server that is offline sends nothing until it comes back", async () => {
    const store = await open();
    const clock = { now: 1_000_000 };
    const receiver = startReceiver();
    await pushUpdate(store, SERVER, clock.now, 7, "offline");
    await subscribe(store, receiver.url, ["offline", "online"], clock.now, "offline");
    const sweep = alertSweep(store, clock);
    await sweep.sweep();
    expect(receiver.bodies).toEqual([]);
    clock.now += 5_000;
    await pushUpdate(store, SERVER, clock.now, 7);
    await sweep.sweep();
    expect(receiver.bodies.map((body) => body.event)).toEqual(["online"]);
  });
});

forEachBackend("alert grace", (open) => {
  test("with a 60 s grace, a 10 s outage sends nothing; a 90 s one sends offline once 60 s have passed, then online", async () => {
    const store = await open();
    const clock = { now: 1_000_000 };
    const receiver = startReceiver();
    await pushUpdate(store, SERVER, clock.now, 7);
    await subscribe(store, receiver.url, ["offline", "online"], clock.now, "online", 60_000);
    const sweep = alertSweep(store, clock);
    /** Moves the clock by `ms` in sweeps 5 s apart, as serve's run. */
    const pass = async (ms: number) => {
      for (let left = ms; left > 0; left -= 5_000) {
        clock.now += Math.min(5_000, left);
        await sweep.sweep();
      }
    };
    await sweep.sweep();
    await pushUpdate(store, SERVER, clock.now, 0, "offline");
    await sweep.sweep();
    await pass(10_000);
    await pushUpdate(store, SERVER, clock.now, 7);
    await pass(30_000);
    expect(receiver.bodies).toEqual([]);

    await pushUpdate(store, SERVER, clock.now, 0, "offline");
    const wentOffline = clock.now;
    await sweep.sweep();
    await pass(55_000);
    expect(receiver.bodies).toEqual([]);
    await pass(5_000);
    expect(receiver.bodies.map((body) => [body.event, body.at])).toEqual([["offline", new Date(wentOffline + 60_000).toISOString()]]);
    await pass(30_000);
    await pushUpdate(store, SERVER, clock.now, 7);
    await sweep.sweep();
    expect(receiver.bodies.map((body) => body.event)).toEqual(["offline", "online"]);
    await pass(60_000);
    expect(receiver.bodies).toHaveLength(2);
  });

  test("a crashed server (stale, never saying offline) is told once its grace has passed since it went stale", async () => {
    const store = await open();
    const clock = { now: 1_000_000 };
    const receiver = startReceiver();
    await pushUpdate(store, SERVER, clock.now, 7);
    await subscribe(store, receiver.url, ["offline"], clock.now, "online", 120_000);
    const sweep = alertSweep(store, clock);
    await sweep.sweep();
    // Stale from STALE_MS after the last push: seen offline by the sweep then, told 120 s later.
    clock.now += STALE_MS + 1;
    await sweep.sweep();
    clock.now += 119_000;
    await sweep.sweep();
    expect(receiver.bodies).toEqual([]);
    clock.now += 1_000;
    await sweep.sweep();
    expect(receiver.bodies.map((body) => body.event)).toEqual(["offline"]);
  });
});
