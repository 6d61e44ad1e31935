// `pennant copy --from SOURCE --to TARGET` as a user moving off one box runs
// it: real SQLite files made by the real commands and pushes, a real
// PostgreSQL from Debian's package, the CLI and `serve` as child processes.
// The PostgreSQL URLs carry a password (the test cluster trusts every
// connection and ignores it) that no output may show.

import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { SQL } from "bun";
import { tempDir, track } from "../support/cleanup.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { runCli, startServe, type CliResult } from "../support/process.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

const PASSWORD = "hunter2-not-to-be-shown";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

/** A new empty PostgreSQL database: its URL with a password, and how the commands name it. */
async function pgDatabase(): Promise<{ url: string; shown: string }> {
  const url = new URL(await postgres.database());
  url.password = PASSWORD;
  return { url: url.toString(), shown: `PostgreSQL postgres://postgres:***@127.0.0.1:${url.port}${url.pathname}` };
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;

/** Runs `copy`; no output ever shows the password. */
async function copy(from: string, to: string): Promise<CliResult> {
  const result = await runCli(["copy", "--from", from, "--to", to]);
  expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  return result;
}

interface Source {
  path: string;
  /** A token made by `token create` before the copy. */
  token: string;
  /** The token open registration made. */
  registered: string;
  serverUuid: string;
  registeredUuid: string;
  /** A server update accepted before the copy, as sent (to resend it). */
  accepted: { url: string; headers: Record<string, string>; body: string };
}

/**
 * An SQLite file holding one of each thing a store keeps, made as a user
 * makes it: tokens by `token create` (one revoked), a server update, a
 * deployed plugin's update (extra stats), a plugin's data (JSON fields), a
 * token open registration made, a webhook subscription (its secret with
 * it) and a network; the replay keys of every push.
 */
async function populatedSqlite(): Promise<Source> {
  const path = join(tempDir("copy-source"), "pennant.db");
  const env = { PENNANT_DB: path };
  const token = lastLine((await runCli(["token", "create", "--label", "network"], env)).stdout);
  await runCli(["token", "create", "--scope", "plugin", "--label", "old"], env);
  expect((await runCli(["token", "revoke", "2"], env)).code).toBe(0);

  const server = await startServe({ ...env, PENNANT_REGISTRATION: "open", PENNANT_WEBHOOK_PRIVATE: "on" });
  const serverUuid = newUuid();
  const registeredUuid = newUuid();
  const registered = randomBytes(24).toString("hex");
  try {
    // Signed as plugins sign (over timestamp and body), so only the replay memory keeps it from another route.
    const request = signedRequest(server.url, { path: "/api/server/update", token, serverUuid, body: { name: "Lobby", status: "online", stats: { players: { online: 7, max: 50 }, tps: 19.5 } }, scheme: "standard" }, Date.now());
    const accepted = { url: request.url, headers: Object.fromEntries(request.headers.entries()), body: await request.clone().text() };
    expect((await fetch(request)).status).toBe(200);
    const legacy = pluginUpdate(server.url, token, newUuid(), pluginUpdateBody({ onlinePlayers: 3, uptime: 60_000, placeholders: { "%vault_eco%": 12.5 } }), Date.now());
    expect((await sendPluginUpdate(legacy)).status).toBe(200);
    const data = { plugin: { name: "EzShops", version: "3.2.1" }, stats: { shops: 1520 }, meta: { alpha: { downloads: 12 } }, minecraft_versions: ["1.21"], server_software: ["Paper"] };
    const pluginPush = signedRequest(server.url, { path: `/api/plugins/${newUuid()}/data`, token, body: data, tokenHeader: "X-Plugin-Token" }, Date.now());
    expect((await fetch(pluginPush)).status).toBe(200);
    const registration = signedRequest(server.url, { path: "/api/server/update", token: registered, serverUuid: registeredUuid, body: { name: "Mine", status: "online" } }, Date.now());
    expect((await fetch(registration)).status).toBe(200);
    const hook = { url: "http://127.0.0.1:9/hook", events: ["offline", "online"], format: "discord" };
    expect((await fetch(signedRequest(server.url, { path: "/api/server/webhooks", token, serverUuid, body: hook }, Date.now()))).status).toBe(201);
    const network = { name: "Lobby Network", servers: [serverUuid] };
    expect((await fetch(signedRequest(server.url, { method: "PUT", path: "/api/networks/lobby-net", token, body: network }, Date.now()))).status).toBe(200);
    return { path, token, registered, serverUuid, registeredUuid, accepted };
  } finally {
    await server.kill("SIGTERM");
  }
}

/** The JSON columns, read as values: PostgreSQL's jsonb hands keys back in its own order. */
const JSON_COLUMNS = new Set(["extra", "stats", "meta", "minecraft_versions", "server_software", "events"]);

/** Every row of every table of an SQLite file (drizzle's migration log and sqlite_sequence included), every column. */
function sqliteRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    const rows: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      // `minute` is virtual: SELECT * leaves it out.
      const columns = (db.query(`SELECT name FROM pragma_table_xinfo('${name}')`).all() as Array<{ name: string }>).map((c) => c.name);
      const all = db.query(`SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${name}" ORDER BY 1`).all() as Array<Record<string, unknown>>;
      rows[name] = all.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, JSON_COLUMNS.has(k) && typeof v === "string" ? JSON.parse(v) : v])));
    }
    return rows;
  } finally {
    db.close();
  }
}

/** A query on a PostgreSQL database, the connection closed after the test. */
function pg(url: string): SQL {
  const sql = new SQL(url, { max: 1 });
  track(() => sql.close());
  return sql;
}

async function pgCounts(url: string): Promise<Record<string, number>> {
  const [row] = await pg(url)`SELECT (SELECT count(*) FROM tokens)::int AS tokens, (SELECT count(*) FROM servers)::int AS servers,
    (SELECT count(*) FROM plugins)::int AS plugins, (SELECT count(*) FROM server_samples)::int AS samples,
    (SELECT count(*) FROM used_signatures)::int AS keys`;
  return row;
}

describe("pennant copy", () => {
  test("SQLite to PostgreSQL to SQLite gives back every row of every table, the JSON fields objects in PostgreSQL", async () => {
    const source = await populatedSqlite();
    const { url, shown } = await pgDatabase();
    const there = await copy(source.path, url);
    expect(there).toMatchObject({ code: 0, stderr: "" });
    expect(there.stdout).toBe(`copied 3 tokens, 3 servers, 1 plugin, 3 history samples, 6 replay keys, 1 webhook, 1 network from ${source.path} to ${shown}\n`);

    const types = await pg(url)`SELECT jsonb_typeof(s.extra) AS extra, jsonb_typeof(p.stats) AS stats, jsonb_typeof(p.meta) AS meta,
      jsonb_typeof(p.minecraft_versions) AS versions, jsonb_typeof(p.server_software) AS software
      FROM servers s, plugins p WHERE s.extra IS NOT NULL`;
    expect(types).toEqual([{ extra: "object", stats: "object", meta: "object", versions: "array", software: "array" }]);

    const back = join(tempDir("copy-back"), "pennant.db");
    const again = await copy(url, back);
    expect(again).toMatchObject({ code: 0, stderr: "", stdout: `copied 3 tokens, 3 servers, 1 plugin, 3 history samples, 6 replay keys, 1 webhook, 1 network from ${shown} to ${back}\n` });
    const [before, after] = [sqliteRows(source.path), sqliteRows(back)];
    expect(before.tokens!.map((row) => (row as { origin: string }).origin)).toEqual(["cli", "cli", "registration"]);
    expect(before.replay_memory).toHaveLength(1);
    expect(before.webhooks).toMatchObject([{ server_uuid: source.serverUuid, format: "discord", secret: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(before.networks).toMatchObject([{ slug: "lobby-net", name: "Lobby Network" }]);
    expect(before.network_members).toEqual([{ network_slug: "lobby-net", server_uuid: source.serverUuid, position: 0 }]);
    expect(after).toEqual(before);
  });

  test("on PostgreSQL after the copy, a token made before it signs pushes, a push accepted before it is still a replay, token create goes on", async () => {
    const source = await populatedSqlite();
    const { url } = await pgDatabase();
    expect((await copy(source.path, url)).code).toBe(0);

    const env = { PENNANT_DATABASE_URL: url };
    const server = await startServe(env);
    try {
      const update = (token: string, serverUuid: string, name: string) =>
        fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid, body: { name, status: "online" } }, Date.now()));
      // The same records: the tokens still own them (another token's push would be 403).
      expect((await update(source.token, source.serverUuid, "Lobby 2")).status).toBe(200);
      expect((await update(source.registered, source.registeredUuid, "Mine 2")).status).toBe(200);

      const { url: sentTo, headers, body } = source.accepted;
      const exact = await fetch(sentTo.replace(/^http:\/\/[^/]+/, server.url), { method: "POST", headers, body });
      expect(exact.status).toBe(200);
      expect(exact.headers.get("x-duplicate")).toBe("true");
      const elsewhere = await fetch(`${server.url}/api/server/heartbeat`, { method: "POST", headers, body });
      expect(elsewhere.status).toBe(401);
      expect((await json(elsewhere)).error.code).toBe("replayed_request");
    } finally {
      await server.kill("SIGTERM");
    }
    const created = await runCli(["token", "create", "--label", "after"], env);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    expect(created.stdout).toStartWith("created token 4 ");
  });

  test("a target that holds data is refused in one line, exit 2, and keeps what it had", async () => {
    const source = await populatedSqlite();
    const { url, shown } = await pgDatabase();
    expect((await copy(source.path, url)).code).toBe(0);
    const held = await pgCounts(url);

    expect(await copy(source.path, url)).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: nothing copied: ${shown} already holds data (3 tokens, 3 servers, 1 plugin, 3 history samples, 6 replay keys, 1 webhook, 1 network); copy into a new, empty database\n`,
    });
    expect(await pgCounts(url)).toEqual(held);

    const target = join(tempDir("copy-target"), "pennant.db");
    expect((await runCli(["token", "create"], { PENNANT_DB: target })).code).toBe(0);
    const rows = sqliteRows(target);
    expect(await copy(url, target)).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: nothing copied: ${target} already holds data (1 token); copy into a new, empty database\n`,
    });
    expect(sqliteRows(target)).toEqual(rows);
  });

  test("a source that does not exist is one error line, exit 2, and no target is made", async () => {
    const dir = tempDir("copy-missing");
    const result = await copy(join(dir, "typo.db"), join(dir, "target.db"));
    expect(result).toEqual({ code: 2, stdout: "", stderr: `error: no database at ${join(dir, "typo.db")} (--from names an existing SQLite file or a postgres:// URL)\n` });
    expect(await Bun.file(join(dir, "target.db")).exists()).toBe(false);

    const unreachable = await copy(`postgres://pennant:${PASSWORD}@127.0.0.1:1/pennant`, join(dir, "target.db"));
    expect(unreachable).toMatchObject({ code: 2, stdout: "" });
    expect(unreachable.stderr).toStartWith("error: cannot open database postgres://pennant:***@127.0.0.1:1/pennant: connection refused");
  });

  test("a command line without both stores, or naming another kind of URL, is one usage line, exit 2", async () => {
    expect(await runCli(["copy", "--from", "a.db"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: usage: copy --from SOURCE --to TARGET (each an SQLite file path or a postgres:// URL)\n",
    });
    expect(await runCli(["copy", "--from", "mysql://root@db/pennant", "--to", "b.db"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: --from must be an SQLite file path or a postgres:// URL\n",
    });
  });
});
