// Pastes the README's quick start into bash, as a new user would (all but its
// `npm install`: the test runs inside an installed checkout), and checks that
// it leaves a running server and a token that server accepts.

import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { tempDir, track } from "../support/cleanup.ts";
import { ROOT } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

async function quickStart(): Promise<string[]> {
  const readme = await Bun.file(join(ROOT, "README.md")).text();
  const match = /<!-- quick-start[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- \/quick-start -->/.exec(readme);
  if (!match) throw new Error("README.md has no quick-start block");
  return match[1]!.trim().split("\n");
}

test("the quick start is one block: install, a token, then the server, which accepts that token", async () => {
  const lines = await quickStart();
  expect(lines[0]).toBe("npm install");
  expect(lines.at(-1)).toMatch(/^npm start\b/); // the one command that does not return comes last

  // Its own process group, so that the server npm starts is stopped with it.
  const child = spawn("bash", ["-euc", lines.slice(1).join("\n")], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", PENNANT_DB: join(tempDir("quick-start"), "pennant.db") },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = track(async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
  }, () => process.kill(-child.pid!, "SIGKILL"));
  try {
    let stdout = "";
    child.stdout!.on("data", (data) => (stdout += data));
    for (let waited = 0; !/listening on (http:\/\/\S+)/.test(stdout); waited += 20) {
      if (waited > 20_000 || child.exitCode !== null) throw new Error(`no server: ${stdout}`);
      await Bun.sleep(20);
    }
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    const token = stdout.split("\n").find((line) => /^pn_\S+$/.test(line));
    expect(token).toBeDefined();
    const response = await fetch(signedRequest(url, { path: "/api/server/heartbeat", token: token!, serverUuid: newUuid(), body: { name: "quick" } }, Date.now()));
    expect(response.status).toBe(200);
  } finally {
    await stop();
  }
});
