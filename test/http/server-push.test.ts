import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { hmacHex, json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

const UPDATE = {
  name: "Skyblock Network",
  plugin_version: "2.1.0",
  status: "online",
  stats: { players: { online: 42, max: 500 }, tps: 19.8, motd: "§aWelcome!", version: "1.21.4" },
};

async function status(token: string, serverUuid: string): Promise<Response> {
  return send({ method: "GET", path: "/api/server/status", token, serverUuid });
}

async function expectError(response: Response, status: number, code: string): Promise<{ message: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

function serverCount(): number {
  return (server.db.$client.query("select count(*) as n from servers").get() as { n: number }).n;
}

describe("server heartbeat, update and status", () => {
  test("a heartbeat creates the record and status reads it back", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "Lobby", plugin_version: "1.0", status: "online" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Heartbeat received." });

    const read = await status(token, uuid);
    expect(read.status).toBe(200);
    const body = await json(read);
    expect(body).toMatchObject({ uuid, name: "Lobby", status: "online", plugin_version: "1.0", stats: { players: { online: 0, max: 0 } } });
  });

  test("an update stores the stats, answers the spec's message and appends a history sample", async () => {
    const token = server.token();
    const uuid = newUuid();
    const response = await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Server data updated." });

    const body = await json(await status(token, uuid));
    expect(body).toMatchObject({
      uuid,
      name: "Skyblock Network",
      status: "online",
      stats: { players: { online: 42, max: 500 }, tps: 19.8, motd: "§aWelcome!", version: "1.21.4" },
    });
    const samples = await server.store.servers.samples(uuid, 0);
    expect(samples.map((s) => [s.playersOnline, s.playersMax, s.tps])).toEqual([[42, 500, 19.8]]);
  });

  test("a heartbeat keeps the stats of the last update and adds no sample", async () => {
    const token = server.token();
    const uuid = newUuid();
    await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE });
    server.clock.now += 1000;
    await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { status: "offline" } });
    const body = await json(await status(token, uuid));
    expect(body.status).toBe("offline");
    expect(body.stats.players).toEqual({ online: 42, max: 500 });
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
  });

  test("history keeps 30 days", async () => {
    const token = server.token();
    const uuid = newUuid();
    await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE });
    server.clock.now += 20 * 86_400_000;
    await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE });
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(2);
    server.clock.now += 11 * 86_400_000;
    await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE });
    // The first sample is now 31 days old and pruned; the 11-day-old one stays.
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(2);
  });

  test("X-Server-Id is accepted in place of X-Server-UUID, and upper-case UUIDs name the same server", async () => {
    const token = server.token();
    const uuid = newUuid();
    const first = await send({ path: "/api/server/heartbeat", token, headers: { "X-Server-Id": uuid }, body: { name: "A" } });
    expect(first.status).toBe(200);
    const read = await status(token, uuid.toUpperCase());
    expect((await json(read)).name).toBe("A");
  });

  test("conflicting X-Server-UUID and X-Server-Id are refused", async () => {
    const token = server.token();
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), headers: { "X-Server-Id": newUuid() } });
    await expectError(response, 400, "invalid_server_uuid");
  });

  test("a server UUID that is not a UUID is a 400", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: "my-server" });
    await expectError(response, 400, "invalid_server_uuid");
  });

  test("status of a server nobody pushed is a 404", async () => {
    await expectError(await status(server.token(), newUuid()), 404, "unknown_server");
  });
});

describe("signatures and timestamps", () => {
  test("the signature may be upper-case hex", async () => {
    const token = server.token();
    const ts = String(Math.floor(server.clock.now / 1000));
    const body = JSON.stringify({ name: "Upper" });
    const signature = hmacHex(token, `${ts}.${body}`).toUpperCase();
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), body, timestamp: ts, signature, scheme: "standard" });
    expect(response.status).toBe(200);
  });

  test("X-Timestamp in milliseconds is accepted", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), timestamp: server.clock.now });
    expect(response.status).toBe(200);
  });

  for (const [label, offset] of [["past", -301], ["future", 301]] as const) {
    test(`a timestamp 301 s in the ${label} is refused (default window 300 s)`, async () => {
      const timestamp = Math.floor(server.clock.now / 1000) + offset;
      const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), timestamp });
      await expectError(response, 401, "stale_timestamp");
      expect(serverCount()).toBe(0);
    });
  }

  test("a timestamp 299 s old is inside the window", async () => {
    const timestamp = Math.floor(server.clock.now / 1000) - 299;
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), timestamp });
    expect(response.status).toBe(200);
  });

  test("a timestamp that is not a number is refused", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), timestamp: "yesterday" });
    await expectError(response, 401, "invalid_timestamp");
  });

  test("a timestamp is digits only, at most 16 of them: a current time with anything around it is invalid, not stale", async () => {
    const now = String(Math.floor(server.clock.now / 1000));
    const nowMs = String(server.clock.now);
    for (const timestamp of [`x${now}`, `-${now}`, `${now}x`, `${now}.5`, `${nowMs}0`.padEnd(17, "0")]) {
      const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), timestamp });
      await expectError(response, 401, "invalid_timestamp");
    }
    expect(serverCount()).toBe(0);
  });

  test("a wrong signature is refused and stores nothing", async () => {
    const token = server.token();
    const response = await send({ path: "/api/server/update", token, serverUuid: newUuid(), body: UPDATE, signature: hmacHex(token, "something else") });
    await expectError(response, 401, "bad_signature");
    expect(serverCount()).toBe(0);
  });

  test("a signature that is not 64 hex digits is refused", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), signature: "zz" });
    await expectError(response, 401, "bad_signature");
  });

  test("the right signature with anything before or after it is refused as a bad signature, never a 500", async () => {
    const token = server.token();
    const ts = String(Math.floor(server.clock.now / 1000));
    const good = hmacHex(token, `${ts}.{}`);
    for (const signature of [`zz${good}`, `${good}zz`, `0${good}`, `${good}00`]) {
      const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), body: "{}", timestamp: ts, signature });
      await expectError(response, 401, "bad_signature");
    }
    expect(serverCount()).toBe(0);
  });

  test("a signature made with another token is refused", async () => {
    const token = server.token();
    const other = server.token();
    const ts = String(Math.floor(server.clock.now / 1000));
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), body: "{}", timestamp: ts, signature: hmacHex(other, `${ts}.{}`) });
    await expectError(response, 401, "bad_signature");
  });

  test("an exact resend is a duplicate, also with the signature in the other case: answered 200, applied once", async () => {
    const token = server.token();
    const call: SignedCall = { path: "/api/server/update", token, serverUuid: newUuid(), body: UPDATE };
    const original = signedRequest(server.url, call, server.clock.now);
    const headers = Object.fromEntries(original.headers.entries());
    const bodyText = await original.clone().text();
    expect((await fetch(original)).status).toBe(200);

    for (const signature of [headers["x-signature"]!, headers["x-signature"]!.toUpperCase()]) {
      const resend = await fetch(server.url + call.path, { method: "POST", headers: { ...headers, "x-signature": signature }, body: bodyText });
      expect([resend.status, resend.headers.get("x-duplicate")]).toEqual([200, "true"]);
      expect(await json(resend)).toEqual({ message: "Server data updated." });
    }
    expect(await server.store.servers.samples(call.serverUuid!, 0)).toHaveLength(1);
  });

  test("the same body with a new timestamp is a new request, not a replay", async () => {
    const token = server.token();
    const uuid = newUuid();
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE })).status).toBe(200);
    server.clock.now += 1000;
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE })).status).toBe(200);
  });

  test("two identical status reads in the same second are both answered, and a read writes nothing", async () => {
    const token = server.token();
    const uuid = newUuid();
    await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "S" } });
    const before = server.db.$client.query("select (select count(*) from used_signatures) as used, (select last_used_at from tokens) as lastUsed").get();

    server.clock.now += 1000;
    const read = signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, server.clock.now);
    const headers = Object.fromEntries(read.headers.entries());
    const first = await fetch(read);
    const second = await fetch(server.url + "/api/server/status", { headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    const after = server.db.$client.query("select (select count(*) from used_signatures) as used, (select last_used_at from tokens) as lastUsed").get();
    expect(after).toEqual(before);
  });

  test("a status read still needs a valid signature and a timestamp inside the window", async () => {
    const token = server.token();
    const uuid = newUuid();
    await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "S" } });
    await expectError(await send({ method: "GET", path: "/api/server/status", token, serverUuid: uuid, signature: hmacHex(token, "x") }), 401, "bad_signature");
    const stale = Math.floor(server.clock.now / 1000) - 301;
    await expectError(await send({ method: "GET", path: "/api/server/status", token, serverUuid: uuid, timestamp: stale }), 401, "stale_timestamp");
  });
});

describe("headers and tokens", () => {
  for (const header of ["X-Server-Token", "X-Timestamp", "X-Signature"]) {
    test(`a missing ${header} is a 401 naming it`, async () => {
      const request = signedRequest(server.url, { path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid() }, server.clock.now);
      request.headers.delete(header);
      const error = await expectError(await fetch(request), 401, "missing_headers");
      expect(error.message).toBe(`missing header: ${header}`);
    });
  }

  test("several missing headers are named in one line", async () => {
    const request = signedRequest(server.url, { path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid() }, server.clock.now);
    request.headers.delete("X-Timestamp");
    request.headers.delete("X-Signature");
    const error = await expectError(await fetch(request), 401, "missing_headers");
    expect(error.message).toBe("missing headers: X-Timestamp, X-Signature");
  });

  test("a missing server UUID is a 401", async () => {
    await expectError(await send({ path: "/api/server/heartbeat", token: server.token() }), 401, "missing_headers");
  });

  test("an unknown token is refused", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: "pn_not-a-token-we-ever-made-0000", serverUuid: newUuid() });
    await expectError(response, 401, "unknown_token");
    expect(serverCount()).toBe(0);
  });

  test("a token that cannot be one of ours is refused like any unknown one: no word on self-registration while it is closed", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: "short", serverUuid: newUuid() });
    expect((await expectError(response, 401, "unknown_token")).message).toBe("unknown or revoked token");
  });

  test("a plugin-scoped token cannot push server data", async () => {
    const response = await send({ path: "/api/server/heartbeat", token: server.token("plugin"), serverUuid: newUuid() });
    await expectError(response, 403, "wrong_scope");
    expect(serverCount()).toBe(0);
  });
});

describe("ownership", () => {
  test("the first push binds the server; another token gets 403 and changes nothing", async () => {
    const owner = server.token();
    const intruder = server.token();
    const uuid = newUuid();
    expect((await send({ path: "/api/server/update", token: owner, serverUuid: uuid, body: UPDATE })).status).toBe(200);

    const hijack = { ...UPDATE, name: "Hijacked", stats: { ...UPDATE.stats, players: { online: 0, max: 1 } } };
    await expectError(await send({ path: "/api/server/update", token: intruder, serverUuid: uuid, body: hijack }), 403, "not_owner");
    await expectError(await send({ path: "/api/server/heartbeat", token: intruder, serverUuid: uuid, body: { status: "offline" } }), 403, "not_owner");
    // A read does not tell another token's server from one that does not exist.
    const foreign = await expectError(await status(intruder, uuid), 404, "unknown_server");
    expect(foreign).toEqual(await expectError(await status(intruder, newUuid()), 404, "unknown_server"));

    const body = await json(await status(owner, uuid));
    expect(body.name).toBe("Skyblock Network");
    expect(body.status).toBe("online");
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
  });

  test("one token may own many servers (a network)", async () => {
    const token = server.token();
    const uuids = [newUuid(), newUuid(), newUuid()];
    for (const uuid of uuids) {
      expect((await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: uuid.slice(0, 4) } })).status).toBe(200);
    }
    for (const uuid of uuids) expect((await json(await status(token, uuid))).name).toBe(uuid.slice(0, 4));
  });
});

describe("bodies", () => {
  test("a heartbeat body over 64 KiB, an update body over 256 KiB, is a 413 and stores nothing", async () => {
    for (const [path, bound] of [["/api/server/heartbeat", 64 * 1024], ["/api/server/update", 256 * 1024]] as const) {
      const body = JSON.stringify({ name: "x", padding: "a".repeat(bound) });
      const response = await send({ path, token: server.token(), serverUuid: newUuid(), body });
      await expectError(response, 413, "payload_too_large");
    }
    expect(serverCount()).toBe(0);
  });

  test("a body just under 64 KiB is read", async () => {
    const body = JSON.stringify({ name: "x", padding: "a".repeat(60 * 1024) });
    const response = await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), body });
    // The padding is an unknown field: ignored, so neither stored nor named as trimmed.
    expect([response.status, await json(response)]).toEqual([200, { message: "Heartbeat received." }]);
    expect(serverCount()).toBe(1);
  });

  test("a content type other than JSON is a 415", async () => {
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: UPDATE, headers: { "Content-Type": "text/plain" } });
    await expectError(response, 415, "unsupported_media_type");
  });

  test("JSON with a charset parameter is fine", async () => {
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: UPDATE, headers: { "Content-Type": "application/json; charset=utf-8" } });
    expect(response.status).toBe(200);
  });

  test("invalid JSON is a 400", async () => {
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: "{not json" });
    await expectError(response, 400, "invalid_json");
    expect(serverCount()).toBe(0);
  });

  const badPayloads: Array<[string, unknown, string]> = [
    ["a JSON array", [1, 2], "body"],
    ["players.online as text", { stats: { players: { online: "ten", max: 5 } } }, "stats.players.online"],
    ["negative players", { stats: { players: { online: -1, max: 5 } } }, "stats.players.online"],
    ["fractional players", { stats: { players: { online: 1.5, max: 5 } } }, "stats.players.online"],
    ["tps as text", { stats: { tps: "20" } }, "stats.tps"],
    ["stats not an object", { stats: 5 }, "stats"],
    ["status as a number", { status: 1 }, "status"],
  ];
  for (const [label, body, field] of badPayloads) {
    test(`an update with ${label} is a 400 naming ${field}`, async () => {
      const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: body as object });
      const error = await expectError(response, 400, "invalid_payload");
      if (field !== "body") expect(error.message).toContain(field);
      expect(serverCount()).toBe(0);
    });
  }

  test("a number too large for JSON to hold (1e999) is refused", async () => {
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: '{"stats":{"tps":1e999}}' });
    await expectError(response, 400, "invalid_payload");
  });

  test("deep nesting is refused", async () => {
    const body = `{"stats":{"x":${"[".repeat(50)}${"]".repeat(50)}}}`;
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body });
    const error = await expectError(response, 400, "invalid_payload");
    expect(error.message).toContain("deeper");
  });

  test("invalid UTF-8 in the body is refused as invalid JSON", async () => {
    const token = server.token();
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"n":"\xff"}
    const ts = String(Math.floor(server.clock.now / 1000));
    const { createHmac } = await import("node:crypto");
    const signature = createHmac("sha256", token).update(`${ts}.`).update(bytes).digest("hex");
    const response = await fetch(server.url + "/api/server/heartbeat", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Server-Token": token, "X-Server-UUID": newUuid(), "X-Timestamp": ts, "X-Signature": signature },
      body: bytes,
    });
    await expectError(response, 400, "invalid_json");
  });

  test("unknown fields are ignored (newer plugin builds)", async () => {
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: { ...UPDATE, future_field: { a: 1 } } });
    expect(response.status).toBe(200);
  });
});

describe("unknown routes", () => {
  test("answer a JSON 404", async () => {
    const response = await fetch(server.url + "/api/nothing-here");
    await expectError(response, 404, "not_found");
  });
});
