// Typos a new user makes: a command that does not exist is one `error:` line
// (naming the command meant when it is a letter or two away), exit 2; so is an
// option the command does not take (naming the option meant, else the ones it
// takes). A variable that looks meant for Pennant but is not one it reads
// draws one `warning:` line naming the variable meant, from every command that
// reads the configuration, and changes nothing else: the command runs as it
// would without it.

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
  const warning = "warning: PENNANT_RATELIMIT is not a variable Pennant reads and is ignored; did you mean PENNANT_RATE_LIMIT?\n";
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

  test("one line per unknown variable, whatever its value; known ones and other programs' variables draw none", async () => {
    const db = join(tempDir("typos"), "p.db");
    const result = await runCli(["migrate", "--db", db], { PENNANT_LOGLEVEL: "debug", PENNANT_DB_PATH: "", PENNANT_LOG_LEVEL: "debug", PENNANT_DEBUG: "1", HOST: "::1", PORTS: "1", PENDING: "1" });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "warning: PENNANT_DB_PATH is not a variable Pennant reads and is ignored; did you mean PENNANT_DB?\n" +
        "warning: PENNANT_LOGLEVEL is not a variable Pennant reads and is ignored; did you mean PENNANT_LOG_LEVEL?\n",
    );
  });

  test("a variable that means a known one names it, though another is nearer by edit distance; so do near misses of the prefix", async () => {
    const db = join(tempDir("typos"), "p.db");
    const result = await runCli(["migrate", "--db", db], {
      PENNANT_PORT: "3000", PENNANT_HOST: "127.0.0.1", PENNANT_REDIS: "redis://127.0.0.1:6379", PENANT_DB: "x", PENNAT_PROT: "1", pennant_cache_mb: "64", PENNANT_WIDGETS: "1",
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        "warning: PENANT_DB is not a variable Pennant reads and is ignored; did you mean PENNANT_DB?",
        "warning: PENNANT_HOST is not a variable Pennant reads and is ignored; did you mean HOST?",
        "warning: PENNANT_PORT is not a variable Pennant reads and is ignored; did you mean PORT?",
        "warning: PENNANT_REDIS is not a variable Pennant reads and is ignored; did you mean PENNANT_REDIS_URL?",
        "warning: PENNANT_WIDGETS is not a variable Pennant reads and is ignored (README.md, Configuration, lists the variables)",
        "warning: PENNAT_PROT is not a variable Pennant reads and is ignored; did you mean PORT?",
        "warning: pennant_cache_mb is not a variable Pennant reads and is ignored; did you mean PENNANT_CACHE_MB?",
        "",
      ].join("\n"),
    );
  });

  test("PENNANT_PORT=3000 serve: the warning names PORT, and the port served is PORT's", async () => {
    const server = await startServe({ PENNANT_PORT: "3000", PENNANT_DB: join(tempDir("typos"), "p.db") });
    try {
      expect(server.stderr()).toBe("warning: PENNANT_PORT is not a variable Pennant reads and is ignored; did you mean PORT?\n");
      expect(new URL(server.url).port).not.toBe("3000");
    } finally {
      await server.kill();
    }
  });

  test("--help and --version, which read no configuration, do not warn", async () => {
    for (const args of [["--help"], ["--version"]]) {
      expect((await runCli(args, typo)).stderr).toBe("");
    }
  });
});

describe("an option a command does not take", () => {
  test("names the option meant when it starts one or is a slip or two away, and lists the command's options", async () => {
    const db = join(tempDir("typos"), "p.db");
    for (const [args, line] of [
      [["serve", "--prot", "3000"], "unknown option --prot: did you mean --port? (this command takes --port, --host, --db)"],
      [["serve", "-p", "3000"], "unknown option -p: did you mean --port? (this command takes --port, --host, --db)"],
      [["serve", "--hots=::1"], "unknown option --hots: did you mean --host? (this command takes --port, --host, --db)"],
      [["token", "create", "--sc", "server", "--db", db], "unknown option --sc: did you mean --scope? (this command takes --scope, --label, --db)"],
      [["servers", "--database", db], "unknown option --database (this command takes --db)"],
      [["lookup", "example.com", "--edtion", "java"], "unknown option --edtion: did you mean --edition? (this command takes --edition)"],
      [["migrate", "-x"], "unknown option -x (this command takes --db)"],
    ] as const) {
      const result = await runCli([...args]);
      expect({ args, stderr: result.stderr, code: result.code }).toEqual({ args, stderr: `error: ${line}\n`, code: 2 });
    }
  });

  test("a port or path typed without its option is refused, not ignored", async () => {
    expectUsageError(await runCli(["serve", "3000"]), /^error: serve takes no operands, not "3000" \(usage: serve \[--port N\] \[--host ADDR\] \[--db PATH\]\)\n$/);
    expectUsageError(await runCli(["migrate", "p.db"]), /^error: migrate takes no operands, not "p.db"/);
  });

  test("every option a command takes is in its help, --db wherever it is taken; <command> --help prints that command's forms", async () => {
    const help = (await runCli(["--help"])).stdout;
    for (const command of ["serve", "token", "servers", "webhooks", "migrate", "backup", "copy", "lookup"]) {
      // The refusal lists what the command takes.
      const refusal = (await runCli([command, "--no-such-option"])).stderr;
      const taken = [...refusal.replace("--no-such-option", "").matchAll(/--([a-z]+)/g)].map((match) => match[1]!);
      const own = await runCli([command, "--help"]);
      expect([command, own.code]).toEqual([command, 0]);
      const forms = help.split("\n").filter((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
      expect([command, forms.length]).toEqual([command, own.stdout.split("\n").filter((line) => line.startsWith("usage: pennant ")).length]);
      for (const option of taken) {
        expect({ command, option, inHelp: forms.some((line) => line.includes(`--${option}`)) }).toEqual({ command, option, inHelp: true });
        expect({ command, option, inOwnHelp: own.stdout.includes(`--${option}`) }).toEqual({ command, option, inOwnHelp: true });
      }
      // Every form of a command that takes --db (token's too) shows it.
      if (taken.includes("db")) for (const line of forms) expect(line).toContain("[--db PATH]");
    }
  });
});
