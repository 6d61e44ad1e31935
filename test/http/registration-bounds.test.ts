// Bounds that hold across every client, not per address: the tokens open
// registration may make in all (PENNANT_REGISTRATION_MAX), their expiry after
// a day without a push, and the JSON bytes one token's records may hold
// (PENNANT_MAX_BYTES_PER_TOKEN). Each client here stands behind a trusted
// proxy with its own address, so the per-address budgets are not what refuses.

import { afterEach, describe, expect, test } from "bun:test";
import { hashToken } from "../../src/auth/token.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server.close();
});

function count(table: "tokens" | "servers" | "plugins" | "server_samples" | "used_signatures"): number {
  return (server.db.$client.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

/** A push from client number `client` (its own address, 10.0.x.y). */
function sendFrom(client: number, call: SignedCall): Promise<Response> {
  const address = `10.0.${client >> 8}.${client & 255}`;
  return fetch(signedRequest(server.url, { ...call, headers: { ...call.headers, "X-Forwarded-For": address } }, server.clock.now));
}

const heartbeat = (token: string, uuid = newUuid()): SignedCall => ({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: uuid } });
const tokenNumber = (i: number) => `self-made-token-${String(i).padStart(4, "0")}-abcdef`;
const OPEN = { PENNANT_REGISTRATION: "open", PENNANT_TRUST_PROXY: "on" };
const DAY_MS = 24 * 3_600_000;

describe("PENNANT_REGISTRATION_MAX: tokens open registration makes in all", () => {
  test("at the cap a new token's first push gets 403 registration_full and stores nothing; tokens already made go on", async () => {
    server = await startTestServer({ ...OPEN, PENNANT_REGISTRATION_MAX: "3" });
    for (let i = 0; i < 3; i++) expect((await sendFrom(i, heartbeat(tokenNumber(i)))).status).toBe(200);

    const refused = await sendFrom(3, { path: `/api/plugins/${newUuid()}/data`, token: tokenNumber(3), tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toEqual({
      code: "registration_full",
      message: "open registration has made 3 tokens, the most PENNANT_REGISTRATION_MAX allows; ask the operator for a token; nothing was stored",
    });
    expect([count("tokens"), count("servers"), count("plugins"), count("used_signatures")]).toEqual([3, 3, 0, 3]);

    server.clock.now += 1000;
    expect((await sendFrom(0, heartbeat(tokenNumber(0)))).status).toBe(200);
    // Tokens of `token create` are not counted.
    expect((await sendFrom(4, heartbeat(server.token()))).status).toBe(200);
  });

  test("default: 100", async () => {
    server = await startTestServer(OPEN);
    expect(server.config.registrationMax).toBe(100);
  });

  test("many new tokens' first pushes at once, past the cap: exactly the cap is registered", async () => {
    server = await startTestServer({ ...OPEN, PENNANT_REGISTRATION_MAX: "5" });
    // Every body is held back half sent until all 40 requests are in, so each
    // waits for its body while the others are counted and written: a count
    // taken anywhere but in the push's transaction lets them all through.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const pushes = Array.from({ length: 40 }, (_, i) => {
      const signed = signedRequest(
        server.url,
        { path: "/api/server/update", token: tokenNumber(i), serverUuid: newUuid(), body: { name: `S${i}`, stats: { players: { online: i, max: 40 } } }, headers: { "X-Forwarded-For": `10.0.0.${i}` } },
        server.clock.now,
      );
      return signed.text().then((text) => {
        const bytes = new TextEncoder().encode(text);
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(bytes.subarray(0, 10));
            await released;
            controller.enqueue(bytes.subarray(10));
            controller.close();
          },
        });
        return fetch(signed.url, { method: "POST", headers: signed.headers, body });
      });
    });
    await Bun.sleep(300);
    release();
    const statuses = (await Promise.all(pushes)).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(35);
    expect([count("tokens"), count("servers"), count("server_samples"), count("used_signatures")]).toEqual([5, 5, 5, 5]);
  });
});

describe("registered tokens expire a day after their last push", () => {
  test("a registration finds the idle ones gone with their records: the slot, and the token itself, come free", async () => {
    server = await startTestServer({ ...OPEN, PENNANT_REGISTRATION_MAX: "2" });
    const idleServer = newUuid();
    expect((await sendFrom(1, { path: "/api/server/update", token: tokenNumber(1), serverUuid: idleServer, body: { stats: { players: { online: 1, max: 2 } } } })).status).toBe(200);
    expect((await sendFrom(1, { path: `/api/plugins/${newUuid()}/data`, token: tokenNumber(1), tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } })).status).toBe(200);
    expect((await sendFrom(2, heartbeat(tokenNumber(2)))).status).toBe(200);
    const cliToken = server.token();
    expect((await sendFrom(3, heartbeat(cliToken))).status).toBe(200);

    // Token 2 pushes again just inside the day; token 1 stays silent.
    server.clock.now += DAY_MS - 1000;
    expect((await sendFrom(2, heartbeat(tokenNumber(2)))).status).toBe(200);
    expect((await sendFrom(4, heartbeat(tokenNumber(4)))).status).toBe(403);
    server.clock.now += 1001;
    expect((await sendFrom(4, heartbeat(tokenNumber(4)))).status).toBe(200);

    expect(await server.store.tokens.findByHash(hashToken(tokenNumber(1)))).toBeUndefined();
    expect(await server.store.tokens.findByHash(hashToken(tokenNumber(2)))).toBeDefined();
    expect(await server.store.tokens.findByHash(hashToken(cliToken))).toBeDefined();
    // Token 1's server (and its history) and plugin are gone; the others' servers (token 2 has two) stay.
    expect([count("tokens"), count("servers"), count("plugins"), count("server_samples")]).toEqual([3, 4, 0, 0]);
    // Whoever holds the expired token may register it again, as a new token.
    server.clock.now += 1000;
    const back = await sendFrom(1, { path: "/api/server/heartbeat", token: tokenNumber(1), serverUuid: idleServer });
    expect(back.status).toBe(403);
    expect((await json(back)).error.code).toBe("registration_full");
  });

  test("start-up sweeps them too; revoked ones, and registration closed, keep theirs", async () => {
    server = await startTestServer(OPEN);
    const dbPath = server.dbPath.replace(/pennant\.db$/, "kept.db");
    await server.close();
    server = await startTestServer({ ...OPEN, PENNANT_DB: dbPath });
    const start = server.clock.now;
    for (let i = 0; i < 3; i++) expect((await sendFrom(i, heartbeat(tokenNumber(i)))).status).toBe(200);
    server.db.$client.run(`update tokens set revoked_at = ${start} where hash = '${hashToken(tokenNumber(2))}'`);
    await server.close();

    // Closed: no sweep (a registered token could not come back).
    server = await startTestServer({ PENNANT_DB: dbPath }, { clockStart: start + 2 * DAY_MS });
    expect(count("tokens")).toBe(3);
    await server.close();

    server = await startTestServer({ ...OPEN, PENNANT_DB: dbPath }, { clockStart: start + 2 * DAY_MS });
    expect([count("tokens"), count("servers")]).toEqual([1, 1]);
    expect((await server.store.tokens.findByHash(hashToken(tokenNumber(2))))?.revokedAt).toBe(start);
  });
});

describe("PENNANT_MAX_BYTES_PER_TOKEN: meta and stats one token's records hold together", () => {
  /** A plugin push whose meta holds about `kib` KiB of text. */
  const pluginWith = (token: string, uuid: string, kib: number): SignedCall => ({
    path: `/api/plugins/${uuid}/data`,
    token,
    tokenHeader: "X-Plugin-Token",
    body: { plugin: { name: uuid }, stats: { servers: kib }, meta: Object.fromEntries(Array.from({ length: kib / 4 }, (_, i) => [`k${i}`, "m".repeat(4096)])) },
  });

  test("a push that would take the token over gets 403 storage_limit and changes nothing; shrinking and other tokens go on", async () => {
    server = await startTestServer({ PENNANT_MAX_BYTES_PER_TOKEN: "65536" });
    const token = server.token();
    const [first, second] = [newUuid(), newUuid()];
    expect((await sendFrom(1, pluginWith(token, first, 32))).status).toBe(200);
    expect((await sendFrom(1, pluginWith(token, second, 16))).status).toBe(200);

    server.clock.now += 1000;
    const stored = server.db.$client.query("select meta, stats from plugins where uuid = ?").get(second);
    const over = await sendFrom(1, pluginWith(token, second, 32));
    expect(over.status).toBe(403);
    const error = (await json(over)).error;
    expect(error.code).toBe("storage_limit");
    expect(error.message).toMatch(/^this token's records would hold \d+ bytes of meta and stats, over the 65536 PENNANT_MAX_BYTES_PER_TOKEN allows; nothing was changed$/);
    expect(server.db.$client.query("select meta, stats from plugins where uuid = ?").get(second)).toEqual(stored);
    const third = await sendFrom(1, pluginWith(token, newUuid(), 16));
    expect((await json(third)).error.code).toBe("storage_limit");
    expect([count("plugins"), count("used_signatures")]).toEqual([2, 2]);

    // Server extra stats count too.
    const placeholders = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`p${i}`, "v".repeat(255)]));
    const extra = await sendFrom(1, { path: "/api/server/update", token, serverUuid: newUuid(), body: { data: { placeholders } } });
    expect((await json(extra)).error.code).toBe("storage_limit");
    expect(count("servers")).toBe(0);

    expect((await sendFrom(1, pluginWith(token, first, 4))).status).toBe(200);
    expect((await sendFrom(1, pluginWith(token, newUuid(), 16))).status).toBe(200);
    expect((await sendFrom(2, pluginWith(server.token(), newUuid(), 32))).status).toBe(200);
  });

  test("a token over a lowered bound keeps updating its records, as long as none grows", async () => {
    server = await startTestServer();
    const dbPath = server.dbPath.replace(/pennant\.db$/, "kept.db");
    await server.close();
    server = await startTestServer({ PENNANT_DB: dbPath });
    const token = server.token();
    const [first, second] = [newUuid(), newUuid()];
    for (const uuid of [first, second]) expect((await sendFrom(1, pluginWith(token, uuid, 32))).status).toBe(200);
    const now = server.clock.now;
    await server.close();

    server = await startTestServer({ PENNANT_DB: dbPath, PENNANT_MAX_BYTES_PER_TOKEN: "65536" }, { clockStart: now + 1000 });
    expect((await sendFrom(1, pluginWith(token, first, 32))).status).toBe(200);
    const grown = await sendFrom(1, { ...pluginWith(token, second, 32), body: { ...(pluginWith(token, second, 32).body as object), stats: { servers: 32, more: 2 } } });
    expect((await json(grown)).error.code).toBe("storage_limit");
  });

  test("default: 1 MiB, 50 plugins with 16 KiB of meta each fit", async () => {
    server = await startTestServer(OPEN);
    expect(server.config.maxBytesPerToken).toBe(1_048_576);
    const token = tokenNumber(0);
    for (let i = 0; i < 50; i++) expect((await sendFrom(0, pluginWith(token, newUuid(), 16))).status).toBe(200);
  }, 30_000);
});
