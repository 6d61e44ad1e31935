// The safety net of test/support/cleanup.ts: what a test leaves running (as a
// test that fails before its own close does) is closed after that test. The
// second test checks on what the first left behind (tests in a file run in order).

import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./support/cleanup.ts";
import { startServe } from "./support/process.ts";
import { startTestServer } from "./support/server.ts";

const left = { serverUrl: "", dbPath: "", serveUrl: "", dir: "" };

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

describe("cleanup after a test", () => {
  test("a test leaves a server, a `serve` process and a temp folder open", async () => {
    const server = await startTestServer();
    left.dir = tempDir("hygiene");
    const serve = await startServe({ PENNANT_DB: join(left.dir, "pennant.db") });
    Object.assign(left, { serverUrl: server.url, dbPath: server.dbPath, serveUrl: serve.url });
    expect(await refused(server.url)).toBe(false);
    expect(await refused(serve.url)).toBe(false);
  });

  test("they were closed, killed and removed after it", async () => {
    expect(left.serverUrl).not.toBe("");
    expect(await refused(left.serverUrl)).toBe(true);
    expect(await refused(left.serveUrl)).toBe(true);
    expect(existsSync(left.dbPath)).toBe(false);
    expect(existsSync(left.dir)).toBe(false);
  });
});
