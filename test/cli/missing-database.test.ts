// A mistyped --db or PENNANT_DB: the commands that read the database, or
// change what is in it, refuse a file that does not exist (one `error:` line
// naming the path, exit 2) and create nothing, no file and no folder. Only
// `serve`, `migrate` and `token create` make a database.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";
import { expectUsageError } from "./support/usage-error.ts";

/** The commands that read the database, by name: their arguments, with backup's copy going into `dir`. */
const READERS: Record<string, (dir: string) => string[]> = {
  servers: () => ["servers"],
  "token list": () => ["token", "list"],
  "token revoke": () => ["token", "revoke", "1"],
  backup: (dir) => ["backup", join(dir, "copy.db")],
};

function refusal(db: string): RegExp {
  return new RegExp(`^error: no database at ${db.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `);
}

describe("commands that read the database refuse one that does not exist", () => {
  for (const [name, args] of Object.entries(READERS)) {
    test(`${name}: in a folder that does not exist, named by --db or PENNANT_DB`, async () => {
      const dir = tempDir("missing-db");
      const db = join(dir, "nonexistent", "p.db");
      for (const [argv, env] of [[[...args(dir), "--db", db], {}], [args(dir), { PENNANT_DB: db }]] as const) {
        const result = await runCli([...argv], env);
        expectUsageError(result, refusal(db));
        expect(result.stdout).toBe("");
        expect(readdirSync(dir)).toEqual([]);
      }
    });

    test(`${name}: a mistyped file name in a folder that exists`, async () => {
      const dir = tempDir("missing-db");
      const db = join(dir, "typo");
      const result = await runCli([...args(dir), "--db", db]);
      expectUsageError(result, refusal(db));
      expect(readdirSync(dir)).toEqual([]);
    });
  }

  test("the same commands read a database that exists", async () => {
    const dir = tempDir("missing-db");
    const db = join(dir, "p.db");
    expect((await runCli(["migrate", "--db", db])).code).toBe(0);
    expect(await runCli(["servers", "--db", db])).toMatchObject({ code: 0, stderr: "" });
    expect(await runCli(["token", "list", "--db", db])).toMatchObject({ code: 0, stderr: "" });
    expect(await runCli(["backup", join(dir, "copy.db"), "--db", db])).toMatchObject({ code: 0, stderr: "" });
    // An existing database without that token: the operation's own "nothing to do", not a refusal.
    expect(await runCli(["token", "revoke", "1", "--db", db])).toMatchObject({ code: 1, stderr: "no active token with id 1\n" });
  });
});

describe("the commands that make a database still do, folder included", () => {
  for (const args of [["migrate"], ["token", "create"]]) {
    test(args.join(" "), async () => {
      const db = join(tempDir("missing-db"), "new", "p.db");
      expect((await runCli([...args, "--db", db])).code).toBe(0);
      expect(existsSync(db)).toBe(true);
    });
  }

  test("serve", async () => {
    const db = join(tempDir("missing-db"), "new", "p.db");
    const server = await startServe({ PENNANT_DB: db });
    await server.kill();
    expect(existsSync(db)).toBe(true);
  });
});
