// A refused webhook URL from outside, its host's names answered by a real DNS
// server: the refusal names the rule, never what a name resolves to, and a
// name that resolves to a private address reads exactly like one that does
// not resolve, so the subscribe route is no oracle of an internal DNS.

import { afterEach, expect, test } from "bun:test";
import { dnsResolver } from "../../src/lookup/dns.ts";
import { startDnsPeer, type DnsPeer } from "../support/dns-peer.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
let dns: DnsPeer | undefined;
afterEach(async () => {
  await server?.close();
  dns?.close();
  dns = undefined;
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

/** An IPv4 or IPv6 address anywhere in the text. */
const ANY_ADDRESS = /\b\d{1,3}(?:\.\d{1,3}){3}\b|[0-9a-f]{0,4}:[0-9a-f]{0,4}:[0-9a-f:]*/i;

test("a name resolving to a private, loopback or link-local address is refused exactly like a name that does not resolve, naming no address", async () => {
  dns = await startDnsPeer({
    "priv.test": { a: ["10.1.2.3"] },
    "loop.test": { a: ["127.0.0.1"] },
    "meta.test": { a: ["169.254.169.254"] },
    "six.test": { aaaa: ["fd00::5"] },
    // One public address does not excuse the other: every address must pass.
    "mixed.test": { a: ["93.184.216.34", "192.168.1.10"] },
  });
  server = await startTestServer({}, { webhookResolver: dnsResolver([dns.server]) });
  const token = server.token("server");
  const serverUuid = newUuid();
  expect((await send({ path: "/api/server/update", token, serverUuid, body: { name: "Lobby", status: "online" } })).status).toBe(200);

  const answers = new Map<string, { status: number; code: string; message: string }>();
  for (const host of ["priv.test", "loop.test", "meta.test", "six.test", "mixed.test", "missing.test", "alerts.localhost"]) {
    const response = await send({ path: "/api/server/webhooks", token, serverUuid, body: { url: `https://${host}/hook`, events: ["offline"], format: "json" } });
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    answers.set(host, { status: response.status, code: error.code, message: error.message.replace(host, "HOST") });
  }
  const [first] = answers.values();
  expect(first!.status).toBe(400);
  expect(first!.code).toBe("refused_url");
  expect(first!.message).toContain("public");
  for (const [host, answer] of answers) {
    expect(`${host}: ${JSON.stringify(answer)}`).toBe(`${host}: ${JSON.stringify(first)}`);
    expect(answer.message).not.toMatch(ANY_ADDRESS);
    expect(answer.message).not.toMatch(/private|loopback|link-local/);
  }
  // The names were asked of DNS, not refused before it.
  expect(dns.questions).toContain("priv.test 1");
  expect(dns.questions).toContain("missing.test 1");
  expect((server.db.$client.query("select count(*) as n from webhooks").get() as { n: number }).n).toBe(0);
  // Nor is the address in the log of the refused requests.
  expect(JSON.stringify(server.logs())).not.toContain("10.1.2.3");
});

test("an address typed in the URL is refused naming its kind: the client wrote it, nothing is revealed", async () => {
  server = await startTestServer();
  const token = server.token("server");
  const serverUuid = newUuid();
  expect((await send({ path: "/api/server/update", token, serverUuid, body: { name: "Lobby", status: "online" } })).status).toBe(200);
  const response = await send({ path: "/api/server/webhooks", token, serverUuid, body: { url: "https://10.1.2.3/hook", events: ["offline"], format: "json" } });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: { message: string } }).error.message).toContain("10.1.2.3 is a private address");
});
