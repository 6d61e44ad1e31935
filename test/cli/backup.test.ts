// `backup <file>`: a consistent, self-contained copy of the database taken
// while `serve` runs and holds recent pushes in its WAL; never over an
// existing file; never from a database that does not exist.

import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";
import { expectUsageError } from "./support/usage-error.ts";

describe("backup", () => {
  test("copies a running server's database, including pushes still in its WAL", async () => {
    const dir = tempDir("backup");
    const dbPath = join(dir, "pennant.db");
    const token = (await runCli(["token", "create", "--db", dbPath])).stdout.trimEnd().split("\n").at(-1)!;
    const serve = await startServe({ PENNANT_DB: dbPath });
    const uuids = [newUuid(), newUuid(), newUuid()];
    try {
      for (const [i, uuid] of uuids.entries()) {
        const body = { name: `Server ${i}`, stats: { players: { online: i, max: 10 } } };
        const response = await fetch(signedRequest(serve.url, { path: "/api/server/update", token, serverUuid: uuid, body }, Date.now()));
        expect(response.status).toBe(200);
      }
      // The pushes are in the -wal file, not yet in the main file a plain copy would take.
      expect(existsSync(`${dbPath}-wal`)).toBe(true);

      const target = join(dir, "backups", "nightly.db");
      const result = await runCli(["backup", target, "--db", dbPath]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^backed up ${dbPath} to ${target} \\(\\d+ bytes\\)\\n$`));

      // A self-contained file: no WAL of its own, complete and consistent.
      expect(existsSync(`${target}-wal`)).toBe(false);
      const copy = new Database(target, { readonly: true });
      try {
        expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
        expect(copy.query("SELECT uuid, name FROM servers ORDER BY name").all()).toEqual(uuids.map((uuid, i) => ({ uuid, name: `Server ${i}` })));
        expect(copy.query("SELECT count(*) AS n FROM tokens").get()).toEqual({ n: 1 });
      } finally {
        copy.close();
      }
      // The server kept serving.
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    } finally {
      await serve.kill();
    }
  });

  test("never overwrites an existing file", async () => {
    const dir = tempDir("backup");
    const dbPath = join(dir, "pennant.db");
    expect((await runCli(["migrate", "--db", dbPath])).code).toBe(0);
    const target = join(dir, "last-good.db");
    writeFileSync(target, "the previous backup");
    expectUsageError(await runCli(["backup", target, "--db", dbPath]), /last-good\.db already exists/);
    expect(readFileSync(target, "utf8")).toBe("the previous backup");
  });

  test("a database that does not exist is an error, and is not created", async () => {
    const dir = tempDir("backup");
    const dbPath = join(dir, "missing", "pennant.db");
    expectUsageError(await runCli(["backup", join(dir, "copy.db"), "--db", dbPath]), /no database at .*missing\/pennant\.db/);
    expect(existsSync(dbPath)).toBe(false);
    expect(existsSync(join(dir, "copy.db"))).toBe(false);
  });

  test("a target that cannot be written and a missing file name are one-line errors", async () => {
    const dir = tempDir("backup");
    const dbPath = join(dir, "pennant.db");
    expect((await runCli(["migrate", "--db", dbPath])).code).toBe(0);
    expectUsageError(await runCli(["backup", "/proc/self/backup.db", "--db", dbPath]), /cannot write \/proc\/self\/backup\.db/);
    expectUsageError(await runCli(["backup", "--db", dbPath]), /usage: backup <file>/);
  });
});
