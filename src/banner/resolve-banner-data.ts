// What a banner draws, resolved from three places in order: manual values
// (the query), then what a live lookup found or the server's plugin pushed,
// then defaults. Pure functions: the caller fetches the lookup result, the
// record and its history, and passes the clock.

import { joinAddress } from "../minecraft/join-address.ts";
import { DEFAULT_EDITION, pushedEdition, type Edition } from "../minecraft/edition.ts";
import { stripFormatting } from "../minecraft/format.ts";
import { splitMotd } from "../minecraft/motd.ts";
import { networkTotals } from "../minecraft/network-totals.ts";
import { statusAt } from "../minecraft/status.ts";
import { isSoftwareName } from "../minecraft/software-names.ts";
import { gameVersion } from "../minecraft/version.ts";
import { decodePng } from "../render/basics.ts";
import type { NetworkView } from "../store/network-records.ts";
import { isPluginActive, type PluginRow, type ServerRow } from "../store/records.ts";
import { shownPlayers } from "../minecraft/players.ts";
import {
  HISTORY_WINDOW_MS, MAX_SHOWN_COUNTERS, playersUnknown, shows, type BannerElement, type HistoryPoint, type SparklineRange, type NumberStyle, type PlayerCount, type PluginBannerData,
  type ServerBannerData, type ServerStatus,
} from "./model.ts";

export type DataMode = "manual" | "query" | "plugin" | "network";

/** Shown when neither the query, the record nor an address names the server: its game's. */
export const DEFAULT_SERVER_NAMES: Readonly<Record<Edition, string>> = { java: "Minecraft Server", bedrock: "Minecraft Server", hytale: "Hytale Server" };
/** A plugin_uuid nobody pushed, and a record without a name. */
export const UNKNOWN_PLUGIN_NAME = "Unknown plugin";
export const NAMELESS_PLUGIN_NAME = "Plugin";

/** One history point per 5 minutes: 288 points a day, finer than any banner's chart. */
export const HISTORY_BUCKET_MS = 5 * 60_000;
/**
 * The chart's "now" moves in whole minutes: what a banner draws (and so its
 * ETag and cache entry) changes at most once a minute, not at every request.
 */
const HISTORY_CLOCK_MS = 60_000;

/** Values given in the query; each one present wins over every other source. */
export interface ManualValues {
  name?: string;
  status?: ServerStatus;
  online?: number;
  max?: number;
  motd1?: string;
  motd2?: string;
  /** ip_address as typed: the join address, and the name of last resort before the default. */
  address?: string;
  /** The server's edition: whose default port the join address leaves out, whose fallback icon and name are drawn. */
  edition?: Edition;
}

/** What a lookup or a pushed record says about a server. */
export interface SourceFacts {
  /** Null when the source has no name worth showing (lookups carry none). */
  name: string | null;
  status: ServerStatus;
  players: PlayerCount | null;
  motd: readonly [string, string] | null;
  version: string | null;
  latencyMs: number | null;
  /** PNG bytes as the server sent them (decoded only when drawn). */
  favicon: Uint8Array | null;
  /** Player counts over the banner's range (pushed records only), oldest first. */
  history: readonly HistoryPoint[];
  /** The join address a plugin pushed (as it sent it), or null. */
  address: string | null;
  /** The edition a plugin pushed, or null (lookups: the one asked is the query's). */
  edition: Edition | null;
  /** A lookup's: the host whose placeholder answered for the stopped server, or null. */
  sleepingHost: string | null;
}

/** ServerBannerData with the favicon still encoded: cheap to key and compare, decoded once per render. */
export interface ResolvedServer extends Omit<ServerBannerData, "favicon"> {
  favicon: Uint8Array | null;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/**
 * What a banner reads of a live lookup's answer. The lookup domain's result
 * carries it; banners do not import that domain: http hands its service in.
 */
export interface LiveStatus {
  online: boolean;
  players: { online: number; max: number } | null;
  /** The MOTD as the server sent it (`§` text or a chat component's JSON). */
  motd: { raw: string } | null;
  version: { name: string } | null;
  latencyMs: number | null;
  /** PNG bytes. */
  favicon: Uint8Array | null;
  /** The host whose placeholder answered for the stopped server (the lookup reads offline); absent or null: none. */
  sleepingHost?: string | null;
}

/** Looks a server up live (data_mode=query). */
export interface LiveLookup {
  lookup(request: { address: string; edition: Edition }): Promise<LiveStatus>;
  /** Whether an answer of lookup() is still what it would answer now; absent: never (what was made from it is made again). */
  isCurrent?(answer: LiveStatus): boolean;
}

/** A lookup's answer. Failed, disabled and blocked lookups read offline with nothing else known (the favicon may be kept). */
export function factsFromLookup(result: LiveStatus): SourceFacts {
  return {
    name: null,
    status: result.online ? "online" : "offline",
    players: result.online && result.players ? { online: result.players.online, max: result.players.max } : null,
    motd: result.motd ? splitMotd(result.motd.raw) : null,
    version: gameVersion(result.version?.name),
    latencyMs: result.online ? result.latencyMs : null,
    favicon: result.favicon,
    history: [],
    // The address looked up is ip_address itself, and its edition the query's.
    address: null,
    edition: null,
    sleepingHost: result.sleepingHost ?? null,
  };
}

/** The newest point of a chart drawn at `now`, and where its 24-hour window starts. */
export function historyEnd(now: number): number {
  return Math.floor(now / HISTORY_CLOCK_MS) * HISTORY_CLOCK_MS;
}

export function historySince(now: number): number {
  return historyEnd(now) - HISTORY_WINDOW_MS;
}

/**
 * A pushed record (undefined: nobody pushed this uuid), read at `now`: a
 * record not refreshed within `staleAfterMs` reads offline whatever it last
 * said. `history` is what the store keeps of the last 24 hours.
 */
export function factsFromRecord(
  row: ServerRow | undefined,
  history: readonly HistoryPoint[],
  now: number,
  staleAfterMs: number,
): SourceFacts | null {
  if (!row) return null;
  const status = statusAt(row, now, staleAfterMs);
  const players = status === "online" && row.playersOnline !== null
    ? shownPlayers(row.playersOnline, row.playersMax)
    : null;
  const name = text(row.name);
  return {
    name: name !== null && !isSoftwareName(name) ? name : null,
    status,
    players,
    motd: row.motd === null ? null : splitMotd(row.motd),
    version: gameVersion(row.version),
    latencyMs: null,
    favicon: null,
    history,
    address: typeof row.extra?.address === "string" ? row.extra.address : null,
    edition: pushedEdition(row.extra),
    // A plugin pushing is its server running: no host answers for it.
    sleepingHost: null,
  };
}

/** Shown for a network slug nobody named (server_name replaces it, as for any banner). */
export const UNKNOWN_NETWORK_NAME = "Unknown network";

/** What names a member server on its network's banner: its own name, else its join address, else its UUID's first group. */
function memberName(row: ServerRow): string {
  const name = text(row.name);
  if (name !== null && !isSoftwareName(name)) return stripFormatting(name);
  return typeof row.extra?.address === "string" ? stripFormatting(row.extra.address) : row.uuid.slice(0, 8);
}

/**
 * The members' charts as one: the points of each 5-minute step added up
 * (each member's highest count of the step; a member without a point there,
 * offline, adds nothing), at the step's start, oldest first. Longer ranges'
 * points already sit at the starts of their steps, hours long.
 */
export function sumHistories(series: ReadonlyArray<readonly HistoryPoint[]>): HistoryPoint[] {
  const sums = new Map<number, number>();
  for (const point of series.flat()) {
    const at = Math.floor(point.at / HISTORY_BUCKET_MS) * HISTORY_BUCKET_MS;
    sums.set(at, (sums.get(at) ?? 0) + point.online);
  }
  return [...sums].sort(([a], [b]) => a - b).map(([at, online]) => ({ at, online }));
}

/**
 * A network (undefined: no network has `slug`) read at `now`, as one
 * server's facts: its name, players summed over its online members (stale
 * ones count offline), online while any member is, and `history` (the
 * members' charts summed, sumHistories). The MOTD's two lines, which every
 * server template draws, say how many are online and which is busiest; an
 * unknown slug draws offline, its lines saying so.
 */
export function factsFromNetwork(
  network: NetworkView | undefined, slug: string, now: number, staleAfterMs: number, history: readonly HistoryPoint[] = [],
): SourceFacts {
  const none = { version: null, latencyMs: null, favicon: null, history, address: null, edition: null, sleepingHost: null };
  if (!network) return { ...none, name: UNKNOWN_NETWORK_NAME, status: "offline", players: null, motd: [`§cNo network named ${slug}`, ""] };
  const totals = networkTotals(network.servers, now, staleAfterMs);
  // "servers": beside the status word a bare "3/4 online" would read as a repeat of it.
  const share = `${totals.online === 0 ? "§c" : "§a"}${totals.online}/${totals.servers} servers online`;
  const busiest = totals.busiest ? `§7Busiest: §f${memberName(totals.busiest.server)} §7(${totals.busiest.players})` : "";
  return { ...none, name: network.name, status: totals.online > 0 ? "online" : "offline", players: totals.players, motd: [share, busiest] };
}

/** A line of the query as a MOTD line: one line, whatever it holds. */
function manualLine(line: string): string {
  return line.replace(/[\r\n]+/g, " ");
}

function playerCount(manual: ManualValues, source: PlayerCount | null): PlayerCount | null {
  const online = manual.online ?? source?.online;
  const max = manual.max ?? source?.max;
  if (online === undefined && max === undefined) return null;
  return shownPlayers(online ?? 0, max);
}

/**
 * Manual values over the source's over defaults. Without a source (manual
 * mode) the status is online unless server_status says otherwise: a manual
 * banner states what its URL says. With one that failed or knows nothing
 * (an unknown uuid: `facts` null in query or plugin mode) it is offline.
 * The source's player count is shown only while the source reads online
 * and the banner's status is online: a stale record's last count is no count.
 */
export function resolveServer(input: {
  mode: DataMode;
  manual: ManualValues;
  facts: SourceFacts | null;
  now: number;
  /** hide=: none when absent or empty. */
  hidden?: ReadonlySet<BannerElement>;
  /** range=: the span `facts.history` covers; absent: 24h. */
  historyRange?: SparklineRange;
}): ResolvedServer {
  const { mode, manual, facts } = input;
  const hidden = input.hidden?.size ? { hidden: input.hidden } : {};
  const edition = manual.edition ?? facts?.edition ?? DEFAULT_EDITION;
  const status = manual.status ?? facts?.status ?? (mode === "manual" ? "online" : "offline");
  const sourcePlayers = status === "online" && facts?.status === "online" ? facts.players : null;
  const players = playerCount(manual, sourcePlayers);
  const motd = facts?.motd ?? ["", ""];
  // The chart ends at the current value, so a server gone quiet shows its drop; players unknown now add no point.
  const now = playersUnknown({ players, status }) ? [] : [{ at: historyEnd(input.now), online: players?.online ?? 0 }];
  const history = facts && facts.history.length > 0 ? [...facts.history, ...now] : [];
  return {
    name: text(manual.name) ?? facts?.name ?? text(manual.address) ?? DEFAULT_SERVER_NAMES[edition],
    status,
    players,
    motd: [manualLine(manual.motd1 ?? motd[0]), manualLine(manual.motd2 ?? motd[1])],
    version: facts?.version ?? null,
    latencyMs: status === "online" ? (facts?.latencyMs ?? null) : null,
    favicon: facts?.favicon ?? null,
    history,
    // Named only when not the default, so a 24-hour banner is described (and keyed) as before.
    ...(input.historyRange && input.historyRange !== "24h" ? { historyRange: input.historyRange } : {}),
    address: joinAddressOf(manual, facts, edition, hidden),
    // Named only when not the default, so a Java server's banner is described (and keyed) as before.
    ...(edition === DEFAULT_EDITION ? {} : { edition }),
    // Named only when a host answered, so other banners are described (and keyed) as before.
    ...(facts?.sleepingHost ? { sleepingHost: facts.sleepingHost } : {}),
    ...hidden,
  };
}

/** ip_address, else what the plugin pushed, as players of `edition` type it; null when hidden or not an address. */
function joinAddressOf(manual: ManualValues, facts: SourceFacts | null, edition: Edition, data: { hidden?: ReadonlySet<BannerElement> }): string | null {
  const typed = manual.address ?? facts?.address;
  return typed !== undefined && typed !== null && shows(data, "address") ? joinAddress(typed, edition) : null;
}

/** The data a template draws: the favicon decoded (bounded; one that does not decode is simply absent). */
export function serverBannerData(resolved: ResolvedServer): ServerBannerData {
  const decoded = resolved.favicon ? decodePng(resolved.favicon) : null;
  return { ...resolved, favicon: decoded?.ok ? decoded.image : null };
}

/** Which counters a plugin banner draws (stats=: names in order; null: the first pushed) and how it writes them. */
export interface CounterChoice {
  names: readonly string[] | null;
  numbers: NumberStyle;
}

export const DEFAULT_COUNTERS: CounterChoice = { names: null, numbers: "compact" };

/**
 * A plugin record (undefined: nobody pushed this uuid), active when seen
 * within 24 hours. A chosen counter the record does not have is kept, as
 * null (drawn "—"): the owner sees the name they asked for is missing
 * instead of a banner that silently shows fewer counters.
 */
export function resolvePlugin(
  row: PluginRow | undefined, now: number, choice: CounterChoice = DEFAULT_COUNTERS, hidden?: ReadonlySet<BannerElement>,
): PluginBannerData {
  const pushed = row ? Object.entries(row.stats).filter(([, value]) => typeof value === "number" && Number.isFinite(value)) : [];
  const values = new Map(pushed);
  const counters = choice.names === null
    ? pushed.slice(0, MAX_SHOWN_COUNTERS)
    : choice.names.slice(0, MAX_SHOWN_COUNTERS).map((name) => [name, values.get(name) ?? null] as const);
  const base = { counters, numbers: choice.numbers, ...(hidden?.size ? { hidden } : {}) };
  if (!row) return { name: UNKNOWN_PLUGIN_NAME, version: null, active: false, ...base };
  return { name: text(row.name) ?? NAMELESS_PLUGIN_NAME, version: text(row.version), active: isPluginActive(row, now), ...base };
}
