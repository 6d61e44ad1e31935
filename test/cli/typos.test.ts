// Typos a new user makes: a command that does not exist is one `error:` line
// (naming the command meant when it is a letter or two away), exit 2; a
// misspelled PENNANT_* variable draws one `warning:` line naming the variable
// meant, from every command that reads the configuration, and changes nothing
// else: the command runs as it would without it.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";
import { expectUsageError } from "./support/usage-error.ts";

describe("an unknown command", () => {
  test("is one error: line pointing at --help, exit 2, nothing on stdout", async () => {
    const result = await runCli(["frobnicate"]);
    expectUsageError(result, /^error: unknown command "frobnicate" \(commands: serve, token, servers, webhooks, migrate, backup, copy, lookup; pennant --help describes them\)\n$/);
    expect(result.stdout).toBe("");
  });

  test("a letter or two away names the command meant", async () => {
    for (const [typed, meant] of [["serv", "serve"], ["tokens", "token"], ["mirgate", "migrate"], ["backups", "backup"]]) {
      expectUsageError(await runCli([typed!]), new RegExp(`^error: unknown command "${typed}": did you mean "${meant}"\\? \\(pennant --help lists the commands\\)\\n$`));
    }
  });
});

describe("an unknown PENNANT_ variable", () => {
  const warning = "warning: PENNANT_RATELIMIT is not a variable Pennant reads and is ignored; the closest one is PENNANT_RATE_LIMIT\n";
  const typo = { PENNANT_RATELIMIT: "1/1" };

  test("every command that reads the configuration warns once on stderr and carries on", async () => {
    const dir = tempDir("typos");
    const db = join(dir, "p.db");
    const commands = [
      ["migrate", "--db", db],
      ["token", "create", "--db", db],
      ["token", "list", "--db", db],
      ["token", "revoke", "1", "--db", db],
      ["servers", "--db", db],
      ["backup", join(dir, "copy.db"), "--db", db],
    ];
    for (const args of commands) {
      const result = await runCli(args, typo);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: warning });
    }
    // lookup reads PENNANT_LOOKUP_PRIVATE; an invalid address ends it before any network.
    const lookup = await runCli(["lookup", "not an address"], typo);
    expect([lookup.code, lookup.stderr]).toEqual([2, warning]);
  });

  test("serve warns before its listening line", async () => {
    const server = await startServe({ ...typo, PENNANT_DB: join(tempDir("typos"), "p.db") });
    try {
      expect(server.stderr()).toBe(warning);
    } finally {
      await server.kill();
    }
  });

  test("one line per unknown variable, whatever its value; known ones and other variables draw none", async () => {
    const db = join(tempDir("typos"), "p.db");
    const result = await runCli(["migrate", "--db", db], { PENNANT_LOGLEVEL: "debug", PENNANT_DB_PATH: "", PENNANT_LOG_LEVEL: "debug", PENNANT_DEBUG: "1", PENNANTDB: "x", HOST: "::1" });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "warning: PENNANT_DB_PATH is not a variable Pennant reads and is ignored; the closest one is PENNANT_DB\n" +
        "warning: PENNANT_LOGLEVEL is not a variable Pennant reads and is ignored; the closest one is PENNANT_LOG_LEVEL\n",
    );
  });

  test("--help and --version, which read no configuration, do not warn", async () => {
    for (const args of [["--help"], ["--version"]]) {
      expect((await runCli(args, typo)).stderr).toBe("");
    }
  });
});
