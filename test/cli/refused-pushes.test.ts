// `pennant servers` tells why a server does not appear (issue 40): beside the
// servers, the pushes of each UUID refused in the last day, read from the
// store by the CLI, another process than the server that refused them. Real
// server processes, a real SQLite file and a real PostgreSQL.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { runCli, startServe } from "../support/process.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;
const ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

/** A refusal line of `pennant servers`. */
const refusedLine = (code: string, count: number, token: string) => new RegExp(`^  refused ${code}: ${count} in the last 24 h, the last at ${ISO}, ${token}$`);

describe("pennant servers on SQLite", () => {
  test("lists beside each server the pushes refused per code, how many and when, and the UUIDs refused without a push accepted", async () => {
    const db = join(tempDir("refused"), "pennant.db");
    const env = { PENNANT_DB: db, PENNANT_PUSH_RATE_LIMIT: "14/60" };
    const owner = lastLine((await runCli(["token", "create"], env)).stdout);
    const other = lastLine((await runCli(["token", "create"], env)).stdout);
    const server = await startServe(env);
    const [motdServer, addressServer, stranger] = [newUuid(), newUuid(), newUuid()];
    const send = async (call: Omit<SignedCall, "path">, path = "/api/server/update") => (await fetch(signedRequest(server.url, { path, ...call }, Date.now()))).status;
    let notOwner = 2;
    try {
      const update = (body: object) => ({ token: owner, body });
      // Every EzBanners server is named "Paper": the MOTD's first line or the address tells them apart.
      expect(await send({ ...update({ name: "Paper", status: "online", stats: { motd: "§aSky §lIsles\n§7second line" } }), serverUuid: motdServer })).toBe(200);
      expect(await send({ ...update({ name: "Paper", status: "online", address: "play.example.net" }), serverUuid: addressServer })).toBe(200);
      // Another token pushing a server the first owns, twice.
      expect(await send({ token: other, serverUuid: motdServer, body: { status: "online" } })).toBe(403);
      expect(await send({ token: other, serverUuid: motdServer, body: { status: "online" } }, "/api/server/heartbeat")).toBe(403);
      // The owner's body the service cannot read: its UUID is the header's.
      expect(await send({ token: owner, serverUuid: addressServer, body: "{not json" })).toBe(400);
      // Never accepted: a signature made with another key, an unknown token, a stale timestamp.
      expect(await send({ token: owner, serverUuid: stranger, body: {}, signature: "ab".repeat(32) })).toBe(401);
      expect(await send({ token: "pn_unknown_token_0123456789", serverUuid: stranger, body: {} })).toBe(401);
      expect(await send({ token: owner, serverUuid: stranger, body: {}, timestamp: 1_000_000_000 })).toBe(401);
      // Not counted: no UUID, a UUID that is not one.
      expect(await send({ token: owner, body: {} })).toBe(401);
      expect(await send({ token: owner, serverUuid: "not-a-uuid", body: {} })).toBe(400);
      // Up to the address's budget (14 a minute), then past it: refused before anything is read, not counted.
      let status = 403;
      for (let n = 0; n < 14 && status === 403; n++) if ((status = await send({ token: other, serverUuid: motdServer, body: {} })) === 403) notOwner += 1;
      expect(status).toBe(429);
      expect(await send({ token: owner, serverUuid: stranger, body: {}, signature: "ab".repeat(32) })).toBe(429);
    } finally {
      // The server adds what it counted to the store as it stops (and every few seconds while it runs).
      await server.kill("SIGTERM");
    }
    const listed = await runCli(["servers"], env);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    // The most recently refused first under each UUID; the servers as before, the most recently seen first.
    expect(lines).toHaveLength(8);
    expect(lines[0]).toMatch(new RegExp(`^${addressServer}\tonline\t-\tlast push \\S+\ttoken 1\tPaper \\(play\\.example\\.net\\)$`));
    expect(lines[1]).toMatch(refusedLine("invalid_json", 1, "token 1"));
    expect(lines[2]).toMatch(new RegExp(`^${motdServer}\tonline\t-\tlast push \\S+\ttoken 1\tPaper \\(Sky Isles\\)$`));
    expect(lines[3]).toMatch(refusedLine("not_owner", notOwner, "token 2"));
    expect(lines[4]).toBe(`${stranger}\tno push accepted`);
    const strangers = lines.slice(5).sort();
    expect(strangers[0]).toMatch(refusedLine("bad_signature", 1, "not authenticated"));
    expect(strangers[1]).toMatch(refusedLine("stale_timestamp", 1, "not authenticated"));
    expect(strangers[2]).toMatch(refusedLine("unknown_token", 1, "not authenticated"));
  });
});

describe("pennant servers on PostgreSQL", () => {
  let postgres: Postgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  });

  test("two instances refusing the same push: one line, counted twice, read by the CLI while they run", async () => {
    const env = { PENNANT_DATABASE_URL: await postgres.database() };
    const owner = lastLine((await runCli(["token", "create"], env)).stdout);
    const other = lastLine((await runCli(["token", "create"], env)).stdout);
    const [one, two] = await Promise.all([startServe(env), startServe(env)]);
    const uuid = newUuid();
    const push = (url: string, token: string) => fetch(signedRequest(url, { path: "/api/server/update", token, serverUuid: uuid, body: { name: "Shared", status: "online" } }, Date.now()));
    expect((await push(one.url, owner)).status).toBe(200);
    // The other token, refused by both instances at once.
    expect((await Promise.all([push(one.url, other), push(two.url, other)])).map((response) => response.status)).toEqual([403, 403]);
    // Each instance adds what it counted within a few seconds (REFUSAL_FLUSH_EVERY_MS): no stop needed.
    let listed = "";
    for (const started = Date.now(); Date.now() - started < 15_000 && !/ 2 in the last/.test(listed); ) {
      listed = (await runCli(["servers"], env)).stdout;
      await Bun.sleep(500);
    }
    const lines = listed.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toStartWith(`${uuid}\tonline`);
    expect(lines[1]).toMatch(refusedLine("not_owner", 2, "token 2"));
    await Promise.all([one.kill("SIGTERM"), two.kill("SIGTERM")]);
  });
});
