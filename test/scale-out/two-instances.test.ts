// Two `serve` processes on one PostgreSQL and one Redis, as a load balancer
// would see them: what one accepts, the other shows and remembers; limits are
// those of one instance; races between them, one of them killed, both
// starting at once, and Redis or PostgreSQL going away and coming back.
// Everything through HTTP, from outside (test/support/process.ts), against
// real servers from Debian's packages (test/support/postgres.ts, redis.ts).

import { beforeAll, expect, test } from "bun:test";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { track } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { runCli, startServe, type RunningServer } from "../support/process.ts";
import { startRedis, type Redis } from "../support/redis.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

interface Pair {
  env: Record<string, string>;
  instances: [RunningServer, RunningServer];
  redis: Redis;
}

/**
 * A new database (unless env names one) and a Redis of the test's own (limits counted in one test
 * must not reach the next), and two instances on both. Drawing on the
 * request thread keeps two processes from starting a render thread per core.
 */
async function twoInstances(env: Record<string, string> = {}): Promise<Pair> {
  const redis = await startRedis();
  const settings = { PENNANT_DATABASE_URL: env.PENNANT_DATABASE_URL ?? (await postgres.database()), PENNANT_REDIS_URL: redis.url, PENNANT_RENDER_THREADS: "0", ...env };
  const instances = await Promise.all([startServe(settings), startServe(settings)]);
  return { env: settings, instances, redis };
}

/** `count` new tokens in the database, as `token create` makes them (many at once, without a process each). */
async function tokens(databaseUrl: string, count: number): Promise<string[]> {
  const store = await openPostgresStore(databaseUrl);
  track(() => store.close());
  const secrets = Array.from({ length: count }, () => generateToken());
  for (const secret of secrets) await store.tokens.create({ hash: hashToken(secret), scope: "all", label: "test", now: Date.now() });
  return secrets;
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;

function update(server: RunningServer, token: string, uuid: string, online: number, nowMs = Date.now()): Request {
  const body = { name: "Scaled", status: "online", stats: { players: { online, max: 20 } } };
  return signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body }, nowMs);
}

/** What the instance holds for the server, read back signed as the plugin reads it (null: 404). */
async function status(server: RunningServer, token: string, uuid: string): Promise<{ name: string; stats: { players: { online: number } } } | null> {
  const response = await fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, Date.now()));
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return json(response);
}

const pluginBanner = (server: RunningServer, uuid: string) => fetch(`${server.url}/api/banner?data_mode=plugin&server_uuid=${uuid}`);
const playersBadge = async (server: RunningServer, uuid: string) => (await json(await fetch(`${server.url}/shields/servers/${uuid}/players.json`))).message as string;

async function health(server: RunningServer): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/healthz`);
  return { status: response.status, body: await response.json() };
}

/** Resolves once `check` holds; asks every 25 ms, fails after `ms`. */
async function waitFor(what: string, check: () => Promise<boolean>, ms = 2_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await check()) return performance.now() - started;
    await Bun.sleep(25);
  }
  throw new Error(`${what}: still not so after ${ms} ms`);
}

/** No instance answered 500 or logged an unexpected error. */
function expectNoInternalErrors(instances: RunningServer[]): void {
  for (const instance of instances) {
    expect(instance.stderr()).not.toContain("unexpected error");
    expect(instance.stderr()).not.toContain('"status":500');
  }
}

test("a push through one instance is drawn and read back through the other at once", async () => {
  const { env, instances: [first, second] } = await twoInstances();
  const token = lastLine((await runCli(["token", "create"], env)).stdout);
  const uuid = newUuid();

  expect((await fetch(update(first, token, uuid, 3))).status).toBe(200);
  expect(await status(second, token, uuid)).toMatchObject({ name: "Scaled", stats: { players: { online: 3 } } });
  expect(await playersBadge(second, uuid)).toBe("3/20");
  const before = await pluginBanner(second, uuid);
  expect(before.status).toBe(200);

  expect((await fetch(update(first, token, uuid, 7))).status).toBe(200);
  // Nothing of a record is cached by an instance: the very next request shows the push.
  expect(await playersBadge(second, uuid)).toBe("7/20");
  expect((await status(second, token, uuid))!.stats.players.online).toBe(7);
  const [drawnByFirst, drawnBySecond] = await Promise.all([pluginBanner(first, uuid), pluginBanner(second, uuid)]);
  // An image is known by what it shows: both draw the same banner, not the one before the push.
  expect(drawnBySecond.headers.get("etag")).not.toBe(before.headers.get("etag"));
  expect(drawnBySecond.headers.get("etag")).toBe(drawnByFirst.headers.get("etag"));
  expect(Buffer.from(await drawnBySecond.arrayBuffer()).equals(Buffer.from(await drawnByFirst.arrayBuffer()))).toBe(true);
  expectNoInternalErrors([first, second]);
});

test("a push accepted by one instance is refused as a replay by the other; its exact duplicate is answered as done", async () => {
  const { env, instances: [first, second] } = await twoInstances();
  const token = lastLine((await runCli(["token", "create"], env)).stdout);
  const uuid = newUuid();
  // Signed as plugins sign (over timestamp and body), so only the shared replay memory keeps it from another route.
  const heartbeat = signedRequest(first.url, { path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "Once", status: "online" }, scheme: "standard" }, Date.now());
  const headers = Object.fromEntries(heartbeat.headers.entries());
  const body = await heartbeat.clone().text();
  const accepted = await fetch(heartbeat);
  expect(accepted.status).toBe(200);
  const firstAnswer = await json(accepted);
  const held = await status(second, token, uuid);
  expect(held).toMatchObject({ name: "Once", status: "online" });

  // The same signature as an update, or for another server: a replay, whichever instance it reaches.
  for (const [path, serverUuid] of [["/api/server/update", uuid], ["/api/server/heartbeat", newUuid()]] as const) {
    const replayed = await fetch(second.url + path, { method: "POST", headers: { ...headers, "x-server-uuid": serverUuid }, body });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("x-duplicate")).toBeNull();
    expect((await json(replayed)).error.code).toBe("replayed_request");
  }
  // Sent again as it was (a client retrying through the load balancer): done, nothing written twice.
  const duplicate = await fetch(second.url + "/api/server/heartbeat", { method: "POST", headers, body });
  expect(duplicate.status).toBe(200);
  expect(duplicate.headers.get("x-duplicate")).toBe("true");
  expect(await json(duplicate)).toEqual(firstAnswer);
  expect(await status(second, token, uuid)).toEqual(held);
  expectNoInternalErrors([first, second]);
});

test("a client spreading banner requests over both instances gets 429 at the shared limit, not twice it", async () => {
  const { instances } = await twoInstances({ PENNANT_RATE_LIMIT: "5/60" });
  const answers: Array<[number, string | null]> = [];
  for (let i = 0; i < 10; i++) {
    const response = await fetch(`${instances[i % 2]!.url}/api/banner?server_name=Spread&online_players=${i}&max_players=10`);
    answers.push([response.status, response.headers.get("ratelimit-remaining")]);
  }
  expect(answers).toEqual([[200, "4"], [200, "3"], [200, "2"], [200, "1"], [200, "0"], [429, "0"], [429, "0"], [429, "0"], [429, "0"], [429, "0"]]);
});

test("many tokens pushing one new server UUID at once through both instances: exactly one owns it, the others 403 not_owner", async () => {
  const { env, instances } = await twoInstances();
  const racers = await tokens(env.PENNANT_DATABASE_URL!, 16);
  const uuid = newUuid();
  const answers = await Promise.all(
    racers.map(async (token, i) => {
      const response = await fetch(update(instances[i % 2]!, token, uuid, i));
      return { token, online: i, status: response.status, body: await json(response) };
    }),
  );
  const owners = answers.filter((answer) => answer.status === 200);
  expect(owners).toHaveLength(1);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(refused.map(({ status, body }) => [status, body.error.code])).toEqual(Array(15).fill([403, "not_owner"]));
  // The owner's push is the one stored, and only the owner reads it, through either instance.
  for (const instance of instances) {
    expect((await status(instance, owners[0]!.token, uuid))!.stats.players.online).toBe(owners[0]!.online);
    expect(await status(instance, refused[0]!.token, uuid)).toBeNull();
  }
  expectNoInternalErrors(instances);
});

test("kill -9 of one instance under push load: every acknowledged update is readable through the other", async () => {
  const { env, instances: [victim, survivor] } = await twoInstances({ PENNANT_MAX_SERVERS_PER_TOKEN: "100000" });
  const lanes = await tokens(env.PENNANT_DATABASE_URL!, 6);
  // Each push makes a server of its own, so that every acknowledged one can be looked for.
  const acknowledged: Array<{ token: string; uuid: string; online: number }> = [];
  const failed: string[] = [];
  let killed = false;
  const lane = async (token: string, lane: number) => {
    // Until a few pushes after the kill, so that the survivor is seen taking them.
    for (let i = 0, afterKill = 0; afterKill < 5; i++, afterKill += killed ? 1 : 0) {
      const uuid = newUuid();
      const instance = (i + lane) % 2 === 0 ? victim : survivor;
      try {
        const response = await fetch(update(instance, token, uuid, i));
        if (response.status === 200) acknowledged.push({ token, uuid, online: i });
        else failed.push(`${response.status} ${await response.text()}`);
      } catch {
        // The killed instance's connections: never acknowledged.
      }
    }
  };
  const load = Promise.all(lanes.map(lane));
  await waitFor("pushes acknowledged", async () => acknowledged.length >= 60, 10_000);
  victim.signal("SIGKILL");
  await victim.exited;
  killed = true;
  await load;

  expect(failed).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(60);
  const missing: string[] = [];
  for (const { token, uuid, online } of acknowledged) {
    const held = await status(survivor, token, uuid);
    if (held?.stats.players.online !== online) missing.push(uuid);
  }
  expect(missing).toEqual([]);
  expectNoInternalErrors([survivor]);
});

test("both started at the same moment on an empty database: the tables are made once, and both serve", async () => {
  // Two `migrate` commands at the same moment too: four processes making the tables at once widen the race.
  const empty = { PENNANT_DATABASE_URL: await postgres.database() };
  const [{ env, instances: [first, second] }, ...migrations] = await Promise.all([twoInstances(empty), runCli(["migrate"], empty), runCli(["migrate"], empty)]);
  for (const instance of [first, second]) expect(await health(instance)).toEqual({ status: 200, body: { ok: true, limits: { shared: true } } });
  for (const migration of migrations) expect(migration).toMatchObject({ code: 0, stderr: "" });
  const token = lastLine((await runCli(["token", "create"], env)).stdout);
  const uuid = newUuid();
  expect((await fetch(update(second, token, uuid, 4))).status).toBe(200);
  expect((await status(first, token, uuid))!.stats.players.online).toBe(4);
  for (const instance of [first, second]) expect(instance.stderr()).not.toContain('"level":"error"');
});

/** Limits far above what a steady load asks, so that every answer is the load's own. */
const UNLIMITED = { PENNANT_RATE_LIMIT: "100000/60", PENNANT_DRAW_BUDGET: "1000000/60", PENNANT_PUSH_RATE_LIMIT: "100000/60" };

/**
 * Requests on both instances until stopped: banners (each a new one, counted
 * by the shared limits) and pushes, all answers kept.
 */
function steadyLoad(instances: RunningServer[], token: string, uuid: string) {
  const statuses: Array<{ route: string; status: number | string }> = [];
  let running = true;
  let online = 0;
  const loop = async (route: string, request: (instance: RunningServer, n: number) => Request) => {
    for (let n = 0; running; n++) {
      const instance = instances[n % instances.length]!;
      try {
        statuses.push({ route, status: (await fetch(request(instance, n))).status });
      } catch (error) {
        statuses.push({ route, status: (error as Error).message });
      }
      await Bun.sleep(20);
    }
  };
  const loops = Promise.all([
    loop("banner", (instance, n) => new Request(`${instance.url}/api/banner?server_name=Load&online_players=${n}&max_players=1000`)),
    loop("push", (instance) => update(instance, token, uuid, ++online)),
  ]);
  return {
    statuses,
    async stop() {
      running = false;
      await loops;
      return statuses;
    },
  };
}

test("Redis stopped and started again under load: every request answered, /healthz 200 saying shared false, then true", async () => {
  const { env, instances, redis } = await twoInstances(UNLIMITED);
  const token = lastLine((await runCli(["token", "create"], env)).stdout);
  const load = steadyLoad(instances, token, newUuid());
  await Bun.sleep(300);
  await redis.close();
  for (const instance of instances) {
    await waitFor("limits counted alone", async () => {
      const { status, body } = await health(instance);
      expect(status).toBe(200);
      return body.limits.shared === false;
    });
  }
  await Bun.sleep(300);
  const restarted = await startRedis({ port: Number(new URL(redis.url).port) });
  for (const instance of instances) {
    await waitFor("limits shared again", async () => {
      const { status, body } = await health(instance);
      expect(status).toBe(200);
      return body.limits.shared === true;
    });
  }
  await Bun.sleep(300);
  const statuses = await load.stop();
  await restarted.close();

  expect(statuses.filter(({ status }) => status !== 200)).toEqual([]);
  expect(statuses.length).toBeGreaterThan(50);
  expectNoInternalErrors(instances);
});

test("PostgreSQL stopped and started again under load: pushes 503 with Retry-After, drawn banners still served, /healthz 503, all recover", async () => {
  const { env, instances } = await twoInstances(UNLIMITED);
  const token = lastLine((await runCli(["token", "create"], env)).stdout);
  const uuid = newUuid();
  expect((await fetch(update(instances[0], token, uuid, 5))).status).toBe(200);
  const drawn = `/api/banner?server_name=Drawn&online_players=5&max_players=20`;
  // Images of pushed data, as each instance drew them: [status, ETag] by instance and URL.
  const pushedImages = [`/api/banner?data_mode=plugin&server_uuid=${uuid}`, `/shields/servers/${uuid}/players.png`];
  const imagesOf = (instance: RunningServer) =>
    Promise.all(pushedImages.map(async (path) => {
      const response = await fetch(instance.url + path);
      return [path, response.status, response.headers.get("etag")];
    }));
  const drawnBefore = new Map<RunningServer, Awaited<ReturnType<typeof imagesOf>>>();
  for (const instance of instances) {
    expect((await fetch(instance.url + drawn)).status).toBe(200);
    drawnBefore.set(instance, await imagesOf(instance));
    expect(drawnBefore.get(instance)).toEqual(pushedImages.map((path) => [path, 200, expect.any(String)]));
  }
  const load = steadyLoad(instances, token, uuid);
  await Bun.sleep(300);

  await postgres.stop();
  try {
    for (const instance of instances) {
      const refused = await fetch(update(instance, token, uuid, 6));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await json(refused)).error.code).toBe("database_unavailable");
      expect((await health(instance)).status).toBe(503);
      expect((await fetch(instance.url + drawn)).status).toBe(200);
      // A banner or badge of pushed data is shown as this instance last drew it.
      expect(await imagesOf(instance)).toEqual(drawnBefore.get(instance)!);
    }
    await Bun.sleep(300);
  } finally {
    await postgres.start();
  }
  for (const instance of instances) {
    await waitFor("pushes accepted again", async () => (await fetch(update(instance, token, uuid, 8))).status === 200, 10_000);
    await waitFor("healthy again", async () => (await health(instance)).status === 200, 5_000);
  }
  const statuses = await load.stop();
  const pushes = statuses.filter(({ route }) => route === "push").map(({ status }) => status);
  expect(pushes).toContain(503);
  expect(pushes.at(-1)).toBe(200);
  expect(statuses.filter(({ status }) => status !== 200 && status !== 503)).toEqual([]);
  expect(statuses.filter(({ route, status }) => route === "banner" && status !== 200)).toEqual([]);
  expectNoInternalErrors(instances);
});
