// Everything a test starts (servers, child processes, temporary folders) is
// registered here, so that it is closed even when an assertion fails before the
// test's own finally or afterEach: what a test body (or its beforeEach) started
// is closed after that test, what a file started at load or in beforeAll after
// the whole run. test/support/preload.ts installs the hooks (bunfig.toml).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Release = () => unknown;

const forTest = new Set<Release>();
const forRun = new Set<Release>();
const atExit = new Set<() => void>();
let inTest = false;

/**
 * Registers a release (and, for child processes, a synchronous kill for an early
 * exit); returns it wrapped to run at most once, so that the test's own close
 * and this safety net never both act.
 */
export function track(release: Release, killAtExit?: () => void): () => Promise<void> {
  let done: Promise<void> | undefined;
  const scope = inTest ? forTest : forRun;
  const once = () => {
    scope.delete(once);
    if (killAtExit) atExit.delete(killAtExit);
    done ??= Promise.resolve().then(release).then(() => undefined);
    return done;
  };
  scope.add(once);
  if (killAtExit) atExit.add(killAtExit);
  return once;
}

/** A new empty folder under the system's temp folder, removed after the test (or the run). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `pennant-${prefix}-`));
  track(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function releaseAll(scope: Set<Release>): Promise<void> {
  const errors: unknown[] = [];
  // Last started, first released: a server closes before its folder is removed.
  for (const release of [...scope].reverse()) {
    try {
      await release();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, "cleanup failed");
}

export function testStarted(): void {
  inTest = true;
}

export async function testEnded(): Promise<void> {
  inTest = false;
  await releaseAll(forTest);
}

export async function runEnded(): Promise<void> {
  await releaseAll(forTest);
  await releaseAll(forRun);
}

/** Synchronous last resort when the process exits early: kill what is still running. */
export function killOnExit(): void {
  for (const kill of atExit) kill();
}
