import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { json, newUuid, signedRequest } from "../support/signing.ts";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";

const dir = tempDir("cli");
const db = join(dir, "pennant.db");

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1)!;
}

describe("CLI", () => {
  test("--version prints the package version", async () => {
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  test("--help lists every command", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    for (const word of ["serve", "token create", "token list", "token revoke", "migrate"]) {
      expect(result.stdout).toContain(word);
    }
  });

  test("an unknown command is a usage error", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command");
  });

  test("migrate creates the database", async () => {
    const result = await runCli(["migrate"], { PENNANT_DB: db });
    expect(result.code).toBe(0);
    expect(await Bun.file(db).exists()).toBe(true);
  });

  test("token create prints the token as the last line, list shows it, revoke ends it", async () => {
    const created = await runCli(["token", "create", "--scope", "server", "--label", "survival"], { PENNANT_DB: db });
    expect(created.code).toBe(0);
    const token = lastLine(created.stdout);
    expect(token).toMatch(/^pn_[A-Za-z0-9_-]{43}$/);

    const listed = await runCli(["token", "list"], { PENNANT_DB: db });
    expect(listed.stdout).toContain("server");
    expect(listed.stdout).toContain("survival");
    expect(listed.stdout).toContain("active");
    // Only hashes are stored: the token itself appears nowhere.
    expect(listed.stdout).not.toContain(token);
    expect(new TextDecoder().decode(await Bun.file(db).bytes())).not.toContain(token);

    const id = /^(\d+)\t/m.exec(listed.stdout)![1]!;
    const revoked = await runCli(["token", "revoke", id], { PENNANT_DB: db });
    expect(revoked.code).toBe(0);
    expect((await runCli(["token", "list"], { PENNANT_DB: db })).stdout).toContain("revoked");
    expect((await runCli(["token", "revoke", id], { PENNANT_DB: db })).code).toBe(1);
  });

  test("token create defaults to scope all and rejects unknown scopes", async () => {
    const created = await runCli(["token", "create"], { PENNANT_DB: db });
    expect(created.stdout).toContain("scope all");
    const bad = await runCli(["token", "create", "--scope", "admin"], { PENNANT_DB: db });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--scope");
  });

  test("an invalid environment variable stops the server at start, naming it", async () => {
    const result = await runCli(["serve"], { PENNANT_DB: db, PENNANT_RATE_LIMIT: "lots" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("PENNANT_RATE_LIMIT");
  });

  test("a token made by the CLI signs pushes to a served instance", async () => {
    const token = lastLine((await runCli(["token", "create", "--scope", "server"], { PENNANT_DB: db })).stdout);
    const server = await startServe({ PENNANT_DB: db });
    try {
      const uuid = newUuid();
      const response = await fetch(signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "CLI" } }, Date.now()));
      expect(response.status).toBe(200);
    } finally {
      await server.kill("SIGTERM");
    }
  });

  test("servers lists what pushed: the UUID to put in banner URLs, status, players, name", async () => {
    const db = join(dir, "servers.db");
    expect((await runCli(["migrate"], { PENNANT_DB: db })).code).toBe(0);
    const empty = await runCli(["servers"], { PENNANT_DB: db });
    expect([empty.code, empty.stdout]).toEqual([0, expect.stringContaining("no server has pushed yet")]);

    const token = lastLine((await runCli(["token", "create"], { PENNANT_DB: db })).stdout);
    const server = await startServe({ PENNANT_DB: db });
    const [fresh, quiet] = [newUuid(), newUuid()];
    try {
      const update = (uuid: string, online: number) =>
        fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: { name: `S${online}`, status: "online", stats: { players: { online, max: 20 } } } }, Date.now()));
      expect((await update(quiet, 1)).status).toBe(200);
      expect((await update(fresh, 7)).status).toBe(200);
    } finally {
      await server.kill("SIGTERM");
    }
    const listed = await runCli(["servers"], { PENNANT_DB: db });
    const lines = listed.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${fresh}\tonline\t7/20\tlast push \\S+\ttoken \\d+\tS7$`));
    expect(lines[1]).toStartWith(`${quiet}\tonline\t1/20`);
    expect((await runCli(["servers", "extra"], { PENNANT_DB: db })).code).toBe(2);
  });

  test("webhooks lists the alert subscriptions: id, server, state, events, format, last delivery, dropped, URL", async () => {
    const db = join(dir, "webhooks.db");
    expect((await runCli(["migrate"], { PENNANT_DB: db })).code).toBe(0);
    const empty = await runCli(["webhooks"], { PENNANT_DB: db });
    expect([empty.code, empty.stdout]).toEqual([0, expect.stringContaining("no webhooks")]);
    const token = lastLine((await runCli(["token", "create"], { PENNANT_DB: db })).stdout);
    const server = await startServe({ PENNANT_DB: db, PENNANT_WEBHOOK_PRIVATE: "on" });
    const serverUuid = newUuid();
    let id: string;
    try {
      const push = (path: string, body: object) => fetch(signedRequest(server.url, { path, token, serverUuid, body }, Date.now()));
      expect((await push("/api/server/update", { name: "Lobby", status: "online" })).status).toBe(200);
      const created = await push("/api/server/webhooks", { url: "http://127.0.0.1:9/hook", events: ["offline", "online"], format: "discord" });
      expect(created.status).toBe(201);
      ({ id } = await json(created));
    } finally {
      await server.kill("SIGTERM");
    }
    const listed = await runCli(["webhooks"], { PENNANT_DB: db });
    expect(listed.stdout.trim()).toBe(`${id}\t${serverUuid}\tactive\toffline,online\tdiscord\tnever delivered\tdropped 0\thttp://127.0.0.1:9/hook`);
    expect((await runCli(["webhooks", "extra"], { PENNANT_DB: db })).code).toBe(2);
  });
});

describe("durability", () => {
  test("kill -9 during a stream of signed updates: every acknowledged update is there and the file is intact", async () => {
    const streamDb = join(dir, "stream.db");
    const token = lastLine((await runCli(["token", "create"], { PENNANT_DB: streamDb })).stdout);
    const serve = await startServe({ PENNANT_DB: streamDb, PENNANT_PUSH_RATE_LIMIT: "100000/60" });
    // Eight servers, each pushing 1, 2, 3... one after another: the last acknowledged count of each is known.
    const uuids = Array.from({ length: 8 }, newUuid);
    const acknowledged = new Map<string, number>(uuids.map((uuid) => [uuid, 0]));
    let killed = false;
    const stream = uuids.map(async (uuid) => {
      for (let online = 1; !killed; online++) {
        const body = { name: `Stream ${uuid}`, status: "online", stats: { players: { online, max: 1000 }, tps: 20, motd: "m".repeat(200), version: "1.21" } };
        try {
          const response = await fetch(signedRequest(serve.url, { path: "/api/server/update", token, serverUuid: uuid, body }, Date.now()));
          if (response.status === 200) acknowledged.set(uuid, online);
          else expect(response.status).toBe(200);
        } catch {
          return; // the server is gone: this push was never acknowledged
        }
      }
    });
    while ([...acknowledged.values()].reduce((sum, n) => sum + n, 0) < 200) await Bun.sleep(5);
    killed = true;
    await serve.kill("SIGKILL");
    await Promise.all(stream);

    // Restarted, the server opens the file as it was left (WAL recovery) and serves it.
    const again = await startServe({ PENNANT_DB: streamDb });
    try {
      for (const uuid of uuids) {
        const read = await fetch(signedRequest(again.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, Date.now()));
        expect(read.status).toBe(200);
        // The last acknowledged count, or a later one committed just before the kill and never answered.
        expect((await json(read)).stats.players.online).toBeGreaterThanOrEqual(acknowledged.get(uuid)!);
      }
    } finally {
      await again.kill("SIGTERM");
    }
    const db = new Database(streamDb, { readonly: true });
    try {
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      // Every acknowledged update also reached its minute's history sample: counts only rise, so the highest is at least the last acknowledged.
      for (const uuid of uuids) {
        const { n } = db.query("select max(players_online) as n from server_samples where server_uuid = ?").get(uuid) as { n: number };
        expect(n).toBeGreaterThanOrEqual(acknowledged.get(uuid)!);
      }
    } finally {
      db.close();
    }
  }, 30_000);

  test("an acknowledged push survives kill -9 of the server", async () => {
    const durableDb = join(dir, "durable.db");
    const token = lastLine((await runCli(["token", "create"], { PENNANT_DB: durableDb })).stdout);
    const uuid = newUuid();
    const body = { name: "Durable", status: "online", stats: { players: { online: 77, max: 80 }, tps: 20, motd: "m", version: "1.21" } };

    const first = await startServe({ PENNANT_DB: durableDb });
    const pushed = await fetch(signedRequest(first.url, { path: "/api/server/update", token, serverUuid: uuid, body }, Date.now()));
    expect(pushed.status).toBe(200);
    await first.kill("SIGKILL");

    const second = await startServe({ PENNANT_DB: durableDb });
    try {
      const read = await fetch(signedRequest(second.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, Date.now()));
      expect(read.status).toBe(200);
      expect((await json(read)).stats.players).toEqual({ online: 77, max: 80 });
    } finally {
      await second.kill();
    }
  });
});
