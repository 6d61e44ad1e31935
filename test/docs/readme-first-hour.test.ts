// What a new user reads first must hold: the test command line says what
// `npm test` needs beyond Node and npm and how to do without the browser, and the
// Configuration table lists exactly the variables the program reads.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { knownVariables } from "../../src/config.ts";
import { ROOT } from "../support/process.ts";

const readme = await Bun.file(join(ROOT, "README.md")).text();

/** The lines of a `## ` section, up to the next one. */
function section(title: string): string[] {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no section "${title}"`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end).split("\n");
}

test("the npm test line names the servers and the browser the tests need and the switch that skips the browser's", () => {
  const line = readme.split("\n").find((text) => text.startsWith("npm install && npm test"));
  expect(line).toBeDefined();
  expect(line).toContain("apt-get install postgresql redis-server"); // what test/support/services.ts asks for
  expect(line).toContain("/usr/bin/chromium"); // where test/support/browser.ts looks, as .ci/run installs it
  expect(line).toContain("PENNANT_SKIP_BROWSER_TESTS=1");
  expect(line).toContain("untested");
});

test("the Configuration table lists every variable Pennant reads, and only those", () => {
  const documented = section("Configuration").flatMap((line) => /^\| `([A-Z_]+)` \|/.exec(line)?.[1] ?? []);
  expect(documented.toSorted()).toEqual(knownVariables().toSorted());
});
