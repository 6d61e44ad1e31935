import { afterEach, describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";
import { parseKeptMotd } from "../../src/lookup/kept-motd.ts";
import type { Resolver, SrvTarget } from "../../src/lookup/dns.ts";
import { offline, type LookupResult, type Target } from "../../src/lookup/result.ts";
import { LookupService, type Endpoint, type LookupSettings } from "../../src/lookup/lookup-service.ts";
import { lookupJson } from "../../src/lookup/view.ts";
import { hasIpv6Loopback, startBedrockPeer, startBedrockProtocolPeer } from "../support/bedrock-peer.ts";
import { startCountingPeer, type CountingPeer, type PeerBehaviour } from "../support/java-peers.ts";
import { faviconPng, nearMaximalStatus } from "../support/lookup-replies.ts";
import { startQueryPeer, type QueryPeer } from "../support/query-peer.ts";

const ipv6 = await hasIpv6Loopback();
/** Everything a test started, closed after it whatever happened. */
const peers: Array<{ close(): unknown }> = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(...args: Parameters<typeof startCountingPeer>): Promise<CountingPeer> {
  const started = await startCountingPeer(...args);
  peers.push(started);
  return started;
}

/**
 * A Java peer with Query on the same port number, as a real server's
 * query.port defaults to: the UDP port is chosen by the system, the TCP peer
 * takes the same number (another try if that TCP port is taken).
 */
async function peerWithQuery(behaviour: PeerBehaviour, values: Record<string, string>, held?: Promise<void>): Promise<{ java: CountingPeer; query: QueryPeer }> {
  for (let attempt = 1; ; attempt++) {
    const query = await startQueryPeer({ values, players: [], held });
    peers.push(query);
    try {
      return { java: await peer(behaviour, {}, query.port), query };
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** A resolver answering from tables, counting its calls. */
function stubResolver(addresses: Record<string, string[]>, srv: Record<string, SrvTarget[]> = {}) {
  const calls = { addresses: 0, srv: 0, asked: [] as string[] };
  const resolver: Resolver = {
    async addresses(host) {
      calls.addresses++;
      calls.asked.push(host);
      return addresses[host] ?? [];
    },
    async srv(name) {
      calls.srv++;
      calls.asked.push(name);
      return srv[name] ?? [];
    },
  };
  return { resolver, calls };
}

function service(settings: Partial<LookupSettings> = {}, caches?: CacheBudget): LookupService {
  return new LookupService({ deadlineMs: 2000, legacyHeadStartMs: 1000, ...settings }, caches);
}

/** Goes through every step of a lookup but the sockets: records where it would connect, and answers that nothing replied. */
class Unconnected extends LookupService {
  readonly contacted: Endpoint[] = [];

  protected override async ping(target: Target, endpoint: Endpoint): Promise<LookupResult> {
    this.contacted.push(endpoint);
    return offline(target, "timeout", "not contacted");
  }
}

/** A resolver whose first answer is 127.0.0.1 and every later one 127.0.0.2 (a DNS rebinding), counting its answers. */
function rebindingResolver(): { resolver: Resolver; answers: () => number } {
  let count = 0;
  const resolver: Resolver = {
    async addresses() {
      count++;
      return count === 1 ? ["127.0.0.1"] : ["127.0.0.2"];
    },
    async srv() {
      return [];
    },
  };
  return { resolver, answers: () => count };
}

describe("safe by default", () => {
  test("loopback, private, link-local and mapped addresses never open a socket", async () => {
    const target = await peer("modern");
    const { resolver } = stubResolver({ "sneaky.example.com": ["10.0.0.7", "192.168.1.2"] });
    const lookups = service({ resolver });
    const literals = [`127.0.0.1:${target.port}`, `[::1]:${target.port}`, `[::ffff:127.0.0.1]:${target.port}`, "10.1.2.3", "169.254.169.254:80"];
    for (const address of literals) {
      const result = await lookups.lookup({ address });
      expect(result).toMatchObject({ online: false, ipAddress: null, error: { code: "blocked_address" } });
      expect(result.error?.message).toContain("PENNANT_LOOKUP_PRIVATE");
    }
    for (const address of [`localhost:${target.port}`, `sneaky.example.com:${target.port}`]) {
      expect(await lookups.lookup({ address })).toMatchObject({ online: false, ipAddress: null, error: { code: "no_such_host" } });
    }
    expect(target.connections).toBe(0);
  });

  test("a name that resolves only to blocked addresses answers exactly like one that does not resolve", async () => {
    const { resolver } = stubResolver({ "intranet.example.com": ["10.0.0.7", "fd00::7"] });
    const lookups = service({ resolver });
    const blocked = lookupJson(await lookups.lookup({ address: "intranet.example.com:25565" }));
    const missing = lookupJson(await lookups.lookup({ address: "nowhere.example.com:25565" }));
    expect(blocked).toEqual({ ...missing, host: "intranet.example.com", error: { ...missing.error!, message: missing.error!.message.replace("nowhere", "intranet") } });
    expect(blocked).toMatchObject({ ip_address: null, error: { code: "no_such_host" } });
    expect(JSON.stringify(blocked)).not.toMatch(/10\.0\.0\.7|fd00|PENNANT_LOOKUP_PRIVATE/);
  });

  test("localhost, blocked, reveals nothing publicly; the operator's note names the address and the switch", async () => {
    const result = await service().lookup({ address: "localhost" });
    expect(JSON.stringify(lookupJson(result))).not.toContain("127.0.0.1");
    expect(result.operatorNote).toContain("127.0.0.1");
    expect(result.operatorNote).toContain("PENNANT_LOOKUP_PRIVATE");
  });

  test("a hostname resolving to a public address is allowed (decided without opening a socket)", async () => {
    const { resolver, calls } = stubResolver({ "play.example.com": ["8.8.4.4"] });
    const lookups = new Unconnected({ resolver });
    await lookups.lookup({ address: "play.example.com:25570" });
    expect(lookups.contacted).toEqual([{ ip: "8.8.4.4", port: 25570, hostname: "play.example.com" }]);
    expect(calls.srv).toBe(0); // a typed port means no SRV
  });

  test("when a name has private and public addresses, only a public one is used", async () => {
    const { resolver } = stubResolver({ "mixed.example.com": ["127.0.0.1", "1.1.1.1"] });
    const lookups = new Unconnected({ resolver });
    await lookups.lookup({ address: "mixed.example.com:1" });
    expect(lookups.contacted.map((endpoint) => endpoint.ip)).toEqual(["1.1.1.1"]);
  });

  test("an SRV target that is blocked is skipped like one that does not resolve, and named to the operator only", async () => {
    const srv = { "_minecraft._tcp.public.example.com": [{ host: "internal.example.com.", port: 25570, priority: 0, weight: 0 }] };
    const { resolver } = stubResolver({ "internal.example.com": ["10.0.0.1"], "public.example.com": ["8.8.4.4"] }, srv);
    const lookups = new Unconnected({ resolver });
    const result = await lookups.lookup({ address: "public.example.com" });
    // The plain name is tried next: the game's port on its public address.
    expect(lookups.contacted).toEqual([{ ip: "8.8.4.4", port: 25565, hostname: "public.example.com" }]);
    expect(result).toMatchObject({ ipAddress: "8.8.4.4", srvRecord: null, error: { code: "timeout" } });
    expect(JSON.stringify(lookupJson(result))).not.toMatch(/internal|10\.0\.0\.1|25570/);
    expect(result.operatorNote).toBe("internal.example.com resolves to 10.0.0.1, not a public address; lookups of private networks are off (PENNANT_LOOKUP_PRIVATE=on allows them)");
  });

  test("no more than four SRV targets are tried, then the plain name", async () => {
    const records = Array.from({ length: 12 }, (_, i) => ({ host: `t${i}.example.com`, port: 30_000 + i, priority: i, weight: 0 }));
    const { resolver } = stubResolver(Object.fromEntries([...records.map((r) => [r.host, ["8.8.4.4"]]), ["many.example.com", ["8.8.8.8"]]]), { "_minecraft._tcp.many.example.com": records });
    const lookups = new Unconnected({ resolver, maxPerTarget: 100 });
    const result = await lookups.lookup({ address: "many.example.com" });
    expect(lookups.contacted.map((endpoint) => `${endpoint.ip}:${endpoint.port}`)).toEqual(["8.8.4.4:30000", "8.8.4.4:30001", "8.8.4.4:30002", "8.8.4.4:30003", "8.8.8.8:25565"]);
    // None answered: the first failure is the answer, naming its SRV target.
    expect(result).toMatchObject({ ipAddress: "8.8.4.4", srvRecord: { host: "t0.example.com", port: 30_000 }, error: { code: "timeout" } });
  });

  test("the legacy ping and Query go to the checked IP as well, never to the typed name", async () => {
    // Both peers accept and answer, on 127.0.0.1 only; the name is known to the stub resolver
    // alone, and a second question would be answered with another address.
    const { java, query } = await peerWithQuery("legacy-only", { map: "checked" });
    const { resolver, answers } = rebindingResolver();
    const lookups = service({ resolver, allowPrivate: true, legacyHeadStartMs: 50 });
    await lookups.lookup({ address: `typed.example.com:${java.port}` });
    await lookups.lateQueriesEnded();
    const result = await lookups.lookup({ address: `typed.example.com:${java.port}` });
    expect(result).toMatchObject({ online: true, protocolUsed: "legacy", ipAddress: "127.0.0.1", map: "checked" });
    expect(java.connections).toBe(2); // the modern ping (hung up on), then the legacy one
    expect(query.requests).toBe(2); // handshake and full stat
    expect(answers()).toBe(1);
  });

  test("the name is resolved once and the checked IP is the one contacted (no rebinding)", async () => {
    const target = await peer("modern");
    const { resolver, answers } = rebindingResolver();
    const result = await service({ resolver, allowPrivate: true }).lookup({ address: `rebind.example.com:${target.port}` });
    expect(result.online).toBe(true);
    expect(result.ipAddress).toBe("127.0.0.1");
    expect(answers()).toBe(1);
  });
});

describe("addresses and SRV", () => {
  test("invalid addresses are reported without any lookup", async () => {
    const { resolver, calls } = stubResolver({});
    for (const address of ["", "host:99999", "http://example.com", "a b"]) {
      expect((await service({ resolver }).lookup({ address })).error?.code).toBe("invalid_address");
    }
    expect(calls.addresses + calls.srv).toBe(0);
  });

  test("a name that does not resolve is no_such_host", async () => {
    const { resolver } = stubResolver({});
    expect((await service({ resolver }).lookup({ address: "nothing.example.com" })).error?.code).toBe("no_such_host");
  });

  test("SRV is followed by priority, then weight, when no port was typed", async () => {
    const good = await peer("modern");
    const { resolver, calls } = stubResolver(
      { "a.example.com": ["127.0.0.1"], "b.example.com": ["127.0.0.1"] },
      {
        "_minecraft._tcp.mc.example.com": [
          { host: "b.example.com.", port: 1, priority: 10, weight: 100 },
          { host: "a.example.com.", port: 2, priority: 0, weight: 1 },
          { host: "a.example.com.", port: good.port, priority: 0, weight: 50 },
        ],
      },
    );
    const result = await service({ resolver, allowPrivate: true }).lookup({ address: "mc.example.com" });
    expect(result.online).toBe(true);
    expect(result.srvRecord).toEqual({ host: "a.example.com", port: good.port });
    expect(result.host).toBe("mc.example.com");
    expect(result.port).toBe(25565);
    expect(calls.srv).toBe(1);
  });
});

/** A resolver whose answers never come, counting questions still waiting and those withdrawn. */
function hangingResolver() {
  const state = { pending: 0, withdrawn: 0 };
  const hang = (signal: AbortSignal) =>
    new Promise<never>((_, reject) => {
      state.pending++;
      signal.addEventListener("abort", () => {
        state.pending--;
        state.withdrawn++;
        reject(new Error("withdrawn"));
      });
    });
  const resolver: Resolver = { addresses: (_host, signal) => hang(signal), srv: (_name, signal) => hang(signal) };
  return { resolver, state };
}

describe("DNS", () => {
  test("questions DNS never answers are withdrawn at their deadline, and the lookup answers", async () => {
    const { resolver, state } = hangingResolver();
    const result = await service({ resolver, deadlineMs: 300, srvBudgetMs: 100 }).lookup({ address: "quiet.example.com" });
    // Nothing said the name does not exist: the lookup ran out of time.
    expect(result.error).toEqual({ code: "timeout", message: "no answer within 300 ms" });
    // SRV withdrawn at its budget, then the A/AAAA question at the lookup's deadline: none left waiting.
    expect(state).toEqual({ pending: 0, withdrawn: 2 });
  });

  test("a lookup whose time runs out before any place is tried answers timeout, not that the name does not resolve", async () => {
    // Found by CI: a lookup handed a slot just before its deadline spent the rest on the SRV question.
    const clock = { now: 0 };
    const resolver: Resolver = {
      addresses: async () => ["127.0.0.1"],
      srv: async () => {
        clock.now += 5_000; // the whole deadline goes by while SRV is asked
        return [];
      },
    };
    const lookups = service({ resolver, allowPrivate: true, now: () => clock.now, deadlineMs: 2000 });
    const result = await lookups.lookup({ address: "late.example.com" });
    expect(result).toMatchObject({ online: false, ipAddress: null, error: { code: "timeout", message: "no answer within 2000 ms" } });
  });

  test("a name DNS says does not exist answers no_such_host at once, with time left", async () => {
    const { resolver } = stubResolver({});
    const result = await service({ resolver, deadlineMs: 2000 }).lookup({ address: "absent.example.com" });
    expect(result.error?.code).toBe("no_such_host");
  });

  test("localhost and names under it are loopback without asking DNS (with PENNANT_LOOKUP_PRIVATE)", async () => {
    const target = await peer("modern");
    const { resolver, state } = hangingResolver();
    const lookups = service({ resolver, allowPrivate: true, deadlineMs: 1000 });
    for (const address of [`localhost:${target.port}`, `mc.localhost:${target.port}`]) {
      expect(await lookups.lookup({ address })).toMatchObject({ online: true, ipAddress: "127.0.0.1" });
    }
    expect(state).toEqual({ pending: 0, withdrawn: 0 }); // DNS was never asked
  });
});

describe("protocols", () => {
  test("a modern server answers with version, players, MOTD runs and latency", async () => {
    const target = await peer("modern", { description: { text: "Hi", color: "gold" }, players: { online: 5, max: 50, sample: [{ name: "Alex", id: "x" }] } });
    const result = await service({ allowPrivate: true }).lookup({ address: `127.0.0.1:${target.port}` });
    expect(result).toMatchObject({ online: true, protocolUsed: "modern", edition: "java", version: { name: "Peer 1.21", protocol: 767 }, players: { online: 5, max: 50, sample: ["Alex"] } });
    expect(parseKeptMotd(result.motd!)).toEqual([{ text: "Hi", color: "#ffaa00", bold: false, italic: false, underlined: false, strikethrough: false, obfuscated: false }]);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  test("a legacy-only server is read with the legacy ping", async () => {
    const target = await peer("legacy-only");
    const result = await service({ allowPrivate: true }).lookup({ address: `127.0.0.1:${target.port}` });
    expect(result).toMatchObject({ online: true, protocolUsed: "legacy", version: { name: "1.5.2", protocol: 127 }, players: { online: 4, max: 8 } });
  });

  test("Query adds software, plugins and map when the server answers it", async () => {
    const { java } = await peerWithQuery("modern", { plugins: "Paper on 1.21: Vault 1.7", map: "lobby" });
    const lookups = service({ allowPrivate: true });
    await lookups.lookup({ address: `127.0.0.1:${java.port}` });
    await lookups.lateQueriesEnded();
    const result = await lookups.lookup({ address: `127.0.0.1:${java.port}` });
    expect(result.software).toBe("Paper on 1.21");
    expect(result.plugins).toEqual([{ name: "Vault", version: "1.7" }]);
    expect(result.map).toBe("lobby");
  });

  test("a slow Query never delays the answer: its fields come to the kept result when it answers", async () => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { java, query } = await peerWithQuery("modern", { map: "lobby" }, held);
    const lookups = service({ allowPrivate: true });
    const first = await lookups.lookup({ address: `127.0.0.1:${java.port}` });
    // Answered while the Query server still holds its full stat.
    expect(first).toMatchObject({ online: true, map: null, software: null });
    expect(query.requests).toBe(2);
    answer();
    await lookups.lateQueriesEnded();
    const later = await lookups.lookup({ address: `127.0.0.1:${java.port}` });
    expect(later).toMatchObject({ online: true, map: "lobby", players: first.players });
    expect(query.requests).toBe(2); // the kept result, completed: no second lookup
  });

  test("late queries are bounded: past maxConcurrent going on, a lookup's Query is dropped", async () => {
    const held = new Promise<void>(() => {}); // never answers
    const servers = await Promise.all([1, 2, 3].map(() => peerWithQuery("modern", { map: "lobby" }, held)));
    const lookups = service({ allowPrivate: true, maxConcurrent: 2, maxPerTarget: 10, deadlineMs: 300 });
    for (const { java } of servers) await lookups.lookup({ address: `127.0.0.1:${java.port}` });
    expect(lookups.lateQueriesGoingOn).toBe(2);
    await lookups.lateQueriesEnded(); // each ends at its lookup's deadline
  });

  test("a server that never answers times out within the deadline", async () => {
    const target = await peer("silent");
    const started = performance.now();
    const result = await service({ allowPrivate: true, deadlineMs: 300, legacyHeadStartMs: 50 }).lookup({ address: `127.0.0.1:${target.port}` });
    expect(result.error?.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("a refused port is reported as refused", async () => {
    const target = await peer("modern");
    const port = target.port;
    await target.close();
    const result = await service({ allowPrivate: true, legacyHeadStartMs: 50 }).lookup({ address: `127.0.0.1:${port}` });
    expect(result.error?.code).toBe("refused");
  });
});

describe("load", () => {
  test("50 concurrent lookups of one address open one connection", async () => {
    const target = await peer("modern");
    const lookups = service({ allowPrivate: true });
    const results = await Promise.all(Array.from({ length: 50 }, () => lookups.lookup({ address: `127.0.0.1:${target.port}` })));
    expect(results.every((result) => result.online)).toBe(true);
    expect(target.connections).toBe(1);
  });

  test("results are cached for a minute, failures for less", async () => {
    const clock = { now: Date.now() };
    const target = await peer("modern");
    const lookups = service({ allowPrivate: true, now: () => clock.now });
    await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    expect(target.connections).toBe(1);
    clock.now += 61_000;
    await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    expect(target.connections).toBe(2);
  });

  test("an answer is current while its result is kept: not once it expires, nor once a late Query completes it", async () => {
    const clock = { now: Date.now() };
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { java } = await peerWithQuery("modern", { map: "lobby" }, held);
    const lookups = service({ allowPrivate: true, now: () => clock.now });
    const address = `127.0.0.1:${java.port}`;
    const first = await lookups.lookup({ address });
    expect(lookups.isCurrent(first)).toBe(true);
    expect(lookups.isCurrent({ ...first })).toBe(false); // not an answer it gave
    answer();
    await lookups.lateQueriesEnded();
    expect(lookups.isCurrent(first)).toBe(false);
    const completed = await lookups.lookup({ address });
    expect(completed.map).toBe("lobby");
    expect(lookups.isCurrent(completed)).toBe(true);
    clock.now += 61_000;
    expect(lookups.isCurrent(completed)).toBe(false);
  });

  test("an answer with a favicon is current only while that favicon is the one kept", async () => {
    const clock = { now: Date.now() };
    const icon = `data:image/png;base64,${Buffer.from(faviconPng(24, 0)).toString("base64")}`;
    const target = await peer("modern", { favicon: icon });
    const lookups = service({ allowPrivate: true, now: () => clock.now, successTtlMs: 120_000, faviconTtlMs: 60_000 });
    const first = await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    expect(first.favicon?.length).toBe(24);
    expect(lookups.isCurrent(first)).toBe(true);
    clock.now += 61_000; // the result is still kept, its favicon no longer
    expect(lookups.isCurrent(first)).toBe(false);
  });

  test("a cached favicon is kept when the server later goes offline", async () => {
    const clock = { now: Date.now() };
    const icon = `data:image/png;base64,${Buffer.from(faviconPng(24, 0)).toString("base64")}`;
    const target = await peer("modern", { favicon: icon });
    const lookups = service({ allowPrivate: true, now: () => clock.now, legacyHeadStartMs: 50 });
    const first = await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    expect(first.favicon?.length).toBe(24);
    await target.close();
    clock.now += 61_000;
    const later = await lookups.lookup({ address: `127.0.0.1:${target.port}` });
    expect(later.online).toBe(false);
    expect(later.favicon?.length).toBe(24);
  });

  test("near-maximal replies from many addresses keep each cache within its byte bound", async () => {
    const target = await peer("modern", nearMaximalStatus(0));
    const names = Array.from({ length: 60 }, (_, i) => `n${i}.example.com`);
    const { resolver } = stubResolver(Object.fromEntries(names.map((name) => [name, ["127.0.0.1"]])));
    const bounds = { lookup_results: 512 * 1024, lookup_favicons: 64 * 1024 };
    const lookups = service({ resolver, allowPrivate: true, maxPerTarget: 100 }, new CacheBudget({ ...CACHE_SHARES, ...bounds }));
    for (const name of names) {
      const result = await lookups.lookup({ address: `${name}:${target.port}` });
      expect(result.online).toBe(true);
      expect(result.favicon?.length).toBe(4500);
    }
    const usage = lookups.cacheUsage;
    expect(usage.results.bytes).toBeLessThanOrEqual(bounds.lookup_results);
    expect(usage.favicons.bytes).toBeLessThanOrEqual(bounds.lookup_favicons);
    // The oldest went; what stays is small (a near-maximal result kept whole costs ~580 KB).
    expect(usage.results.entries).toBeLessThan(names.length);
    expect(usage.results.bytes / usage.results.entries).toBeLessThan(64 * 1024);
    // The most recent is still served from the cache, icon included.
    const again = await lookups.lookup({ address: `${names.at(-1)}:${target.port}` });
    expect(target.connections).toBe(names.length);
    expect(again.favicon?.length).toBe(4500);
  });

  test("expired results are swept by later writes, even if never read again", async () => {
    const clock = { now: Date.now() };
    const lookups = service({ now: () => clock.now });
    // Blocked addresses: failures cached for 15 s, no socket needed.
    for (let i = 1; i <= 10; i++) await lookups.lookup({ address: `10.0.0.${i}` });
    expect(lookups.cacheUsage.results.entries).toBe(10);
    clock.now += 30_000;
    await lookups.lookup({ address: "10.0.1.1" });
    expect(lookups.cacheUsage.results.entries).toBe(1);
  });

  test("the process-wide cap makes the next lookup wait, not run", async () => {
    // The peer accepts and holds every connection until released: slots stay taken.
    const held = await peer("held");
    const names = ["a.example.com", "b.example.com", "c.example.com"];
    const { resolver, calls } = stubResolver(Object.fromEntries(names.map((name) => [name, ["127.0.0.1"]])));
    const lookups = service({ resolver, allowPrivate: true, maxConcurrent: 2, maxWaiting: 5, maxPerTarget: 10, legacyHeadStartMs: 10_000 });
    let settled = 0;
    const running = names.map((name) => lookups.lookup({ address: `${name}:${held.port}` }).finally(() => settled++));
    while (held.held < 2) await Bun.sleep(5);
    // The third lookup waits for a slot: it has not even asked DNS.
    expect(held.connections).toBe(2);
    expect(calls.addresses).toBe(2);
    expect(settled).toBe(0);
    held.release();
    while (held.held < 1) await Bun.sleep(5); // the third one's request, now that a slot is free
    expect(held.connections).toBe(3);
    expect(calls.addresses).toBe(3);
    held.release();
    expect((await Promise.all(running)).map((result) => result.online)).toEqual([true, true, true]);
  });

  test("the waiting line is bounded: beyond it lookups answer busy at once, without asking DNS", async () => {
    const silent = await peer("silent"); // accepts and holds: running lookups keep their slots
    const names = Array.from({ length: 10 }, (_, i) => `n${i}.example.com`);
    const { resolver, calls } = stubResolver(Object.fromEntries(names.map((name) => [name, ["127.0.0.1"]])));
    const lookups = service({ resolver, allowPrivate: true, maxConcurrent: 2, maxWaiting: 3, maxPerTarget: 10, deadlineMs: 300, legacyHeadStartMs: 10_000 });
    const settled: string[] = [];
    const results = await Promise.all(names.map((name, i) => lookups.lookup({ address: `${name}:${silent.port}` }).finally(() => settled.push(`${i}`))));
    const codes = results.map((result) => result.error?.code);
    expect(codes.slice(0, 2)).toEqual(["timeout", "timeout"]);
    expect(codes.slice(5)).toEqual(Array(5).fill("busy"));
    // In line until the deadline, which the wait for a slot is part of: busy, or (when a slot frees in
    // the same moment as the deadline) a start with no time left, which times out.
    for (const code of codes.slice(2, 5)) expect(["busy", "timeout"]).toContain(code ?? "none");
    // Beyond the line: at once, before anything in line settles, and without asking DNS.
    expect(settled.slice(0, 5).sort()).toEqual(["5", "6", "7", "8", "9"]);
    expect(calls.asked.filter((name) => /n[5-9]\.example\.com$/.test(name))).toEqual([]);
    expect(calls.addresses).toBeGreaterThanOrEqual(2);
  });

  test("a busy answer is not kept: the next lookup of that address tries again", async () => {
    const silent = await peer("silent");
    const { resolver, calls } = stubResolver({ "a.example.com": ["127.0.0.1"], "b.example.com": ["127.0.0.1"] });
    const lookups = service({ resolver, allowPrivate: true, maxConcurrent: 1, maxWaiting: 0, maxPerTarget: 10, deadlineMs: 200, legacyHeadStartMs: 10_000 });
    const [a, b] = await Promise.all(["a", "b"].map((name) => lookups.lookup({ address: `${name}.example.com:${silent.port}` })));
    expect([a!.error?.code, b!.error?.code]).toEqual(["timeout", "busy"]);
    const again = await lookups.lookup({ address: `b.example.com:${silent.port}` });
    expect(again.error?.code).toBe("timeout");
    expect(calls.addresses).toBe(2);
  });

  test("a lookup waiting for a slot answers busy at its deadline, however long the line ahead of it takes", async () => {
    // Found by the lookup storm test: each lookup in line waited for a slot and then had its whole deadline again.
    const silent = await peer("silent");
    const names = Array.from({ length: 8 }, (_, i) => `w${i}.example.com`);
    const { resolver } = stubResolver(Object.fromEntries(names.map((name) => [name, ["127.0.0.1"]])));
    const lookups = service({ resolver, allowPrivate: true, maxConcurrent: 2, maxWaiting: 100, maxPerTarget: 10, deadlineMs: 300, legacyHeadStartMs: 10_000 });
    const started = performance.now();
    const elapsed = await Promise.all(names.map((name) => lookups.lookup({ address: `${name}:${silent.port}` }).then(() => performance.now() - started)));
    // A safety bound, not a speed test: four rounds of 300 ms in line before, one deadline and its timers now.
    expect(Math.max(...elapsed)).toBeLessThan(300 + 250);
    // Each running lookup holds at most two TCP sockets (modern and legacy ping; a closing one may overlap its successor).
    expect(silent.peakOpen).toBeLessThanOrEqual(2 * 2);
  });
});

describe("more load rules", () => {
  test("failures are cached too, for 15 s", async () => {
    // Real time plus a skip, so the lookup's own deadline still runs out.
    let skipped = 0;
    const silent = await peer("silent");
    const lookups = service({ allowPrivate: true, now: () => Date.now() + skipped, deadlineMs: 200, legacyHeadStartMs: 1000 });
    await lookups.lookup({ address: `127.0.0.1:${silent.port}` });
    await lookups.lookup({ address: `127.0.0.1:${silent.port}` });
    expect(silent.connections).toBe(1);
    skipped += 16_000;
    await lookups.lookup({ address: `127.0.0.1:${silent.port}` });
    expect(silent.connections).toBe(2);
  });

  test("lookups of one target under different spellings are capped per target", async () => {
    const silent = await peer("silent");
    const { resolver } = stubResolver({ "a.example.com": ["127.0.0.1"], "b.example.com": ["127.0.0.1"] });
    const lookups = service({ resolver, allowPrivate: true, maxPerTarget: 1, deadlineMs: 300, legacyHeadStartMs: 1000 });
    const results = await Promise.all([
      lookups.lookup({ address: `a.example.com:${silent.port}` }),
      lookups.lookup({ address: `b.example.com:${silent.port}` }),
    ]);
    expect(results.map((result) => result.error?.code).sort()).toEqual(["busy", "timeout"]);
    expect(silent.connections).toBe(1);
  });

  test.skipIf(!ipv6)("an IPv6 target is one target however its address is spelled", async () => {
    const silent = await peer("silent", {}, 0, "::1");
    const lookups = service({ allowPrivate: true, maxPerTarget: 1, deadlineMs: 300, legacyHeadStartMs: 1000 });
    const results = await Promise.all([
      lookups.lookup({ address: `[::1]:${silent.port}` }),
      lookups.lookup({ address: `[0:0:0:0:0:0:0:1]:${silent.port}` }),
    ]);
    expect(results.map((result) => result.error?.code).sort()).toEqual(["busy", "timeout"]);
    expect(silent.connections).toBe(1);
  });
});

describe("Bedrock", () => {
  test("a Java lookup of the Bedrock port that gets no Java answer tries Bedrock", async () => {
    const bedrock = await startBedrockProtocolPeer({ maxPlayers: 9, version: "1.21.50", motd: { motd: "Fallback", levelName: "Level" } });
    peers.push(bedrock);
    // The Bedrock port is a setting (19132 by default), so the test peer can use any free one.
    const result = await service({ allowPrivate: true, legacyHeadStartMs: 50, bedrockPort: bedrock.port }).lookup({ address: `127.0.0.1:${bedrock.port}` });
    expect(result).toMatchObject({ online: true, edition: "bedrock", protocolUsed: "bedrock", players: { max: 9 } });
    expect(result.motd?.raw).toBe("Fallback\nLevel");
  });

  test.skipIf(!ipv6)("an IPv6 address spelled out in full is looked up (the reply comes from ::1)", async () => {
    const bedrock = await startBedrockPeer("::1", "MCPE;Spelled out;712;1.21.50;2;20;1;Level;Survival;1;0;0;");
    peers.push(bedrock);
    const result = await service({ allowPrivate: true }).lookup({ address: `[0:0:0:0:0:0:0:1]:${bedrock.port}`, edition: "bedrock" });
    expect(result).toMatchObject({ online: true, host: "0:0:0:0:0:0:0:1", players: { online: 2, max: 20 } });
  });
});

describe("an unforeseen failure", () => {
  test("is reported through the injected callback and answered as a failed lookup, never thrown", async () => {
    // A resolver breaking its contract (not a list): nothing a check foresees.
    const broken: Resolver = { addresses: async () => ({}) as string[], srv: async () => [] };
    const reported: unknown[] = [];
    const result = await service({ resolver: broken, reportUnexpected: (error) => reported.push(error) }).lookup({ address: "broken.example.com:25565" });
    expect(result.online).toBe(false);
    expect(result.error?.code).toBe("bad_reply");
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(TypeError);
  });
});
