// Issue 38, point 4: a signature is usable only on the method and path it was
// made for. Before, a signature over "timestamp." (a status read, or any
// request without a body) was the same on every route: a status read replayed
// as DELETE of a webhook or a network removed it, and a webhook DELETE, never
// remembered, removed every other id within the clock window. Each signed
// route that changes something with an empty body is attacked here:
// DELETE /api/server/webhooks/{id} and DELETE /api/networks/{slug} (the pushes
// need a JSON body, so an empty one changes nothing), against a served
// instance on SQLite and one on PostgreSQL, where the replay memory lives.

import { beforeAll, describe, expect, test } from "bun:test";
import { pluginDataBody, pluginDataPush, pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { runCli, startServe } from "../support/process.ts";
import { startTestServer } from "../support/server.ts";
import { hmacHex, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

/** A served instance, whichever backend holds its records and replay memory. */
interface Target {
  url: string;
  token: string;
}

/** One PostgreSQL cluster for the file (stopped with the run's cleanup); each instance gets a database of its own. */
let cluster: Promise<Postgres> | undefined;

const BACKENDS: ReadonlyArray<{ name: string; prepare?(): Promise<unknown>; start(): Promise<Target> }> = [
  {
    name: "sqlite",
    async start() {
      const server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
      return { url: server.url, token: server.token("server") };
    },
  },
  {
    name: "postgres",
    // In beforeAll, so the cluster lives until the run ends (cleanup.ts).
    prepare: () => (cluster ??= startPostgres()),
    async start() {
      const postgres = await (cluster ??= startPostgres());
      const env = { PENNANT_DATABASE_URL: await postgres.database(), PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_RENDER_THREADS: "0" };
      const token = (await runCli(["token", "create", "--scope", "server"], env)).stdout.trimEnd().split("\n").at(-1)!;
      const serve = await startServe(env);
      return { url: serve.url, token };
    },
  },
];

/** A token's server with two webhooks and a network naming it: what the replays try to remove. */
async function victim(target: Target) {
  const { url, token } = target;
  const serverUuid = newUuid();
  const send = (call: Omit<SignedCall, "token">) => fetch(signedRequest(url, { token, ...call }, Date.now()));
  expect((await send({ path: "/api/server/heartbeat", serverUuid, body: { name: "Lobby", status: "online" } })).status).toBe(200);
  const hooks: string[] = [];
  for (const port of [9, 10]) {
    const created = await send({ path: "/api/server/webhooks", serverUuid, body: { url: `http://127.0.0.1:${port}/hook`, events: ["offline"], format: "json" } });
    expect(created.status).toBe(201);
    hooks.push(((await created.json()) as { id: string }).id);
  }
  const slug = `net-${serverUuid.slice(0, 8)}`;
  expect((await send({ method: "PUT", path: `/api/networks/${slug}`, body: { name: "Net", servers: [serverUuid] } })).status).toBe(200);
  const listed = async () => {
    const response = await send({ method: "GET", path: "/api/server/webhooks", serverUuid });
    expect(response.status).toBe(200);
    return ((await response.json()) as Array<{ id: string }>).map((row) => row.id).sort();
  };
  return { ...target, serverUuid, hooks, slug, send, listed };
}

/** The request as sent, to send again elsewhere: its signed headers. */
function captured(request: Request): Record<string, string> {
  return Object.fromEntries(request.headers.entries());
}

async function expectRefused(response: Response, code: string): Promise<void> {
  const body = (await response.json()) as { error?: { code: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status: 401, code });
}

for (const backend of BACKENDS) {
  describe(`a signature is not usable on another route or method [${backend.name}]`, () => {
    if (backend.prepare) beforeAll(backend.prepare);
    test("a status read signed over timestamp + \".\" (as plugins read) answers, and replayed as each DELETE removes nothing", async () => {
      const v = await victim(await backend.start());
      const ts = String(Math.floor(Date.now() / 1000));
      const read = { "X-Server-Token": v.token, "X-Server-UUID": v.serverUuid, "X-Timestamp": ts, "X-Signature": hmacHex(v.token, `${ts}.`) };
      expect((await fetch(`${v.url}/api/server/status`, { headers: read })).status).toBe(200);

      await expectRefused(await fetch(`${v.url}/api/server/webhooks/${v.hooks[0]}`, { method: "DELETE", headers: read }), "bad_signature");
      await expectRefused(await fetch(`${v.url}/api/networks/${v.slug}`, { method: "DELETE", headers: read }), "bad_signature");
      // The pushes need a JSON body: the read's signature over an empty one writes nothing there either.
      for (const path of ["/api/server/heartbeat", "/api/server/update"]) {
        const response = await fetch(v.url + path, { method: "POST", headers: { ...read, "Content-Type": "application/json" } });
        expect(response.status).not.toBe(200);
      }
      expect(await v.listed()).toEqual([...v.hooks].sort());
      // The network is still there: a DELETE made for it removes it.
      expect((await v.send({ method: "DELETE", path: `/api/networks/${v.slug}` })).status).toBe(200);
    });

    test("a status read signed over method and path replayed as each DELETE removes nothing", async () => {
      const v = await victim(await backend.start());
      const read = signedRequest(v.url, { method: "GET", path: "/api/server/status", token: v.token, serverUuid: v.serverUuid }, Date.now());
      const headers = captured(read);
      expect((await fetch(read)).status).toBe(200);
      await expectRefused(await fetch(`${v.url}/api/server/webhooks/${v.hooks[0]}`, { method: "DELETE", headers }), "bad_signature");
      await expectRefused(await fetch(`${v.url}/api/networks/${v.slug}`, { method: "DELETE", headers }), "bad_signature");
      // A webhook list's signature is not a DELETE's either.
      const list = captured(signedRequest(v.url, { method: "GET", path: "/api/server/webhooks", token: v.token, serverUuid: v.serverUuid }, Date.now()));
      await expectRefused(await fetch(`${v.url}/api/server/webhooks/${v.hooks[0]}`, { method: "DELETE", headers: list }), "bad_signature");
      // The query is signed too, and the scheme is named, not guessed: without its header the signature is read the older way.
      await expectRefused(await fetch(`${v.url}/api/server/status?fresh=1`, { headers }), "bad_signature");
      const { "x-signature-version": _, ...unnamed } = headers;
      await expectRefused(await fetch(`${v.url}/api/server/status`, { headers: unnamed }), "bad_signature");
      expect(await v.listed()).toEqual([...v.hooks].sort());
    });

    test("a webhook DELETE removes its id only: the same request again is an exact duplicate, another id or the network refused", async () => {
      const v = await victim(await backend.start());
      const [first, second] = v.hooks as [string, string];
      const remove = signedRequest(v.url, { method: "DELETE", path: `/api/server/webhooks/${first}`, token: v.token, serverUuid: v.serverUuid }, Date.now());
      const headers = captured(remove);
      expect((await fetch(remove)).status).toBe(200);

      // Remembered: the same request again is answered as the first was, and changes nothing.
      const again = await fetch(`${v.url}/api/server/webhooks/${first}`, { method: "DELETE", headers });
      expect({ status: again.status, duplicate: again.headers.get("x-duplicate"), body: await again.json() }).toEqual({
        status: 200, duplicate: "true", body: { message: "Webhook removed." },
      });
      await expectRefused(await fetch(`${v.url}/api/server/webhooks/${second}`, { method: "DELETE", headers }), "bad_signature");
      await expectRefused(await fetch(`${v.url}/api/networks/${v.slug}`, { method: "DELETE", headers }), "bad_signature");
      expect(await v.listed()).toEqual([second]);
      expect((await v.send({ method: "DELETE", path: `/api/networks/${v.slug}` })).status).toBe(200);
    });

    test("a network DELETE's signature removes no webhook and no other network", async () => {
      const v = await victim(await backend.start());
      const other = `${v.slug}-b`;
      expect((await v.send({ method: "PUT", path: `/api/networks/${other}`, body: { name: "B", servers: [v.serverUuid] } })).status).toBe(200);
      const remove = signedRequest(v.url, { method: "DELETE", path: `/api/networks/${v.slug}`, token: v.token }, Date.now());
      const headers = { ...captured(remove), "X-Server-UUID": v.serverUuid };
      expect((await fetch(remove)).status).toBe(200);
      // Its method is signed: the same path with another method is not its request.
      await expectRefused(await fetch(`${v.url}/api/networks/${v.slug}`, { method: "PUT", headers: { ...headers, "Content-Type": "application/json" } }), "bad_signature");
      await expectRefused(await fetch(`${v.url}/api/networks/${other}`, { method: "DELETE", headers }), "bad_signature");
      await expectRefused(await fetch(`${v.url}/api/server/webhooks/${v.hooks[0]}`, { method: "DELETE", headers }), "bad_signature");
      expect(await v.listed()).toEqual([...v.hooks].sort());
      expect((await v.send({ method: "DELETE", path: `/api/networks/${other}` })).status).toBe(200);
    });

    test("webhooks and networks take only signatures over method and path; the plugin's pushes keep their schemes", async () => {
      const v = await victim(await backend.start());
      const old = (call: Omit<SignedCall, "token">) => {
        const body = call.body === undefined ? "" : JSON.stringify(call.body);
        const ts = String(Math.floor(Date.now() / 1000));
        const headers = {
          "X-Server-Token": v.token, "X-Timestamp": ts, "X-Signature": hmacHex(v.token, `${ts}.${body}`), "Content-Type": "application/json",
          ...(call.serverUuid ? { "X-Server-UUID": call.serverUuid } : {}),
        };
        return fetch(v.url + call.path, { method: call.method ?? "POST", headers, body: body === "" ? undefined : body });
      };
      await expectRefused(await old({ path: "/api/server/webhooks", serverUuid: v.serverUuid, body: { url: "http://127.0.0.1:11/hook", events: ["offline"], format: "json" } }), "bad_signature");
      await expectRefused(await old({ method: "PUT", path: `/api/networks/${v.slug}`, body: { name: "Taken", servers: [v.serverUuid] } }), "bad_signature");
      await expectRefused(await old({ method: "DELETE", path: `/api/networks/${v.slug}` }), "bad_signature");
      const listed = await old({ method: "GET", path: "/api/server/webhooks", serverUuid: v.serverUuid });
      expect(((await listed.clone().json()) as { error: { message: string } }).error.message).toContain("X-Signature-Version: 2");
      await expectRefused(listed, "bad_signature");

      // The deployed EzBanners plugin, byte for byte: its update (body alone) and its plugin data (timestamp.body).
      const updated = await sendPluginUpdate(pluginUpdate(v.url, v.token, v.serverUuid, pluginUpdateBody({ onlinePlayers: 3 }), Date.now()));
      expect(updated.status).toBe(200);
      expect((await old({ path: "/api/server/heartbeat", serverUuid: v.serverUuid, body: { status: "online" } })).status).toBe(200);
      expect(await v.listed()).toEqual([...v.hooks].sort());
    });
  });
}

test("the plugin's data push, signed over seconds + \".\" + body, is accepted as before", async () => {
  const server = await startTestServer();
  const token = server.token("plugin");
  const pushed = await sendPluginUpdate(pluginDataPush(server.url, token, newUuid(), pluginDataBody(3, newUuid()), server.clock.now));
  expect(pushed.status).toBe(200);
});
