// Runs the hand-signing example of docs/signed-api.md (bash + openssl + curl)
// against a real server, so the documentation cannot drift from what the server accepts.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, signedRequest } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.clock.now = Date.now();
});
afterAll(async () => {
  await server.close();
});

async function documentedBlock(): Promise<string> {
  const document = await Bun.file(join(import.meta.dir, "..", "..", "docs", "signed-api.md")).text();
  const match = /<!-- signing-example[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- \/signing-example -->/.exec(document);
  if (!match) throw new Error("docs/signed-api.md has no signing-example block");
  return match[1]!;
}

test("the documented openssl signing example is accepted", async () => {
  const token = server.token("server");
  const script = (await documentedBlock())
    .replace(/^URL=.*$/m, `URL=${server.url}`)
    .replace(/^TOKEN=.*$/m, `TOKEN=${token}`);
  const child = Bun.spawn(["bash", "-euc", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = [await new Response(child.stdout).text(), await new Response(child.stderr).text()];
  expect(await child.exited).toBe(0);
  expect(stderr).toBe("");
  expect(JSON.parse(stdout)).toEqual({ message: "Server data updated." });

  server.clock.now = Date.now();
  const uuid = /^UUID=(.*)$/m.exec(script)![1]!;
  const status = await fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, server.clock.now));
  expect((await json(status)).stats.players).toEqual({ online: 3, max: 20 });
});
