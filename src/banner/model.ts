// What a banner draws, already resolved: the HTTP layer merges manual
// values, looked-up or pushed data and defaults into these plain records;
// templates draw from them and nothing else (no I/O, no clock).

import type { Edition } from "../minecraft/edition.ts";
import type { PlayerCount } from "../minecraft/players.ts";
import type { ServerStatus } from "../minecraft/status.ts";
import type { Color, Pixmap } from "../render/index.ts";
import type { BackgroundPresetName } from "./backgrounds.ts";

export type { PlayerCount, ServerStatus };
export type Theme = "light" | "dark";

/**
 * How far back a banner's player history reaches (the sparkline's window,
 * range=): the resolver gathers this span, the chart spans it. 24 hours by
 * default, read from the minute samples; longer ranges from the roll-ups.
 */
export const SPARKLINE_RANGES = { "24h": 24 * 3_600_000, "7d": 7 * 24 * 3_600_000, "30d": 30 * 24 * 3_600_000 } as const;
export type SparklineRange = keyof typeof SPARKLINE_RANGES;
export const HISTORY_WINDOW_MS = SPARKLINE_RANGES["24h"];

/** One sample of the player count; `at` in milliseconds since the epoch. */
export interface HistoryPoint {
  at: number;
  online: number;
}

/**
 * The parts of a banner an owner may leave out (`hide=address,version`), in
 * the order they are documented. A template draws nothing in place of a
 * hidden part and gives its room to the rest.
 */
export const BANNER_ELEMENTS = ["address", "version", "players", "motd", "icon", "status", "latency"] as const;
export type BannerElement = (typeof BANNER_ELEMENTS)[number];

/** Whether a banner draws `element`: every part unless its owner hid it. */
export function shows(data: { hidden?: ReadonlySet<BannerElement> }, element: BannerElement): boolean {
  return !data.hidden?.has(element);
}

/**
 * Whether a server's players are unknown: it reads online but its source
 * gave no count (a Hytale server asked without a query plugin, a push
 * without players). Banners say so in words, never as a count such as 0/0.
 * An offline server has no count to know.
 */
export function playersUnknown(data: Pick<ServerBannerData, "players" | "status">): boolean {
  return data.players === null && data.status === "online";
}

export interface ServerBannerData {
  /** The display name (plain text; stray `§` codes are dropped when drawn). */
  name: string;
  status: ServerStatus;
  /** null: unknown (an offline server, a lookup without a player count). */
  players: PlayerCount | null;
  /** The two MOTD lines as `§`-formatted text, already split (see splitMotd). */
  motd: readonly [string, string];
  /** The game version to show ("1.21.4"; see gameVersion), or null. */
  version: string | null;
  /** Measured round trip of a live lookup; null when nothing was measured. */
  latencyMs: number | null;
  /** The server's icon, decoded (64x64 from the game; any size is scaled). */
  favicon: Pixmap | null;
  /**
   * Player counts over historyRange (24 hours by default), oldest first. The chart's window ends
   * at the newest point, so the resolver appends the current sample.
   */
  history: readonly HistoryPoint[];
  /** The span `history` covers; absent: 24h. */
  historyRange?: SparklineRange;
  /**
   * How players join, as they would type it: `play.example.com`, with
   * `:port` only when it is not the edition's default. Absent or null: unknown.
   */
  address?: string | null;
  /** Parts the owner chose not to show (hide=); absent: none. */
  hidden?: ReadonlySet<BannerElement>;
  /** The server's game, which picks the fallback icon; absent: Java Edition. */
  edition?: Edition;
  /** Fraction of the last 7 days online (a pushed server's history), read only for animate=stats; absent or null: unknown. */
  uptime?: number | null;
  /** The host that answered for the stopped server with its placeholder (a lookup's sleeping_host), said while the banner reads offline; absent: none. */
  sleepingHost?: string;
}

/** How counters are written: shields' compact form ("1.3k", "35k"), or every digit ("1 284", "35 210"). */
export type NumberStyle = "compact" | "full";

/** Counters a plugin banner draws at most: three fit every size with captions that need not be cut. */
export const MAX_SHOWN_COUNTERS = 3;

export interface PluginBannerData {
  name: string;
  version: string | null;
  /**
   * The counters drawn, in order ("servers", 120): the ones the owner chose
   * (stats=), else the first pushed. null: a chosen name the record lacks.
   */
  counters: ReadonlyArray<readonly [string, number | null]>;
  /** Absent: compact. */
  numbers?: NumberStyle;
  /** Seen within the last 24 hours (spec section 3). */
  active: boolean;
  /** Parts the owner chose not to show (hide=: version, status, icon); absent: none. */
  hidden?: ReadonlySet<BannerElement>;
}

/** A rating as the sites that rate projects give it: stars out of 5. */
export interface StarRating {
  /** 0-5. */
  average: number;
  /** How many voted; null when the site does not say. */
  votes: number | null;
}

/**
 * A project on a marketplace (Modrinth, SpigotMC, ...), or an author's
 * projects on one site totalled: what the resource template draws. A figure
 * the site does not publish is null; the template leaves out what it cannot say.
 */
export interface ResourceBannerData {
  /** One project, or an author's projects totalled. */
  of: "project" | "author";
  /** The site as it names itself ("Modrinth"). */
  site: string;
  /** The project's name, or the author's. */
  name: string;
  /** A project's author; null: unknown (an author's banner names none). */
  author: string | null;
  /** An author's banner: the projects totalled; null for a project. */
  projects: number | null;
  /** The project's or author's icon, decoded (any size is scaled); null: the default icon. */
  icon: Pixmap | null;
  downloads: number | null;
  rating: StarRating | null;
  /** Followers, likes or stars: what `followersWord` calls them. */
  followers: number | null;
  /** What the site calls its followers ("followers", "likes", "stars"); null: it has none. */
  followersWord: string | null;
  /** A project's latest version. */
  version: string | null;
  /** The game versions a project supports, as one short range ("1.20-1.21.4"). */
  gameVersions: string | null;
  /** Absent: compact. */
  numbers?: NumberStyle;
  /** Parts the owner chose not to show (hide=: icon, version); absent: none. */
  hidden?: ReadonlySet<BannerElement>;
}

/** What a template draws: a server, a plugin record, or a marketplace's project or author. */
export type BannerData = ServerBannerData | PluginBannerData | ResourceBannerData;

export interface BannerSize {
  width: number;
  height: number;
}

/** The four sizes of the spec (section 4.1). */
export const BANNER_SIZES = [
  { width: 468, height: 60 },
  { width: 728, height: 90 },
  { width: 300, height: 250 },
  { width: 1200, height: 300 },
] as const satisfies readonly BannerSize[];

export interface BannerOptions {
  size: BannerSize;
  theme: Theme;
  /** Device pixels per CSS pixel: 2 draws the same layout at twice the pixels (Hi-DPI). */
  scale: 1 | 2;
  /** Replaces the theme's accent (bars, charts, highlights). */
  accent?: Color;
  /** Replaces the theme's background: a colour (alpha allowed) or a preset (backgrounds.ts). */
  background?: Color | BackgroundPresetName;
}
