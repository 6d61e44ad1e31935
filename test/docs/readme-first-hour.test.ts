// What a new user reads first must hold: the Configuration table lists exactly
// the variables the program reads.

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

test("the Configuration table lists every variable Pennant reads, and only those", () => {
  const documented = section("Configuration").flatMap((line) => /^\| `([A-Z_]+)` \|/.exec(line)?.[1] ?? []);
  expect(documented.toSorted()).toEqual(knownVariables().toSorted());
});
