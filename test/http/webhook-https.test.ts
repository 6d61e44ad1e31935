// A delivery to an https receiver, as a Discord webhook is: the request goes
// to the address the name resolved to (never resolved a second time), while
// TLS checks the receiver's certificate against the URL's name, sent as the
// server name. `serve` runs as its own process so that it trusts the test's
// certificate the way a deployment trusts a public one (NODE_EXTRA_CA_CERTS
// is read when a process starts). Its alert sweep runs every 10 s, so this
// test takes up to about 20 s.

import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track } from "../support/cleanup.ts";
import { runCli, startServe } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

/** A name that resolves to loopback without DNS (lookup/dns.ts), so the certificate's name is not an address. */
const NAME = "hooks.localhost";

function certificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem"), key = join(dir, "key.pem");
  const made = Bun.spawnSync([
    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
    "-subj", `/CN=${NAME}`, "-addext", `subjectAltName=DNS:${NAME}`,
  ], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
  return { cert, key };
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(100);
  }
}

test("an https receiver gets the signed delivery, its certificate checked against the URL's name", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pennant-webhook-tls-"));
  track(() => rmSync(dir, { recursive: true, force: true }));
  const { cert, key } = certificate(dir);
  const received: Array<{ host: string | null; body: string }> = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: Bun.file(cert), key: Bun.file(key) },
    async fetch(request) {
      received.push({ host: request.headers.get("host"), body: await request.text() });
      return new Response(null, { status: 204 });
    },
  });
  track(() => receiver.stop(true));

  const env = { PENNANT_DB: join(dir, "pennant.db"), PENNANT_WEBHOOK_PRIVATE: "on", NODE_EXTRA_CA_CERTS: cert };
  const token = (await runCli(["token", "create"], env)).stdout.trim().split("\n").at(-1)!;
  const server = await startServe(env);
  const serverUuid = newUuid();
  const send = (path: string, body: object) => fetch(signedRequest(server.url, { path, token, serverUuid, body }, Date.now()));

  expect((await send("/api/server/update", { name: "Secure", status: "online", stats: { players: { online: 2, max: 20 } } })).status).toBe(200);
  const hook = `https://${NAME}:${receiver.port}/hook`;
  expect((await send("/api/server/webhooks", { url: hook, events: ["offline"], format: "json", grace_seconds: 0 })).status).toBe(201);
  // A change before the sweep has seen the server is only remembered: let one sweep pass first.
  await Bun.sleep(10_500);
  expect((await send("/api/server/heartbeat", { status: "offline" })).status).toBe(200);
  await until(() => received.length > 0, 15_000);
  expect(received[0]!.host).toBe(`${NAME}:${receiver.port}`);
  expect(JSON.parse(received[0]!.body)).toMatchObject({ event: "offline", server_uuid: serverUuid, name: "Secure" });
}, 60_000);
