// What every CLI mistake must look like: exit 2 and exactly one `error:` line
// on stderr naming the cause, never a stack trace.

import { expect } from "bun:test";
import type { CliResult } from "../../support/process.ts";

/** Exit 2 and exactly one line on stderr, `error: ...` matching the words. */
export function expectUsageError(result: Pick<CliResult, "code" | "stderr">, words: RegExp): void {
  expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
  expect(result.stderr).toMatch(words);
  expect(result.code).toBe(2);
}
