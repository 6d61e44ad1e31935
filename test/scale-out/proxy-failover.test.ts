// docs/deploy.md's load balancer (step 4), run as the page gives it (the block
// between its nginx-failover markers, only the addresses and the listener
// changed): Debian's nginx in front of two `serve` processes on one PostgreSQL
// and one Redis. When an instance dies, the pushes it was answering and the
// next ones go to the other: none is answered 5xx, and a push the dead one had
// stored is answered 200 as a duplicate by the other (a push sent twice is
// applied once), so sending a POST again is safe.

import { beforeAll, expect, test } from "bun:test";
import { createServer } from "node:net";
import { join } from "node:path";
import { track } from "../support/cleanup.ts";
import { startNginx } from "../support/nginx.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { ROOT, runCli, startServe, type RunningServer } from "../support/process.ts";
import { startRedis } from "../support/redis.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let postgres: Postgres;
let documented: string;
beforeAll(async () => {
  postgres = await startPostgres();
  const page = await Bun.file(join(ROOT, "docs", "deploy.md")).text();
  const block = /<!-- nginx-failover[^>]*-->\s*```nginx\n([\s\S]*?)```\s*<!-- \/nginx-failover -->/.exec(page);
  if (!block) throw new Error("docs/deploy.md has no nginx-failover block");
  documented = block[1]!;
});

/** The documented block with these upstreams for the page's two instances and a loopback listener for its TLS one. */
function asRun(upstreams: [string, string], port: number): string {
  const changes: Array<[string, string]> = [
    ["server 10.0.0.11:8080 ", `server ${upstreams[0]} `],
    ["server 10.0.0.12:8080 ", `server ${upstreams[1]} `],
    ["listen 443 ssl;", `listen 127.0.0.1:${port};`],
  ];
  return changes.reduce((block, [from, to]) => {
    if (block.split(from).length !== 2) throw new Error(`docs/deploy.md's nginx-failover block no longer has "${from}" once`);
    return block.replace(from, to);
  }, documented);
}

const address = (server: RunningServer) => new URL(server.url).host;

/** Limits far above what the pushes ask, so that every answer is the failover's own. */
const UNLIMITED = { PENNANT_RATE_LIMIT: "100000/60", PENNANT_PUSH_RATE_LIMIT: "100000/60", PENNANT_MAX_SERVERS_PER_TOKEN: "100000" };

/** Two instances on a new database and a Redis of the test's own, and a token for each of `lanes` clients. */
async function twoInstances(lanes: number): Promise<{ instances: [RunningServer, RunningServer]; tokens: string[] }> {
  const redis = await startRedis();
  const env = { PENNANT_DATABASE_URL: await postgres.database(), PENNANT_REDIS_URL: redis.url, PENNANT_RENDER_THREADS: "0", ...UNLIMITED };
  const instances = await Promise.all([startServe(env), startServe(env)]);
  const created = await Promise.all(Array.from({ length: lanes }, () => runCli(["token", "create"], env)));
  return { instances, tokens: created.map((run) => run.stdout.trimEnd().split("\n").at(-1)!) };
}

function push(url: string, token: string, uuid: string, online: number): Request {
  const body = { name: "Failover", status: "online", stats: { players: { online, max: 20 } } };
  return signedRequest(url, { path: "/api/server/update", token, serverUuid: uuid, body }, Date.now());
}

/** The players online an instance holds for the server (read back signed, as the plugin reads it), or null when it holds none. */
async function heldOnline(server: RunningServer, token: string, uuid: string): Promise<number | null> {
  const response = await fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, Date.now()));
  return response.status === 200 ? ((await json(response)).stats.players.online as number) : null;
}

/**
 * An upstream that hands each request on to `instance`, waits for its answer,
 * then closes the connection without a word: an instance that stored a push
 * and died before answering. Its list: the status `instance` gave each one.
 */
async function storesThenDies(instance: RunningServer): Promise<{ address: string; answered: number[] }> {
  const answered: number[] = [];
  const server = createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on("data", async (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const [requestLine, ...lines] = received.subarray(0, headEnd).toString("latin1").split("\r\n");
      const headers = lines.map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()] as [string, string]);
      const length = Number(headers.find(([name]) => name.toLowerCase() === "content-length")?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      const [method, path] = requestLine!.split(" ");
      const response = await fetch(`${instance.url}${path}`, {
        method,
        headers: headers.filter(([name]) => !/^(host|connection|content-length)$/i.test(name)),
        body: received.subarray(headEnd + 4, headEnd + 4 + length),
      });
      answered.push(response.status);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  track(() => new Promise((resolve) => server.close(resolve)));
  return { address: `127.0.0.1:${(server.address() as { port: number }).port}`, answered };
}

test("a push its instance stored, then died before answering, is sent to the other and answered 200 as a duplicate", async () => {
  const { instances: [first, second], tokens: [token] } = await twoInstances(1);
  const dying = await storesThenDies(first);
  const proxy = await startNginx((port) => asRun([dying.address, address(second)], port));

  // Round robin sends one of these to the dying upstream; it is then left out (max_fails) and the rest go to the other.
  const answers: Array<{ status: number; duplicate: boolean; held: number | null }> = [];
  for (let online = 0; online < 4; online++) {
    const uuid = newUuid();
    const response = await fetch(push(proxy.url, token!, uuid, online));
    answers.push({ status: response.status, duplicate: response.headers.get("X-Duplicate") === "true", held: await heldOnline(second, token!, uuid) });
  }
  expect(dying.answered).toEqual([200]);
  expect(answers.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
  expect(answers.filter(({ duplicate }) => duplicate)).toHaveLength(1);
  expect(answers.map(({ held }) => held)).toEqual([0, 1, 2, 3]);
}, 60_000);

test("kill -9 of one instance while pushes stream through it: every push is answered 200, and each is stored", async () => {
  const { instances: [victim, survivor], tokens } = await twoInstances(6);
  const proxy = await startNginx((port) => asRun([address(victim), address(survivor)], port));

  // Each push makes a server of its own, so that every one can be looked for afterwards.
  const acknowledged: Array<{ token: string; uuid: string; online: number }> = [];
  const refused: string[] = [];
  let killed = false;
  const lane = async (token: string) => {
    // Until ten pushes after the kill, so that the dead instance's share is seen going to the other.
    for (let online = 0, afterKill = 0; afterKill < 10; online++, afterKill += killed ? 1 : 0) {
      const uuid = newUuid();
      const response = await fetch(push(proxy.url, token, uuid, online));
      if (response.status === 200) acknowledged.push({ token, uuid, online });
      else refused.push(`${response.status} ${await response.text()}`);
    }
  };
  const load = Promise.all(tokens.map(lane));
  while (acknowledged.length < 60 && refused.length === 0) await Bun.sleep(10);
  victim.signal("SIGKILL");
  await victim.exited;
  killed = true;
  await load;

  expect(refused).toEqual([]);
  const missing: string[] = [];
  for (const { token, uuid, online } of acknowledged) {
    if ((await heldOnline(survivor, token, uuid)) !== online) missing.push(uuid);
  }
  expect(missing).toEqual([]);
  expect(acknowledged.length).toBeGreaterThanOrEqual(60 + tokens.length * 10);
  expect(survivor.stderr()).not.toContain('"level":"error"');
}, 60_000);
