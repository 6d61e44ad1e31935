// Mutation testing of the security core: `npm run mutate` (outside CI, it takes
// a while). What is mutated and which tests run against it: mutation-areas.json.
// Stryker's command runner calls mutant-tests.ts, which runs with Bun the tests
// of the mutated file's area only. Reports go to test-output/mutation/ (ignored
// by git); the sandboxes live in test-output/stryker-tmp/ while it runs.

import { readFileSync } from "node:fs";

const { areas } = JSON.parse(readFileSync(new URL("./mutation-areas.json", import.meta.url), "utf8"));

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "command",
  commandRunner: { command: "bun .ci/mutant-tests.ts" },
  coverageAnalysis: "off",
  mutate: areas.flatMap((area) => area.mutate),
  // Two cores are plenty for targeted runs; more only makes the HTTP tests contend.
  concurrency: 2,
  tempDirName: "test-output/stryker-tmp",
  // Not copied into the sandbox: what no test reads, and tsconfig.json, which
  // Stryker would rewrite through the TypeScript JS API that TypeScript 7 no
  // longer has (Bun runs the tests without it; nothing is type-checked there).
  ignorePatterns: ["/test-output", "/docs", "/bench", "/dist", "/data", "/tsconfig.json"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "test-output/mutation/index.html" },
  jsonReporter: { fileName: "test-output/mutation/mutation.json" },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  // The HTTP tests run real servers: allow for a busy machine before calling a mutant a timeout.
  timeoutMS: 30000,
};
