// What a new user sees when starting goes wrong: one `error:` line naming the
// cause and exit code 2 for a configuration mistake, never a stack trace; an
// unforeseen failure is one line and exit 1 (the trace only with PENNANT_DEBUG).

import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";
import { expectUsageError } from "./support/usage-error.ts";

describe("starting `serve`", () => {
  test("refuses a port another instance listens on, naming the port", async () => {
    const first = await startServe({ PENNANT_DB: join(tempDir("startup"), "first.db") });
    try {
      const { port } = new URL(first.url);
      // A second instance that started anyway is killed at the deadline: then no exit 2.
      const second = await runCli(["serve", "--port", port, "--host", "127.0.0.1", "--db", join(tempDir("startup"), "second.db")], {}, 3000);
      expectUsageError(second, new RegExp(`port ${port} .*already in use`));
    } finally {
      await first.kill();
    }
  });

  test("refuses a HOST this machine does not have, naming it", async () => {
    const result = await runCli(["serve", "--port", "0"], { HOST: "192.0.2.1", PENNANT_DB: join(tempDir("startup"), "p.db") });
    expectUsageError(result, /192\.0\.2\.1/);
  });
});

// Through the commands that create a database; those that only read refuse a
// missing one before opening it (missing-database.test.ts).
describe("a database that cannot be opened", () => {
  const forEachCommand = async (db: string, words: RegExp) => {
    for (const args of [["serve", "--port", "0", "--host", "127.0.0.1"], ["migrate"], ["token", "create"]]) {
      expectUsageError(await runCli([...args, "--db", db]), words);
    }
  };

  test("a path whose folder is a file", async () => {
    const file = join(tempDir("startup"), "file");
    writeFileSync(file, "");
    await forEachCommand(join(file, "pennant.db"), new RegExp(`cannot open database ${file}/pennant.db: its folder cannot be created`));
  });

  test("a file that is not SQLite", async () => {
    const file = join(tempDir("startup"), "notes.txt");
    writeFileSync(file, "shopping list: milk, bread, eggs, and a few other things to make the file long enough\n".repeat(20));
    await forEachCommand(file, /cannot open database .*notes\.txt: the file is not an SQLite database/);
  });

  test("a folder nobody may write (procfs, read-only even for root)", async () => {
    await forEachCommand("/proc/self/pennant.db", /cannot open database \/proc\/self\/pennant\.db: .*must be writable/);
  });
});

describe("commands", () => {
  test("no arguments: the help on stderr and the usage exit code", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("usage: pennant <command>");
  });

  test("migrate says whether it created the database or found it up to date", async () => {
    const db = join(tempDir("startup"), "new.db");
    const created = await runCli(["migrate", "--db", db]);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(`created database ${db}\n`);
    const again = await runCli(["migrate", "--db", db]);
    expect(again.stdout).toBe(`database ${db} is up to date\n`);
  });

  test("an unforeseen failure is one line and exit 1; PENNANT_DEBUG adds the trace", async () => {
    // A database that claims to be up to date but lost a table: nothing a check foresees.
    const db = join(tempDir("startup"), "broken.db");
    expect((await runCli(["migrate", "--db", db])).code).toBe(0);
    const sqlite = new Database(db);
    sqlite.run("DROP TABLE tokens");
    sqlite.close();

    const plain = await runCli(["token", "list", "--db", db]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^error: [^\n]*no such table: tokens[^\n]*PENNANT_DEBUG[^\n]*\n$/);

    const debug = await runCli(["token", "list", "--db", db], { PENNANT_DEBUG: "1" });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^error: [^\n]*no such table: tokens/);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
