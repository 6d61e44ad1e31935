// A network's slug is spelled one way, from outside: whitespace around it (a
// leading space, a trailing line feed) is refused with invalid_slug wherever a
// slug is read (PUT and DELETE /api/networks/{slug}, the banner's network=,
// the network badges' path), never trimmed into another slug, and a refused
// PUT or DELETE changes nothing.

import { afterEach, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

async function errorCode(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { error?: { code: string } };
  return [response.status, body.error?.code ?? "no error"];
}

const names = () => server.db.$client.query("select slug, name from networks order by slug").all();

/** Spellings of the slug "a" with whitespace around it, as they travel in a URL. */
const SPACED = ["%20a", "a%20", "a%0a", "%0aa", "a%09", "a%0d"];

test("PUT and DELETE of a slug with whitespace around it are 400 invalid_slug and change nothing", async () => {
  server = await startTestServer();
  const token = server.token("server");
  const serverUuid = newUuid();
  expect((await send({ path: "/api/server/update", token, serverUuid, body: { name: "Hub", status: "online" } })).status).toBe(200);
  expect((await send({ method: "PUT", path: "/api/networks/a", token, body: { name: "Kept", servers: [serverUuid] } })).status).toBe(200);

  for (const spaced of SPACED) {
    server.clock.now += 1000;
    const put = await send({ method: "PUT", path: `/api/networks/${spaced}`, token, body: { name: "Replaced", servers: [serverUuid] } });
    expect([spaced, ...(await errorCode(put))]).toEqual([spaced, 400, "invalid_slug"]);
    const removed = await send({ method: "DELETE", path: `/api/networks/${spaced}`, token });
    expect([spaced, ...(await errorCode(removed))]).toEqual([spaced, 400, "invalid_slug"]);
  }
  expect(names()).toEqual([{ slug: "a", name: "Kept" }]);
});

test("the banner's network= and the network badge's path refuse a slug with whitespace around it", async () => {
  server = await startTestServer();
  const token = server.token("server");
  const serverUuid = newUuid();
  expect((await send({ path: "/api/server/update", token, serverUuid, body: { name: "Hub", status: "online" } })).status).toBe(200);
  expect((await send({ method: "PUT", path: "/api/networks/a", token, body: { name: "Net", servers: [serverUuid] } })).status).toBe(200);
  // The slug as named is shown.
  expect((await fetch(`${server.url}/shields/networks/a/players.json`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/banner?data_mode=network&network=a`)).status).toBe(200);

  for (const spaced of SPACED) {
    const badge = await fetch(`${server.url}/shields/networks/${spaced}/players.json`);
    expect([spaced, ...(await errorCode(badge))]).toEqual([spaced, 400, "invalid_slug"]);
    const banner = await fetch(`${server.url}/api/banner?data_mode=network&network=${spaced}`, { headers: { Accept: "application/json" } });
    expect([spaced, banner.status]).toEqual([spaced, 400]);
  }
});
