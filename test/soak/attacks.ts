// The attacks of issue 9, repeated at scale against a running `serve`
// (registration open, behind a trusted proxy so that X-Forwarded-For gives
// every request the address the attack wants, private lookups allowed so that
// local peers stand in for game servers). Each attack measures the server's
// memory, database and log before and after, and prints its checks.

import { Database } from "bun:sqlite";
import { createHmac } from "node:crypto";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { BODY_DEADLINE_MS } from "../../src/http/body-deadline.ts";
import { IDLE_TIMEOUT_SECONDS } from "../../src/serve/listen.ts";
import { DEFAULT_LOOKUP_SETTINGS } from "../../src/lookup/lookup-service.ts";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { nearMaximalStatus } from "../support/lookup-replies.ts";
import { RawClient, type RawRequest, type RawResponse } from "../support/raw-http.ts";
import { newUuid } from "../support/signing.ts";
import { Checks, mb, MB, openFiles, pool, sample, type Sample, type Target } from "./measure.ts";

export interface AttackContext extends Target {
  url: string;
  port: number;
  checks: Checks;
  /** Multiplies every attack's size (1 = the sizes named in docs/reliability.md). */
  scale: number;
}

const CONCURRENCY = 32;

function scaled(ctx: AttackContext, n: number): number {
  return Math.max(1, Math.round(n * ctx.scale));
}

/** The i-th address of a /8 of the attack's own (so no two attacks share a budget). */
function ipv4(first: number, i: number): string {
  return `${first}.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

function rows(ctx: AttackContext, table: string): number {
  return (ctx.reader.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

/** Requests through a pool of kept-alive raw connections; answers counted by status. */
async function flood(ctx: AttackContext, total: number, request: (i: number) => RawRequest): Promise<Record<number, number>> {
  const clients = Array.from({ length: CONCURRENCY }, () => new RawClient(ctx.port));
  const statuses: Record<number, number> = {};
  try {
    await pool(total, CONCURRENCY, async (i, worker) => {
      let response: RawResponse;
      try {
        response = await clients[worker]!.exchange(request(i), 30_000);
      } catch {
        statuses[0] = (statuses[0] ?? 0) + 1;
        return;
      }
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    });
  } finally {
    for (const client of clients) client.close();
  }
  return statuses;
}

let pushes = 0;

/** A heartbeat signed now; its name counts up, so that no two in one second are the same request (a replay). */
function signedHeartbeat(token: string, uuid: string, from: string): RawRequest {
  const body = JSON.stringify({ name: `Flood ${++pushes}`, status: "online" });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", token).update(`${timestamp}.${body}`).digest("hex");
  return {
    method: "POST",
    target: "/api/server/heartbeat",
    headers: [["Content-Type", "application/json"], ["X-Server-UUID", uuid], ["X-Server-Token", token], ["X-Timestamp", timestamp], ["X-Signature", signature], ["X-Forwarded-For", from]],
    body: Buffer.from(body),
  };
}

function get(target: string, from: string): RawRequest {
  return { method: "GET", target, headers: [["X-Forwarded-For", from]] };
}

async function healthz(ctx: AttackContext): Promise<number> {
  try {
    return (await fetch(`${ctx.url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return 0;
  }
}

function report(name: string, before: Sample, after: Sample, extra = ""): void {
  console.log(`  ${name}: RSS ${mb(before.rss)} -> ${mb(after.rss)}, database ${mb(before.db)} -> ${mb(after.db)} (WAL file ${mb(after.wal)}), log +${after.log - before.log} bytes${extra ? `; ${extra}` : ""}`);
}

function show(statuses: Record<number, number>): string {
  return Object.entries(statuses).map(([status, n]) => `${status}: ${n}`).join(", ");
}

/** Open registration from many addresses (each may register), then from one /64 (it may register 10). */
export async function registrationFlood(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 5_000);
  console.log(`\nregistration flood: ${n} pushes, each with a new token and UUID, from ${n} addresses; then ${n} from one /64`);
  const before = sample(ctx);
  const tokensBefore = rows(ctx, "tokens");
  const many = await flood(ctx, n, (i) => signedHeartbeat(`flood-token-${i}-${"x".repeat(20)}`, newUuid(), ipv4(11, i)));
  const middle = sample(ctx);
  const registered = rows(ctx, "tokens") - tokensBefore;
  report("many addresses", before, middle, show(many));
  ctx.checks.check("registration from many addresses: every new address may register once", registered === many[200] && registered <= n, `${registered} tokens for ${many[200] ?? 0} accepted pushes`);
  ctx.checks.atMost("registration flood: database bytes per registration", (middle.db - before.db) / Math.max(1, registered), 4096, (v) => `${Math.round(v)} B`);
  ctx.checks.atMost("registration flood: log bytes per accepted push", (middle.log - before.log) / Math.max(1, registered), 600, (v) => `${Math.round(v)} B`);

  const tokensMiddle = rows(ctx, "tokens");
  const one64 = await flood(ctx, n, (i) => signedHeartbeat(`flood64-token-${i}-${"y".repeat(20)}`, newUuid(), `2001:db8:aaaa:1:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}:0:1`));
  const after = sample(ctx);
  report("one /64", middle, after, show(one64));
  ctx.checks.atMost("registration flood from one /64: new tokens (PENNANT_REGISTRATION_LIMIT 10/h)", rows(ctx, "tokens") - tokensMiddle, 10);
  ctx.checks.atMost("registration flood: RSS growth", after.rss - before.rss, 64 * MB, mb);
}

/** Banner requests from thousands of addresses of one /64: one budget. */
export async function slash64(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 10_000);
  console.log(`\na /64 of clients: ${n} banner requests from ${n} addresses of 2001:db8:bbbb:2::/64`);
  const before = sample(ctx);
  const statuses = await flood(ctx, n, (i) => get(`/api/banner?server_name=slash64`, `2001:db8:bbbb:2:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}:${i % 7}:1`));
  const after = sample(ctx);
  report("one /64", before, after, show(statuses));
  ctx.checks.atMost("a /64 of clients: banners served (PENNANT_RATE_LIMIT 120/60)", statuses[200] ?? 0, 120);
  ctx.checks.atMost("a /64 of clients: log bytes (refusal lines budgeted per client)", after.log - before.log, 64 * 1024, (v) => `${v} B`);
}

/** Two bursts from as many new IPv4 addresses as the rate limiter holds keys: the second costs no more memory. */
export async function ipBurst(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 150_000);
  console.log(`\nburst from many addresses: two rounds of ${n} banner requests, each from a new address`);
  const before = sample(ctx);
  const first = await flood(ctx, n, (i) => get(`/api/banner?server_name=burst`, ipv4(12, i)));
  const middle = sample(ctx);
  report("first round", before, middle, show(first));
  const second = await flood(ctx, n, (i) => get(`/api/banner?server_name=burst`, ipv4(13, i)));
  const after = sample(ctx);
  report("second round", middle, after, show(second));
  ctx.checks.check("burst: every request answered without a 5xx", !Object.keys({ ...first, ...second }).some((status) => Number(status) >= 500 || status === "0"), `${show(first)} / ${show(second)}`);
  // The per-address tables hold at most 100,000 keys (~21 MB measured full): the second round replaces keys, it adds none.
  ctx.checks.atMost("burst: RSS growth over both rounds", after.rss - before.rss, 96 * MB, mb);
  ctx.checks.atMost("burst: RSS growth in the second round", after.rss - middle.rss, 24 * MB, mb);
  ctx.checks.atMost("burst: log bytes (successes are debug lines, not written at info)", after.log - before.log, 64 * 1024, (v) => `${v} B`);
}

/** Peers that each answer the largest status reply allowed; two rounds of lookups of distinct addresses. */
export async function bigLookupReplies(ctx: AttackContext): Promise<void> {
  const count = scaled(ctx, 2_000);
  console.log(`\nlookup replies near the size cap: ${count} peers, looked up as 127.0.0.1:port then localhost:port (${2 * count} addresses)`);
  const peers: CountingPeer[] = [];
  try {
    for (let i = 0; i < count; i++) peers.push(await startCountingPeer("modern", nearMaximalStatus(i)));
    const before = sample(ctx);
    const round = (host: string, first: number) => flood(ctx, count, (i) => get(`/api/lookup?address=${host}:${peers[i]!.port}`, ipv4(first, i)));
    const first = await round("127.0.0.1", 14);
    const middle = sample(ctx);
    report("127.0.0.1:port", before, middle, show(first));
    const second = await round("localhost", 15);
    const after = sample(ctx);
    report("localhost:port", middle, after, show(second));
    const answered = peers.reduce((sum, peer) => sum + peer.connections, 0);
    ctx.checks.check("big replies: the peers were really asked", answered >= count, `${answered} connections to ${count} peers`);
    // Result cache 32 MiB and favicon cache 16 MiB (estimated on the high side), plus what parsing 4,000
    // replies of 30 KB leaves to the collector; the second round shows whether it levels off.
    ctx.checks.atMost("big replies: RSS growth over both rounds", after.rss - before.rss, 256 * MB, mb);
    ctx.checks.atMost("big replies: RSS growth in the second round", after.rss - middle.rss, 64 * MB, mb);
  } finally {
    await Promise.all(peers.map((peer) => peer.close()));
  }
}

/** Uploads cut off mid-body: no log line, no memory kept. */
export async function abortedUploads(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 5_000);
  console.log(`\naborted uploads: ${n} pushes that hang up halfway through their body`);
  const before = sample(ctx);
  await pool(n, CONCURRENCY, async (i) => {
    await new Promise<void>((resolve) => {
      const socket = connect(ctx.port, "127.0.0.1", () => {
        socket.write(
          "POST /api/server/update HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n" +
            `X-Server-UUID: ${newUuid()}\r\nX-Forwarded-For: ${ipv4(16, i)}\r\nContent-Length: 10000\r\n\r\n{"name":"half`,
        );
        setTimeout(() => socket.destroy(), 2);
      });
      socket.on("close", () => resolve());
      socket.on("error", () => {});
    });
  });
  const health = await healthz(ctx);
  await Bun.sleep(500);
  const after = sample(ctx);
  report("aborted uploads", before, after);
  ctx.checks.check("aborted uploads: /healthz still answers", health === 200, `status ${health}`);
  ctx.checks.atMost("aborted uploads: log bytes", after.log - before.log, 16 * 1024, (v) => `${v} B`);
  ctx.checks.atMost("aborted uploads: RSS growth", after.rss - before.rss, 32 * MB, mb);
}

/** Another process holds the database's write lock for a while: pushes 503 at once, reads served, one log line. */
export async function heldLock(ctx: AttackContext, token: string): Promise<void> {
  const n = scaled(ctx, 300);
  console.log(`\na held database lock: BEGIN EXCLUSIVE from another connection while ${n} pushes and ${n} banners and badges arrive`);
  const before = sample(ctx);
  const uuid = newUuid();
  const pushed = await flood(ctx, 1, () => signedHeartbeat(token, uuid, "17.0.0.1"));
  const lock = new Database(ctx.dbPath);
  let refused: Record<number, number>;
  let reads: Record<number, number>;
  let slowest = 0;
  let health: number;
  try {
    lock.run("BEGIN EXCLUSIVE");
    const started = performance.now();
    [refused, reads] = await Promise.all([
      flood(ctx, n, (i) => signedHeartbeat(token, uuid, ipv4(17, i + 1))),
      flood(ctx, n, (i) => get(i % 2 ? `/api/banner?data_mode=plugin&server_uuid=${uuid}&online_players=${i}` : `/shields/servers/${uuid}/status.png?label=l${i}`, ipv4(18, i))),
    ]);
    slowest = performance.now() - started;
    health = await healthz(ctx);
  } finally {
    lock.run("ROLLBACK");
    lock.close();
  }
  await Bun.sleep(1_100); // the pause after a busy write
  const recovered = await flood(ctx, 1, () => signedHeartbeat(token, uuid, "17.255.0.1"));
  const after = sample(ctx);
  report("held lock", before, after, `pushes ${show(refused)}, reads ${show(reads)}`);
  ctx.checks.check("held lock: the first push before the lock was accepted", pushed[200] === 1, show(pushed));
  ctx.checks.check("held lock: every push answered 503", refused[503] === n, show(refused));
  ctx.checks.check("held lock: every banner and badge served", reads[200] === n, show(reads));
  ctx.checks.check("held lock: /healthz says 503", health === 503, `status ${health}`);
  ctx.checks.atMost(`held lock: ${2 * n} requests answered within (not a stall of 5 s each)`, slowest, 10_000, (v) => `${Math.round(v)} ms`);
  ctx.checks.check("held lock: pushes accepted again once it is released", recovered[200] === 1, show(recovered));
  // Each refused push comes from an address of its own, within its 20 lines a minute: one warn line each, and one line for the fault.
  ctx.checks.atMost("held lock: log bytes (a line per refused push from a new address, one for the fault)", after.log - before.log, n * 512 + 8 * 1024, (v) => `${v} B`);
}

/** Sockets opened and left idle: the server keeps answering, then closes them after its idle timeout. */
export async function idleSockets(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 10_000);
  console.log(`\n${n} idle connections, held past the idle timeout (${IDLE_TIMEOUT_SECONDS} s)`);
  const before = sample(ctx);
  const filesBefore = openFiles(ctx.pid);
  const sockets: Socket[] = [];
  let closedByServer = 0;
  try {
    await pool(n, 64, async () => {
      await new Promise<void>((resolve) => {
        const socket = connect(ctx.port, "127.0.0.1", () => resolve());
        socket.on("error", () => resolve());
        socket.on("close", () => closedByServer++);
        sockets.push(socket);
      });
    });
    const filesHeld = openFiles(ctx.pid);
    const started = performance.now();
    const health = await healthz(ctx);
    const banner = await fetch(`${ctx.url}/api/banner?server_name=idle`, { headers: { "X-Forwarded-For": "19.0.0.1" }, signal: AbortSignal.timeout(10_000) }).then((r) => r.status, () => 0);
    const waited = performance.now() - started;
    const held = sample(ctx);
    report("held", before, held, `server file descriptors ${filesBefore} -> ${filesHeld}`);
    ctx.checks.check("idle connections: /healthz and a banner answered while they are held", health === 200 && banner === 200, `healthz ${health}, banner ${banner}, ${Math.round(waited)} ms`);
    await Bun.sleep((IDLE_TIMEOUT_SECONDS + 6) * 1000);
    const filesAfter = openFiles(ctx.pid);
    report("after the idle timeout", held, sample(ctx), `server file descriptors ${filesAfter}, ${closedByServer} of ${n} closed by the server`);
    ctx.checks.check("idle connections: closed by the server after its idle timeout", closedByServer >= n * 0.99, `${closedByServer} of ${n}`);
    ctx.checks.atMost("idle connections: server file descriptors after", filesAfter, filesBefore + 16);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

/** Bodies trickled a byte a second: each cut off at the body deadline, nobody else waits. */
export async function slowSenders(ctx: AttackContext): Promise<void> {
  const n = scaled(ctx, 1_000);
  console.log(`\n${n} slow senders trickling a push body at 1 byte/s (body deadline ${BODY_DEADLINE_MS / 1000} s)`);
  const before = sample(ctx);
  const started = performance.now();
  const outcomes: Array<{ status: string; ms: number }> = [];
  const sockets: Socket[] = [];
  const done = Array.from({ length: n }, (_, i) =>
    new Promise<void>((resolve) => {
      let received = "";
      const socket = connect(ctx.port, "127.0.0.1", () => {
        socket.write(
          "POST /api/server/update HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n" +
            `X-Server-UUID: ${newUuid()}\r\nX-Server-Token: pn_x\r\nX-Timestamp: 1\r\nX-Signature: 00\r\nX-Forwarded-For: ${ipv4(20, i)}\r\nContent-Length: 1000\r\n\r\n`,
        );
        const timer = setInterval(() => socket.writable && socket.write("x"), 1000);
        socket.on("close", () => {
          clearInterval(timer);
          outcomes.push({ status: received.slice(9, 12) || "none", ms: performance.now() - started });
          resolve();
        });
      });
      socket.on("data", (data) => (received += data.toString("latin1")));
      socket.on("error", () => {});
      sockets.push(socket);
    }),
  );
  try {
    await Bun.sleep(2_000);
    const health = await healthz(ctx);
    ctx.checks.check("slow senders: /healthz answers while they trickle", health === 200, `status ${health}`);
    await Promise.race([Promise.all(done), Bun.sleep(BODY_DEADLINE_MS + 20_000)]);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  const after = sample(ctx);
  const cut = outcomes.filter((outcome) => outcome.status === "408");
  const latest = Math.max(0, ...cut.map((outcome) => outcome.ms));
  report("slow senders", before, after, `${cut.length} answered 408, the last after ${Math.round(latest)} ms`);
  ctx.checks.check("slow senders: every one cut off with 408", cut.length === n, `${cut.length} of ${n}`);
  ctx.checks.atMost("slow senders: cut off by the body deadline and a margin", latest, BODY_DEADLINE_MS + 5_000, (v) => `${Math.round(v)} ms`);
}

interface SilentListeners {
  ports: number[];
  peak: () => number;
  close(): Promise<void>;
}

async function silentListeners(count: number): Promise<SilentListeners> {
  let open = 0;
  let peak = 0;
  const servers: Server[] = [];
  const accepted = new Set<Socket>();
  for (let i = 0; i < count; i++) {
    const listener = createServer((socket) => {
      accepted.add(socket);
      peak = Math.max(peak, ++open);
      socket.on("close", () => {
        open--;
        accepted.delete(socket);
      });
      socket.on("error", () => {});
      // Read (and drop) what arrives: a paused socket never sees the peer's FIN, and would count as open for ever.
      socket.resume();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    servers.push(listener);
  }
  return {
    ports: servers.map((listener) => (listener.address() as AddressInfo).port),
    peak: () => peak,
    async close() {
      for (const socket of accepted) socket.destroy();
      await Promise.all(servers.map((listener) => new Promise((resolve) => listener.close(resolve))));
    },
  };
}

/** Banners in query mode for servers that accept and never answer: bounded sockets, banners from defaults in time. */
export async function lookupStorm(ctx: AttackContext): Promise<void> {
  const targets = scaled(ctx, 500);
  const n = 4 * targets;
  const { deadlineMs, maxConcurrent } = DEFAULT_LOOKUP_SETTINGS;
  console.log(`\nlookup storm: ${n} banners in query mode for ${targets} servers that never answer`);
  const silent = await silentListeners(targets);
  const before = sample(ctx);
  try {
    const started = performance.now();
    let slowest = 0;
    const statuses: Record<number, number> = {};
    await pool(n, 256, async (i) => {
      const host = i % 2 ? "127.0.0.1" : "localhost";
      const at = performance.now();
      const status = await fetch(`${ctx.url}/api/banner?data_mode=query&ip_address=${host}:${silent.ports[i % targets]}&server_name=storm`, {
        headers: { "X-Forwarded-For": ipv4(21, i) },
        signal: AbortSignal.timeout(60_000),
      }).then(async (response) => (await response.arrayBuffer(), response.status), () => 0);
      slowest = Math.max(slowest, performance.now() - at);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    const after = sample(ctx);
    report("lookup storm", before, after, `${show(statuses)} in ${Math.round(performance.now() - started)} ms, peak ${silent.peak()} sockets at the silent servers`);
    ctx.checks.check("lookup storm: every banner drawn (from defaults)", statuses[200] === n, show(statuses));
    ctx.checks.atMost("lookup storm: slowest banner (lookup deadline + margin)", slowest, deadlineMs + 3_000, (v) => `${Math.round(v)} ms`);
    // Two TCP sockets per running lookup, and those of lookups just ended still closing (docs/lookups.md: 64 x 3).
    ctx.checks.atMost("lookup storm: sockets open at once to the silent servers", silent.peak(), 3 * maxConcurrent + 16);
  } finally {
    await silent.close();
  }
}
