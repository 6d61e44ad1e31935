// Which variables of the environment look meant for Pennant, and what each is
// named as meaning (the CLI prints it: test/cli/typos.test.ts).

import { describe, expect, test } from "bun:test";
import { knownVariables } from "../src/config.ts";
import { VARIABLE_MEANINGS, unknownVariableWarning, unknownVariables } from "../src/unknown-variables.ts";

const meant = (env: Record<string, string>) => Object.fromEntries(unknownVariables(env).map(({ name, meant }) => [name, meant]));

describe("unknown variables", () => {
  test("a name that means a known variable names it, though another is nearer by edit distance", () => {
    // PENNANT_DB is 4 edits from PENNANT_PORT, PORT 8: edit distance alone named PENNANT_DB.
    expect(meant({ PENNANT_PORT: "3000", PENNANT_HOST: "::", PENNANT_REDIS: "redis://r", PENNANT_DB_PATH: "x", PENNANT_THREADS: "2" })).toEqual({
      PENNANT_DB_PATH: ["PENNANT_DB"],
      PENNANT_HOST: ["HOST"],
      PENNANT_PORT: ["PORT"],
      PENNANT_REDIS: ["PENNANT_REDIS_URL"],
      PENNANT_THREADS: ["PENNANT_RENDER_THREADS"],
    });
    expect(meant({ PENNANT_DATABASE: "x" })).toEqual({ PENNANT_DATABASE: ["PENNANT_DB", "PENNANT_DATABASE_URL"] });
  });

  test("a slip of the fingers names the variable a slip or two away, a swap of two letters counting one", () => {
    expect(meant({ PENNANT_RATELIMIT: "1/1", PENNANT_TRUST_PROXIES: "on", PENNANT_METRIC_TOKEN: "", PENNANT_LOGLEVEL: "debug", PENNANT_PROT: "1" })).toEqual({
      PENNANT_LOGLEVEL: ["PENNANT_LOG_LEVEL"],
      PENNANT_METRIC_TOKEN: ["PENNANT_METRICS_TOKEN"],
      PENNANT_PROT: ["PORT"],
      PENNANT_RATELIMIT: ["PENNANT_RATE_LIMIT"],
      PENNANT_TRUST_PROXIES: ["PENNANT_TRUST_PROXY"],
    });
  });

  test("a near miss of the prefix, its underscore left out or the name in lower case is Pennant's too", () => {
    expect(meant({ PENANT_DB: "x", PENNAT_PORT: "1", PENNNANT_REDIS_URL: "r", PENNANTDB: "x", pennant_db: "x", Pennant_Host: "h", PENNANT__DB: "x" })).toEqual({
      PENANT_DB: ["PENNANT_DB"],
      PENNANTDB: ["PENNANT_DB"],
      PENNANT__DB: ["PENNANT_DB"],
      PENNAT_PORT: ["PORT"],
      PENNNANT_REDIS_URL: ["PENNANT_REDIS_URL"],
      Pennant_Host: ["HOST"],
      pennant_db: ["PENNANT_DB"],
    });
  });

  test("nothing near enough: no name is offered rather than an unrelated one", () => {
    expect(meant({ PENNANT_FOO: "1", PENNANT_SKIP_BROWSER_TESTS: "1" })).toEqual({ PENNANT_FOO: [], PENNANT_SKIP_BROWSER_TESTS: [] });
  });

  test("known variables and other programs' names are not reported", () => {
    expect(unknownVariables({ PENNANT_DB: "x", PENNANT_DEBUG: "1", PORT: "1", HOST: "h", HOME: "/root", PORTS: "1", PATH: "/bin", PENDING_JOBS: "1", PAGER: "less", PGHOST: "db", DATABASE_URL: "postgres://x" })).toEqual([]);
  });

  test("the table names only variables Pennant reads, and none of its names is one", () => {
    const known = knownVariables();
    for (const [name, variables] of Object.entries(VARIABLE_MEANINGS)) {
      expect({ name, known: known.includes(name) }).toEqual({ name, known: false });
      for (const variable of variables) expect({ name, variable, known: known.includes(variable) }).toEqual({ name, variable, known: true });
    }
  });

  test("the warning names the variables meant, or says where they are listed", () => {
    expect(unknownVariableWarning({ name: "PENNANT_PORT", meant: ["PORT"] })).toBe("warning: PENNANT_PORT is not a variable Pennant reads and is ignored; did you mean PORT?");
    expect(unknownVariableWarning({ name: "PENNANT_DATABASE", meant: ["PENNANT_DB", "PENNANT_DATABASE_URL"] })).toBe(
      "warning: PENNANT_DATABASE is not a variable Pennant reads and is ignored; did you mean PENNANT_DB or PENNANT_DATABASE_URL?",
    );
    expect(unknownVariableWarning({ name: "PENNANT_FOO", meant: [] })).toBe("warning: PENNANT_FOO is not a variable Pennant reads and is ignored (README.md, Configuration, lists the variables)");
  });
});
