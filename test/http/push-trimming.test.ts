// A push is not refused for text a plugin cannot shorten (issue 18): a MOTD,
// names and versions over their bound are cut to it (a MOTD keeping whole §
// codes), an entry of named values or of a list whose text is over its bound
// is dropped, a collection keeps its first entries up to its bound, the rest
// of the push is stored, and the answer names every field cut or dropped in
// `trimmed`. Only a body of the wrong shape is refused, and then nothing is stored.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function send(call: SignedCall): Promise<Response> {
  server.clock.now += 1000;
  return fetch(signedRequest(server.url, call, server.clock.now));
}

/** What GET /api/server/status answers for a server, or its status code when not 200. */
async function stored(token: string, uuid: string): Promise<any> {
  const response = await send({ method: "GET", path: "/api/server/status", token, serverUuid: uuid });
  return response.status === 200 ? json(response) : response.status;
}

/** The deployed EzBanners plugin's update, sent by its own client (test/support/ezbanners-client.ts). */
function ezBanners(token: string, uuid: string, body: string): Promise<Response> {
  server.clock.now += 1000;
  return sendPluginUpdate(pluginUpdate(server.url, token, uuid, body, server.clock.now));
}

/** One `§x§r§r§g§g§b§b` hex colour and a letter: 15 characters each. */
function gradientLetters(text: string, from: number): string[] {
  return [...text].map((letter, index) => {
    const hex = ((from + index * 0x030507) & 0xffffff).toString(16).padStart(6, "0");
    return `§x${[...hex].map((digit) => `§${digit}`).join("")}${letter}`;
  });
}

/** A two-line per-letter hex gradient MOTD as a server sends it: 35 + 34 letters, 1,036 characters. */
const GRADIENT_PIECES = [
  ...gradientLetters("Welcome to the Pennant SMP Network!", 0xff5500),
  "\n",
  ...gradientLetters("Season 7 is live: join us on 1.21!", 0x00aaff),
];
const GRADIENT = GRADIENT_PIECES.join("");

/** The longest start of the pieces within `max` characters. */
function wholePieces(pieces: readonly string[], max: number): string {
  let kept = "";
  for (const piece of pieces) {
    if (kept.length + piece.length > max) break;
    kept += piece;
  }
  return kept;
}

/** The plugin's update body of exactly `bytes` bytes: 63 placeholders that fit and one long value that fills the rest. */
function pluginBodyOf(bytes: number): string {
  const placeholders: Record<string, string> = Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`%server_line_${i}%`, "v".repeat(200)]));
  const without = Buffer.byteLength(pluginUpdateBody({ onlinePlayers: 7, placeholders: { ...placeholders, "%fill%": "" } }));
  return pluginUpdateBody({ onlinePlayers: 7, placeholders: { ...placeholders, "%fill%": "f".repeat(bytes - without) } });
}

describe("the deployed EzBanners plugin's update", () => {
  test("an exact duplicate of a trimmed push gets the same answer, trimmed list included, marked X-Duplicate", async () => {
    const token = server.token();
    const uuid = newUuid();
    server.clock.now += 1000;
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3, motd: GRADIENT }), server.clock.now);
    const first = await sendPluginUpdate(update);
    const again = await sendPluginUpdate(update);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.headers.get("x-duplicate")).toBeNull();
    expect(again.headers.get("x-duplicate")).toBe("true");
    const answer = { message: "Server data updated.", trimmed: ["data.motd"] };
    expect(await json(first)).toEqual(answer);
    expect(await json(again)).toEqual(answer);
  });

  test("a two-line hex gradient MOTD of 1,036 characters is stored cut at a whole letter; the answer names data.motd", async () => {
    expect(GRADIENT.length).toBe(1036);
    const token = server.token();
    const uuid = newUuid();
    const response = await ezBanners(token, uuid, pluginUpdateBody({ onlinePlayers: 12, motd: GRADIENT }));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: ["data.motd"] });

    const status = await stored(token, uuid);
    expect(status.stats.motd).toBe(wholePieces(GRADIENT_PIECES, 1024)); // 68 letters and the line break: 1,021
    expect(status.stats.motd).toHaveLength(1021);
    // The rest of the push is stored.
    expect(status).toMatchObject({ name: "Paper", status: "online", stats: { players: { online: 12, max: 50 }, version: "1.21.4-232-ab12cd3 (MC: 1.21.4)" } });
  });

  test("a placeholder value over 256 characters is dropped with its name, the others kept", async () => {
    const token = server.token();
    const uuid = newUuid();
    const placeholders = { rank: "Admin", motto: "m".repeat(257), balance: 1000, pvp: true, fits: "f".repeat(256) };
    const response = await ezBanners(token, uuid, pluginUpdateBody({ onlinePlayers: 3, placeholders }));
    expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: ["data.placeholders.motto"] });
    const { motto: _dropped, ...kept } = placeholders;
    expect((await stored(token, uuid)).stats.placeholders).toEqual(kept);
  });

  test.each([70, 300])("%d placeholders: the first 64 are kept, and the answer names data.placeholders", async (count) => {
    const token = server.token();
    const uuid = newUuid();
    const placeholders = Object.fromEntries(Array.from({ length: count }, (_, i) => [`%p${i}%`, i]));
    const response = await ezBanners(token, uuid, pluginUpdateBody({ onlinePlayers: 3, placeholders }));
    expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: ["data.placeholders"] });
    expect(Object.keys((await stored(token, uuid)).stats.placeholders)).toEqual(Object.keys(placeholders).slice(0, 64));
  });

  test("300 PlaceholderAPI values of 257-300 characters (81-94 KB): accepted, each named as dropped, the rest stored", async () => {
    for (const longest of [257, 300]) {
      const token = server.token();
      const uuid = newUuid();
      // Values each over the 256 characters kept, under short names.
      const placeholders = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`%v${i}%`, String(i).padEnd(longest, "x")]));
      const body = pluginUpdateBody({ onlinePlayers: 7, uptime: 148, placeholders });
      expect({ longest, kb: Math.round(Buffer.byteLength(body) / 1000) }).toEqual({ longest, kb: longest === 257 ? 81 : 94 });
      const response = await ezBanners(token, uuid, body);
      expect([longest, response.status]).toEqual([longest, 200]);
      expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: Object.keys(placeholders).map((name) => `data.placeholders.${name}`) });
      const status = await stored(token, uuid);
      expect(status).toMatchObject({ name: "Paper", status: "online", stats: { players: { online: 7, max: 50 }, placeholders: {} } });
    }
  });

  test("a larger body still stores no more than the bounds: 300 values that fit, 64 kept", async () => {
    const token = server.token();
    const uuid = newUuid();
    const placeholders = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`%server_line_${i}%`, String(i).padEnd(256, "v")]));
    const body = pluginUpdateBody({ onlinePlayers: 7, placeholders });
    expect(Buffer.byteLength(body)).toBeGreaterThan(64 * 1024);
    const response = await ezBanners(token, uuid, body);
    expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: ["data.placeholders"] });
    const kept = (await stored(token, uuid)).stats.placeholders;
    expect(Object.keys(kept)).toEqual(Object.keys(placeholders).slice(0, 64));
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThan(20 * 1024);
  });

  test("an update body of 256 KiB is read; one byte more is 413 and stores nothing", async () => {
    for (const [bytes, status] of [[256 * 1024, 200], [256 * 1024 + 1, 413]] as const) {
      const token = server.token();
      const uuid = newUuid();
      const body = pluginBodyOf(bytes);
      expect(Buffer.byteLength(body)).toBe(bytes);
      const response = await ezBanners(token, uuid, body);
      expect([bytes, response.status]).toEqual([bytes, status]);
      if (status === 413) {
        expect((await json(response)).error).toEqual({ code: "payload_too_large", message: "the body must be at most 262144 bytes" });
        expect(await stored(token, uuid)).toBe(404);
      } else {
        expect((await json(response)).trimmed).toContain("data.placeholders.%fill%");
        expect((await stored(token, uuid)).stats.players.online).toBe(7);
      }
    }
  });

  test("a body of the wrong shape is still refused whole, whatever else it holds: 400 naming the field, nothing stored", async () => {
    const token = server.token();
    const uuid = newUuid();
    const body = pluginUpdateBody({ onlinePlayers: 3, motd: GRADIENT }).replace('"max_players":50', '"max_players":"50"');
    const response = await ezBanners(token, uuid, body);
    expect(response.status).toBe(400);
    expect((await json(response)).error).toEqual({ code: "invalid_payload", message: "data.max_players must be an integer from 0 to 1000000000" });
    expect(await stored(token, uuid)).toBe(404);
  });
});

describe("the standard update and heartbeat", () => {
  test("every text field over its bound is cut to it, a MOTD of 5,000 characters too; the answer names each, in body order", async () => {
    const token = server.token();
    const uuid = newUuid();
    const motd = "§6§lNews!! §r" + "§cwelcome ".repeat(499); // 5,003 characters, past the 4,096 any string once had
    const body = {
      status: "Online" + " ".repeat(40),
      name: "N".repeat(200),
      plugin_version: "1.0.0-" + "b".repeat(100),
      stats: { players: { online: 5, max: 20 }, tps: 19.5, motd, version: "Paper " + "v".repeat(200) },
    };
    const response = await send({ path: "/api/server/update", token, serverUuid: uuid, body });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: "Server data updated.", trimmed: ["status", "name", "plugin_version", "stats.motd", "stats.version"] });

    const status = await stored(token, uuid);
    expect(status).toMatchObject({
      name: "N".repeat(128),
      status: "online",
      plugin_version: body.plugin_version.slice(0, 64),
      stats: { players: { online: 5, max: 20 }, tps: 19.5, version: body.stats.version.slice(0, 128) },
    });
    // 13 characters, then 101 "§cwelcome " (1,023): the next § would be the 1,024th, without its code.
    expect(status.stats.motd).toBe(motd.slice(0, 1023));
  });

  test("a name cut in the middle of an emoji keeps the emoji whole or not at all", async () => {
    const token = server.token();
    const uuid = newUuid();
    const name = "a".repeat(127) + "😀b";
    expect(await json(await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name } }))).toEqual({ message: "Heartbeat received.", trimmed: ["name"] });
    expect((await stored(token, uuid)).name).toBe("a".repeat(127));
  });

  test("nothing over its bound: the answer has no trimmed field", async () => {
    const body = { name: "N".repeat(128), stats: { motd: "§a" + "m".repeat(1022) } };
    expect(await json(await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body }))).toEqual({ message: "Server data updated." });
  });

  const wrongShapes: Array<[string, unknown, string]> = [
    ["a negative player count beside a long MOTD", { stats: { motd: "m".repeat(5000), players: { online: -1 } } }, "stats.players.online must be an integer from 0 to 1000000000"],
    ["a MOTD that is not text", { name: "n".repeat(500), stats: { motd: ["§a", "hi"] } }, "stats.motd must be a string"],
    ["a list for a body", ["n".repeat(500)], "the body must be a JSON object"],
  ];
  for (const [label, body, message] of wrongShapes) {
    test(`${label}: 400 naming the field, nothing stored`, async () => {
      const token = server.token();
      const uuid = newUuid();
      const response = await send({ path: "/api/server/update", token, serverUuid: uuid, body: body as object });
      expect([response.status, (await json(response)).error]).toEqual([400, { code: "invalid_payload", message }]);
      expect(await stored(token, uuid)).toBe(404);
    });
  }

  test("nesting deeper than 8 levels is refused, whatever the strings", async () => {
    const body = `{"name":"${"n".repeat(500)}","stats":{"x":${"[".repeat(9)}${"]".repeat(9)}}}`;
    const response = await send({ path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body });
    expect([response.status, (await json(response)).error.code]).toEqual([400, "invalid_payload"]);
  });
});

describe("every bound that refused a push before is fitted now: 200, the field named", () => {
  const PLUGIN = (uuid: string) => `/api/plugins/${uuid}/data`;
  const cases: Array<[string, unknown, string[]]> = [
    ["/api/server/update", { name: "n".repeat(129) }, ["name"]],
    ["/api/server/heartbeat", { status: "s".repeat(33), plugin_version: "v".repeat(65) }, ["status", "plugin_version"]],
    ["/api/server/update", { data: { server_name: "n".repeat(129), server_version: "v".repeat(129), motd: "m".repeat(1025) } }, ["data.server_name", "data.server_version", "data.motd"]],
    ["/api/server/update", { data: { placeholders: { rank: "r".repeat(257), ["k".repeat(65)]: 1, "": 2 } } }, ["data.placeholders.rank", "data.placeholders"]],
    [PLUGIN(newUuid()), { plugin: { version: "v".repeat(65) }, stats: { "": 1 } }, ["plugin.version", "stats"]],
    [PLUGIN(newUuid()), { stats: { ["k".repeat(65)]: 1 } }, ["stats"]],
    [PLUGIN(newUuid()), { minecraft_versions: Array.from({ length: 257 }, (_, i) => `1.${i}`) }, ["minecraft_versions"]],
    [PLUGIN(newUuid()), { server_software: ["Paper", "s".repeat(65)] }, ["server_software[1]"]],
    [PLUGIN(newUuid()), { meta: { alpha: { latest_version: "v".repeat(257) }, code: { latest_release: "r".repeat(257) } } }, ["meta.alpha.latest_version", "meta.code.latest_release"]],
  ];
  for (const [path, body, trimmed] of cases) {
    test(`${path.replace(/[0-9a-f-]{36}/, "{uuid}")} ${JSON.stringify(body).slice(0, 60)}`, async () => {
      const plugin = path.startsWith("/api/plugins/");
      const call: SignedCall = plugin ? { path, token: server.token(), tokenHeader: "X-Plugin-Token", body: body as object } : { path, token: server.token(), serverUuid: newUuid(), body: body as object };
      const response = await send(call);
      expect([response.status, (await json(response)).trimmed]).toEqual([200, trimmed]);
    });
  }
});

describe("plugin data", () => {
  const pushPlugin = (token: string, uuid: string, body: object) =>
    send({ path: `/api/plugins/${uuid}/data`, token, tokenHeader: "X-Plugin-Token", body });

  test("names and texts are cut, list items and stats over their bounds dropped, lists keep their first items; the answer names each", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const stats = { "": 1, ["k".repeat(65)]: 2, ...Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`s${i}`, i])) };
    const body = {
      plugin: { name: "P".repeat(200), version: "3.2.1" },
      stats,
      meta: {
        status: "s".repeat(300),
        gamma: { license: "MIT" },
        code: "o".repeat(5000), // free-form: any value
        notes: ["n".repeat(5000), 7],
      },
      minecraft_versions: ["1.21", "1.21-".padEnd(33, "x"), "1.20.4"],
      server_software: Array.from({ length: 70 }, (_, i) => `Fork${i}`),
    };
    const response = await pushPlugin(token, uuid, body);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      message: "Plugin data updated.",
      trimmed: ["plugin.name", "stats", "meta.status", "meta.code", "meta.notes[0]", "minecraft_versions[1]", "server_software"],
    });

    const row = (await server.store.plugins.get(uuid))!;
    expect(row.name).toBe("P".repeat(128));
    expect(row.version).toBe("3.2.1");
    expect(Object.keys(row.stats!)).toEqual(Array.from({ length: 128 }, (_, i) => `s${i}`));
    expect(row.meta).toEqual({ status: "s".repeat(256), gamma: { license: "MIT" }, code: "o".repeat(4096), notes: ["n".repeat(4096), 7] });
    expect(row.minecraftVersions).toEqual(["1.21", "1.20.4"]);
    expect(row.serverSoftware).toEqual(body.server_software.slice(0, 64));
  });

  test("a wrong type is still refused whole: 400, nothing stored", async () => {
    const uuid = newUuid();
    const response = await pushPlugin(server.token("plugin"), uuid, { plugin: { name: "P".repeat(200) }, stats: { players: "many" } });
    expect([response.status, (await json(response)).error.message]).toEqual([400, "stats.players must be a number"]);
    expect(await server.store.plugins.get(uuid)).toBeUndefined();
  });
});
