import { describe, expect, test } from "bun:test";
import { DEFAULT_MAX_PLAYERS } from "../../src/minecraft/players.ts";
import {
  DEFAULT_SERVER_NAMES, factsFromLookup, factsFromRecord, historyEnd, resolvePlugin, resolveServer, serverBannerData,
  UNKNOWN_PLUGIN_NAME, type SourceFacts,
} from "../../src/banner/resolve-banner-data.ts";
import type { LookupResult } from "../../src/lookup/result.ts";
import { encodePng, Pixmap, rgba } from "../../src/render/index.ts";
import type { PluginRow, ServerRow } from "../../src/store/records.ts";

const NOW = 1_800_000_000_000;
const STALE_MS = 900_000;

/** A record as the deployed EzBanners plugin's update leaves it (test/support/ezbanners-client.ts). */
function ezRecord(fields: Partial<ServerRow> = {}): ServerRow {
  return {
    uuid: "3f1c2a4e-8a8e-4c57-9a3a-0d4b0f3f2b11", tokenId: 1, name: "Paper", pluginVersion: null, status: "online",
    playersOnline: 3, playersMax: 50, tps: 19.97, motd: "§aWelcome\n§7Second line", version: "1.21.4-232-ab12cd3 (MC: 1.21.4)",
    extra: {}, firstSeen: NOW - 3_600_000, lastSeen: NOW - 60_000, statsUpdatedAt: NOW - 60_000,
    ...fields,
  } as ServerRow;
}

function lookupResult(fields: Partial<LookupResult>): LookupResult {
  return {
    online: true, edition: "java", host: "play.example.com", port: 25565, ipAddress: "203.0.113.5", srvRecord: null, protocolUsed: "modern", source: null,
    version: { name: "Paper 1.21.4", protocol: 769 }, players: { online: 7, max: 100, sample: [] }, motd: { raw: "§6Gold\n§bAqua" },
    favicon: null, latencyMs: 42, software: null, plugins: [], map: null, error: null, sleepingHost: null, operatorNote: null,
    ...fields,
  };
}

const fromRecord = (row: ServerRow | undefined, history: SourceFacts["history"] = []) => factsFromRecord(row, history, NOW, STALE_MS);

describe("the deployed plugin's record", () => {
  test("draws its players, the game version from (MC: ...), and its MOTD split into two § lines", () => {
    const data = resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(ezRecord()), now: NOW });
    expect(data).toMatchObject({ status: "online", players: { online: 3, max: 50 }, version: "1.21.4", motd: ["§aWelcome", "§7Second line"] });
  });

  test('its name is the software ("Paper"): the banner shows server_name, else ip_address, else the default', () => {
    const facts = fromRecord(ezRecord());
    expect(resolveServer({ mode: "plugin", manual: {}, facts, now: NOW }).name).toBe(DEFAULT_SERVER_NAMES.java);
    expect(resolveServer({ mode: "plugin", manual: { address: "play.example.com" }, facts, now: NOW }).name).toBe("play.example.com");
    expect(resolveServer({ mode: "plugin", manual: { name: "Skyblock" }, facts, now: NOW }).name).toBe("Skyblock");
    // A name that is not a software's is the server's own.
    expect(resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(ezRecord({ name: "Skyblock Network" })), now: NOW }).name).toBe("Skyblock Network");
  });

  test("a record not refreshed within the stale time reads offline, and its last count is not shown", () => {
    const stale = fromRecord(ezRecord({ lastSeen: NOW - STALE_MS - 1 }));
    const data = resolveServer({ mode: "plugin", manual: {}, facts: stale, now: NOW });
    expect(data.status).toBe("offline");
    expect(data.players).toBeNull();
    expect(data.motd).toEqual(["§aWelcome", "§7Second line"]);
  });

  test("an unknown uuid draws the defaults, offline", () => {
    expect(resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(undefined), now: NOW })).toEqual({
      name: DEFAULT_SERVER_NAMES.java, status: "offline", players: null, motd: ["", ""], version: null, latencyMs: null, favicon: null, history: [], address: null,
    });
  });

  test("history ends at the current value, on the minute", () => {
    const history = [{ at: NOW - 7_200_000, online: 5 }, { at: NOW - 600_000, online: 9 }];
    const data = resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(ezRecord(), history), now: NOW + 1_234 });
    expect(data.history).toEqual([...history, { at: historyEnd(NOW + 1_234), online: 3 }]);
    expect(historyEnd(NOW + 1_234) % 60_000).toBe(0);
    const stale = resolveServer({ mode: "plugin", manual: {}, facts: factsFromRecord(ezRecord(), history, NOW + STALE_MS, STALE_MS), now: NOW + STALE_MS });
    expect(stale.history.at(-1)?.online).toBe(0);
  });
});

describe("manual values win", () => {
  test("each manual value over the record's, per field and per MOTD line", () => {
    const manual = { name: "Mine", status: "offline" as const, online: 1, max: 2, motd2: "§cSecond" };
    const data = resolveServer({ mode: "plugin", manual, facts: fromRecord(ezRecord()), now: NOW });
    expect(data).toMatchObject({ name: "Mine", status: "offline", players: { online: 1, max: 2 }, motd: ["§aWelcome", "§cSecond"] });
  });

  test("server_status=offline over a live source hides the source's count (manual counts still show)", () => {
    const facts = fromRecord(ezRecord());
    expect(resolveServer({ mode: "plugin", manual: { status: "offline" }, facts, now: NOW }).players).toBeNull();
    expect(resolveServer({ mode: "plugin", manual: { status: "offline", online: 2 }, facts, now: NOW }).players).toEqual({ online: 2, max: DEFAULT_MAX_PLAYERS });
  });

  test("a manual banner is online unless server_status says otherwise; counts default sensibly", () => {
    expect(resolveServer({ mode: "manual", manual: {}, facts: null, now: NOW })).toMatchObject({ status: "online", players: null, name: DEFAULT_SERVER_NAMES.java });
    expect(resolveServer({ mode: "manual", manual: { online: 5 }, facts: null, now: NOW }).players).toEqual({ online: 5, max: DEFAULT_MAX_PLAYERS });
    expect(resolveServer({ mode: "manual", manual: { online: 500 }, facts: null, now: NOW }).players).toEqual({ online: 500, max: 500 });
    expect(resolveServer({ mode: "manual", manual: { max: 64 }, facts: null, now: NOW }).players).toEqual({ online: 0, max: 64 });
  });

  test("a maximum of 0, from any source, reads as none was sent: 20 or the online count if higher", () => {
    expect(resolveServer({ mode: "manual", manual: { online: 5, max: 0 }, facts: null, now: NOW }).players).toEqual({ online: 5, max: 20 });
    const record = fromRecord(ezRecord({ playersOnline: 1_000_000_000, playersMax: 0 }));
    expect(resolveServer({ mode: "plugin", manual: {}, facts: record, now: NOW }).players).toEqual({ online: 1_000_000_000, max: 1_000_000_000 });
    const lookup = factsFromLookup(lookupResult({ players: { online: 7, max: 0, sample: [] } }));
    expect(resolveServer({ mode: "query", manual: {}, facts: lookup, now: NOW }).players).toEqual({ online: 7, max: 20 });
    // A positive maximum below the count is the game's own "52/50" (operators join full servers).
    expect(resolveServer({ mode: "manual", manual: { online: 52, max: 50 }, facts: null, now: NOW }).players).toEqual({ online: 52, max: 50 });
  });

  test("a MOTD line from the query stays one line", () => {
    expect(resolveServer({ mode: "manual", manual: { motd1: "a\nb" }, facts: null, now: NOW }).motd[0]).toBe("a b");
  });
});

describe("live lookups", () => {
  test("an answer gives status, players, MOTD lines, version and latency; the address names the server", () => {
    const data = resolveServer({ mode: "query", manual: { address: "play.example.com" }, facts: factsFromLookup(lookupResult({})), now: NOW });
    expect(data).toMatchObject({ name: "play.example.com", status: "online", players: { online: 7, max: 100 }, motd: ["§6Gold", "§bAqua"], latencyMs: 42 });
  });

  test("a failed or blocked lookup is offline with defaults and manual values, unless server_status says online", () => {
    const failed = factsFromLookup(lookupResult({ online: false, players: null, motd: null, version: null, latencyMs: null, error: { code: "blocked_address", message: "" } }));
    expect(resolveServer({ mode: "query", manual: { online: 4 }, facts: failed, now: NOW })).toMatchObject({ status: "offline", players: { online: 4, max: 20 } });
    expect(resolveServer({ mode: "query", manual: { status: "online" }, facts: failed, now: NOW }).status).toBe("online");
  });

  test("a host's placeholder answered: offline, naming the host (its MOTD line says so: motd-lines.ts); other lookups name none", () => {
    const sleeping = factsFromLookup(lookupResult({ online: false, players: null, motd: null, version: null, latencyMs: null, error: { code: "sleeping", message: "" }, sleepingHost: "Aternos" }));
    expect(resolveServer({ mode: "query", manual: {}, facts: sleeping, now: NOW })).toMatchObject({ status: "offline", players: null, sleepingHost: "Aternos" });
    expect(resolveServer({ mode: "query", manual: {}, facts: factsFromLookup(lookupResult({})), now: NOW })).not.toHaveProperty("sleepingHost");
  });

  test("a favicon is decoded when drawn; one that does not decode is absent", () => {
    const icon = new Pixmap(64, 64);
    icon.fill(rgba(200, 30, 120));
    const good = resolveServer({ mode: "query", manual: {}, facts: factsFromLookup(lookupResult({ favicon: encodePng(icon) })), now: NOW });
    expect(serverBannerData(good).favicon?.width).toBe(64);
    const broken = resolveServer({ mode: "query", manual: {}, facts: factsFromLookup(lookupResult({ favicon: Uint8Array.of(0x89, 0x50, 1, 2) })), now: NOW });
    expect(serverBannerData(broken).favicon).toBeNull();
  });
});

describe("plugin records", () => {
  const row = (lastSeen: number) => ({ name: "EzShop", version: "2.1.0", stats: { servers: 120, players: 4000 }, lastSeen }) as unknown as PluginRow;

  test("name, version and counters in pushed order; active when seen within 24 hours", () => {
    expect(resolvePlugin(row(NOW - 3_600_000), NOW)).toEqual({ name: "EzShop", version: "2.1.0", counters: [["servers", 120], ["players", 4000]], numbers: "compact", active: true });
    expect(resolvePlugin(row(NOW - 25 * 3_600_000), NOW).active).toBe(false);
    expect(resolvePlugin(undefined, NOW)).toEqual({ name: UNKNOWN_PLUGIN_NAME, version: null, counters: [], numbers: "compact", active: false });
  });

  test("stats= chooses and orders the counters; a name the record lacks is kept as null; at most three", () => {
    const many = { ...row(NOW), stats: { a: 1, b: 2, c: 3, d: 4 } } as unknown as PluginRow;
    expect(resolvePlugin(many, NOW).counters).toEqual([["a", 1], ["b", 2], ["c", 3]]);
    expect(resolvePlugin(many, NOW, { names: ["d", "nope", "a"], numbers: "full" })).toMatchObject({ counters: [["d", 4], ["nope", null], ["a", 1]], numbers: "full" });
    expect(resolvePlugin(undefined, NOW, { names: ["servers"], numbers: "compact" }).counters).toEqual([["servers", null]]);
  });
});

describe("editions", () => {
  const hytaleRecord = (fields: Partial<ServerRow> = {}) => ezRecord({ name: "Orbis Realms", extra: { address: "play.orbis.example:5520", edition: "hytale" }, ...fields });

  test("a pushed record's edition decides its join address's default port and is drawn; the query's edition= wins over it", () => {
    const pushed = resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(hytaleRecord()), now: NOW });
    expect(pushed).toMatchObject({ address: "play.orbis.example", edition: "hytale" });
    const told = resolveServer({ mode: "plugin", manual: { edition: "java" }, facts: fromRecord(hytaleRecord()), now: NOW });
    expect(told.address).toBe("play.orbis.example:5520");
    expect(told.edition).toBeUndefined();
    // Without one pushed, Java's: 25565 is left out, 5520 kept.
    const java = resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(hytaleRecord({ extra: { address: "play.orbis.example:5520" } })), now: NOW });
    expect(java.address).toBe("play.orbis.example:5520");
    expect("edition" in java).toBe(false);
  });

  test("an edition the record holds that is none of the three reads as none", () => {
    const odd = fromRecord(hytaleRecord({ extra: { edition: "pocket" } }));
    expect(odd?.edition).toBeNull();
  });

  test("a server nothing names is its game's: Hytale Server, Minecraft Server", () => {
    expect(resolveServer({ mode: "manual", manual: { edition: "hytale" }, facts: null, now: NOW }).name).toBe("Hytale Server");
    expect(resolveServer({ mode: "plugin", manual: {}, facts: fromRecord(hytaleRecord({ name: null })), now: NOW }).name).toBe("Hytale Server");
    expect(resolveServer({ mode: "manual", manual: { edition: "bedrock" }, facts: null, now: NOW }).name).toBe(DEFAULT_SERVER_NAMES.java);
  });

  test("players unknown now add no point to the chart (a 0 there would read as an empty server); offline adds its drop", () => {
    const history = [{ at: NOW - 3_600_000, online: 5 }];
    const unknown = fromRecord(hytaleRecord({ playersOnline: null, playersMax: null }), history);
    expect(resolveServer({ mode: "plugin", manual: {}, facts: unknown, now: NOW }).history).toEqual(history);
    const offline = fromRecord(hytaleRecord({ status: "offline" }), history);
    expect(resolveServer({ mode: "plugin", manual: {}, facts: offline, now: NOW }).history).toEqual([...history, { at: historyEnd(NOW), online: 0 }]);
  });
});
