// Every command on PostgreSQL (PENNANT_DATABASE_URL) as a user runs it: the
// real CLI as a child process against a real PostgreSQL from Debian's package.
// The URL carries a password (the test cluster trusts every connection and
// ignores it) that no output may show.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { runCli, startServe } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const PASSWORD = "hunter2-not-to-be-shown";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

/** A new database's URL with a password in it, and how the commands name it. */
async function database(): Promise<{ env: Record<string, string>; shown: string }> {
  const url = new URL(await postgres.database());
  url.password = PASSWORD;
  url.protocol = "postgresql:";
  // A PENNANT_DB too, to show it is not used (nothing is created there).
  const env = { PENNANT_DATABASE_URL: url.toString(), PENNANT_DB: join(tempDir("unused"), "pennant.db") };
  return { env, shown: `PostgreSQL postgresql://postgres:***@127.0.0.1:${url.port}${url.pathname}` };
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;

describe("the commands on PostgreSQL", () => {
  test("migrate, token create, list and revoke, servers, and serve taking a signed push, none showing the password", async () => {
    const { env, shown } = await database();
    const outputs: string[] = [];
    const run = async (...args: string[]) => {
      const result = await runCli(args, env);
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    expect(await run("migrate")).toMatchObject({ code: 0, stdout: `database ${shown} is up to date\n` });
    const created = await run("token", "create", "--label", "network");
    expect(created.code).toBe(0);
    const token = lastLine(created.stdout);
    expect((await run("token", "list")).stdout).toMatch(/^1\tall\tactive\tlast used never\tcli\tnetwork$/m);
    expect((await run("servers")).stdout).toContain("no server has pushed yet");

    const server = await startServe(env);
    const uuid = newUuid();
    try {
      const body = { name: "Shared", status: "online", stats: { players: { online: 3, max: 20 } } };
      const response = await fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body }, Date.now()));
      expect(response.status).toBe(200);
    } finally {
      await server.kill("SIGTERM");
      outputs.push(server.stderr());
    }
    expect((await run("servers")).stdout).toMatch(new RegExp(`^${uuid}\tonline\t3/20\tlast push \\S+\ttoken 1\tShared$`, "m"));
    expect((await run("token", "list")).stdout).not.toContain("last used never");
    expect(await run("token", "revoke", "1")).toMatchObject({ code: 0, stdout: "revoked token 1\n" });
    expect(await Bun.file(env.PENNANT_DB!).exists()).toBe(false);
    for (const output of outputs) expect(output).not.toContain(PASSWORD);
  });

  test("serve names the database in its listening line, without the password", async () => {
    const { env, shown } = await database();
    const child = Bun.spawn([process.execPath, "src/index.ts", "serve"], {
      cwd: join(import.meta.dir, "..", ".."),
      env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: "0", PENNANT_RENDER_THREADS: "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = child.stdout.getReader();
      let output = "";
      while (!output.includes("\n")) output += new TextDecoder().decode((await reader.read()).value);
      expect(output).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:\\d+ \\(database ${shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, drawing on this thread\\)\n$`));
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
  });

  test("backup refuses in one line naming pg_dump (exit 2)", async () => {
    const { env } = await database();
    const result = await runCli(["backup", "backup.dump"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: backup copies SQLite files; back up PostgreSQL with pg_dump: pg_dump --format=custom --file=backup\.dump --host=127\.0\.0\.1 --port=\d+ --username=postgres test_\d+\n$/);
  });

  test("a database that does not answer: one error line naming it without the password, exit 2", async () => {
    const env = { PENNANT_DATABASE_URL: `postgres://pennant:${PASSWORD}@127.0.0.1:1/pennant` };
    const result = await runCli(["token", "list"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: cannot open database postgres://pennant:***@127.0.0.1:1/pennant: connection refused (is PostgreSQL running, and on this host and port?)\n");
  });

  test("a URL that is not PostgreSQL's is refused at start, without repeating it", async () => {
    const result = await runCli(["serve"], { PENNANT_DATABASE_URL: `mysql://pennant:${PASSWORD}@db/pennant` });
    expect(result.code).toBe(2);
    expect(result.stderr).toStartWith("error: PENNANT_DATABASE_URL: expected a PostgreSQL URL");
    expect(result.stderr).not.toContain(PASSWORD);
  });
});
