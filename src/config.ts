// Runtime configuration, read once from the environment. Every variable is
// validated here so that a typo stops the server at start-up with a message
// naming the variable, instead of surfacing later as odd behaviour.

import { availableParallelism } from "node:os";
import { LOG_LEVELS, type LogLevel } from "./log.ts";

export type Registration = "closed" | "open";

export interface RateLimitSetting {
  count: number;
  windowSeconds: number;
}

export interface Config {
  port: number;
  host: string;
  dbPath: string;
  /** A postgres:// URL: the store is then this PostgreSQL database, and dbPath is not used. */
  databaseUrl: string | null;
  /** Allowed difference between X-Timestamp and our clock, in seconds. */
  clockSkewSeconds: number;
  /** Accept the signature variant of deployed plugin builds (docs/signed-api.md, Legacy plugin signatures). */
  legacySignatures: boolean;
  registration: Registration;
  /** Per client IP, shared by the banner and lookup endpoints. */
  rateLimit: RateLimitSetting;
  /** Per client IP, cost units of new images drawn (banners and badges; src/http/drawing/draw-cost.ts). */
  drawBudget: RateLimitSetting;
  /** The draw queue's bounds: draws one client may have waiting, units all waiting draws may add up to. */
  drawQueue: { perClient: number; maxUnits: number };
  /** Per client IP, signed requests (their own budget). */
  pushRateLimit: RateLimitSetting;
  /** Per client IP, tokens created by open registration. */
  registrationLimit: RateLimitSetting;
  /** Tokens open registration may have made in all (revoked ones included, expired ones not). */
  registrationMax: number;
  /** Bytes of stored JSON (plugin meta and stats, server extra stats) one token's records may hold together. */
  maxBytesPerToken: number;
  /** Servers, and plugins, one token may own. */
  maxServersPerToken: number;
  maxPluginsPerToken: number;
  /** Take the client IP from X-Forwarded-For. */
  trustProxy: boolean;
  /** Allow live lookups of private, loopback and other non-public addresses. */
  lookupPrivate: boolean;
  /** PENNANT_WEBHOOK_PRIVATE: webhooks may be plain http and reach private, loopback and other non-public addresses. */
  webhookPrivate: boolean;
  /** A server record not refreshed by a push for this long reads as offline. */
  staleAfterSeconds: number;
  logLevel: LogLevel;
  /** Put the client address in log lines. */
  logClientIp: boolean;
  /** Bearer token that lets other hosts read /metrics; without one only loopback clients may. */
  metricsToken: string | null;
  /**
   * PENNANT_ADMIN_TOKEN: the key of the console's Admin tab (http/admin-routes.ts),
   * which lists, creates and revokes API tokens; null: those endpoints do not exist.
   */
  adminToken: string | null;
  /** How long a stopping server waits for requests in flight before it cuts them off. */
  shutdownTimeoutSeconds: number;
  /** PENNANT_CACHE_MB split over the caches by CACHE_SHARES: the bytes each may hold. */
  cacheBytes: CacheBytes;
  /** Worker threads that draw and encode images; 0: the thread that answers requests draws. */
  renderThreads: number;
  /** Count every rate limit and budget in this Redis (shared by every instance using it); null: in this process. */
  redisUrl: string | null;
  /**
   * The address people reach Pennant at ("https://status.example.net", no
   * trailing slash): pages name their link preview's image and their
   * snippets' URLs under it. Null: root-relative. Never taken from a
   * request's Host header, which any client sets.
   */
  publicUrl: string | null;
  /**
   * The marketplaces' APIs (docs/markets.md): PENNANT_MARKETS=off fetches
   * nothing; each site's API root from PENNANT_*_URL (a mirror, or a test's
   * stand-in), HTTPS unless on this host.
   */
  markets: { enabled: boolean; urls: MarketUrls };
}

/** Each marketplace's API root, without a trailing slash. */
export interface MarketUrls {
  modrinth: string;
  spigot: string;
  hangar: string;
  curseforge: string;
  polymart: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `expected a number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new ConfigError(name, `expected on/off (or true/false, 1/0), got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const found = choices.find((choice) => choice === raw.toLowerCase());
  if (!found) throw new ConfigError(name, `expected one of ${choices.join(", ")}, got "${raw}"`);
  return found;
}

/** Printable ASCII without spaces, long enough not to be guessed. */
function secret(env: Env, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) {
    throw new ConfigError(name, "expected 16 to 256 printable characters without spaces");
  }
  return raw;
}

export function parseRateLimit(name: string, raw: string): RateLimitSetting {
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  if (!match) throw new ConfigError(name, `expected COUNT/SECONDS such as 120/60, got "${raw}"`);
  const count = Number(match[1]);
  const windowSeconds = Number(match[2]);
  if (count < 1 || count > 1_000_000) throw new ConfigError(name, "COUNT must be from 1 to 1000000");
  if (windowSeconds < 1 || windowSeconds > 86_400) {
    throw new ConfigError(name, "SECONDS must be from 1 to 86400");
  }
  return { count, windowSeconds };
}

/**
 * A PostgreSQL URL. The value is never repeated in the error: it holds the
 * database's password.
 */
function postgresUrl(env: Env, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!parsed || !["postgres:", "postgresql:"].includes(parsed.protocol) || !parsed.hostname) {
    throw new ConfigError(name, "expected a PostgreSQL URL, postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://)");
  }
  return raw;
}

/** Loopback hosts: the only ones an API may be reached at over plain HTTP (a test's stand-in, a local mirror). */
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** A marketplace API's root: https (http only on this host), no query, fragment or credentials, without its trailing slash. */
function apiRoot(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  const secure = parsed?.protocol === "https:" || (parsed?.protocol === "http:" && LOOPBACK_HOST.test(parsed.hostname));
  if (!parsed || !secure || parsed.search || parsed.hash || parsed.username || parsed.password || /[?#]/.test(raw)) {
    throw new ConfigError(name, `expected the API's https address, such as ${fallback} (http only on localhost), got "${raw}"`);
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
}

/** A redis:// (or rediss://, TLS) URL, as Bun's RedisClient takes it. */
function redisUrl(env: Env, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  if (!/^rediss?:\/\/[^/?#\s]+/.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError(name, "expected a URL such as redis://host:6379 (or rediss:// for TLS)");
  }
  return raw;
}

/** An http(s) URL with no query, fragment or credentials, without its trailing slash. */
function publicUrl(env: Env, name: string): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!parsed || !["http:", "https:"].includes(parsed.protocol) || parsed.search || parsed.hash || parsed.username || parsed.password || /[?#]/.test(raw)) {
    throw new ConfigError(name, `expected the address Pennant is reached at, such as https://status.example.net (no query or fragment), got "${raw}"`);
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
}

function rateLimit(env: Env, name: string, fallback: RateLimitSetting): RateLimitSetting {
  const raw = read(env, name);
  return raw === undefined ? fallback : parseRateLimit(name, raw);
}

/**
 * The largest draw's cost: a 1200x300 WebP at scale 2 (src/http/drawing/draw-cost.ts;
 * its test holds the two equal). A draw budget below it could never pay for that banner.
 */
export const LARGEST_DRAW_UNITS = 206;

function drawBudget(env: Env, name: string, fallback: RateLimitSetting): RateLimitSetting {
  const budget = rateLimit(env, name, fallback);
  if (budget.count < LARGEST_DRAW_UNITS) {
    throw new ConfigError(name, `COUNT must be at least ${LARGEST_DRAW_UNITS} (the largest banner's cost in units), got ${budget.count}`);
  }
  return budget;
}

// The memory section. Every cache Pennant keeps is bounded in bytes by its
// share of one budget, PENNANT_CACHE_MB; each cache's name is the one /metrics
// shows. The shares are the bytes each holds at the default budget, which is
// their sum: the bounds each cache had before they shared one budget (the
// split is listed in docs/memory.md). CacheBudget
// (src/cache/budget.ts) makes the caches from it.
const MIB = 1024 * 1024;
export const CACHE_SHARES = {
  /** Encoded banners (src/http/image-cache.ts): ~20,000 typical 468x60 PNGs. */
  banner_images: 64 * MIB,
  /** Ready answers of the most requested banners and badges, cloned per request (src/http/image-pipeline.ts). */
  ready_answers: 16 * MIB,
  /** Image requests planned before, by path and query, with what they resolved to (src/http/image-pipeline.ts). */
  known_requests: 8 * MIB,
  /** Encoded badges (src/http/image-cache.ts): ~3,000 flat badges. */
  badge_images: 8 * MIB,
  /** Live lookup results: ~11,000 typical ones, at least ~450 of the largest. */
  lookup_results: 24 * MIB,
  /** Servers' histories (src/store/history-ranges.ts): 100 servers' closed steps of every range and their yearly answers. */
  server_histories: 8 * MIB,
  /** Server icons: 1,500-8,000 real ones, 250 of the largest. */
  lookup_favicons: 16 * MIB,
  /** Marketplace projects' icons (src/market/project-icon.ts): ~400 of Modrinth's 96x96 WebPs at 20 KiB, 16 of the largest (512 KiB). */
  market_icons: 8 * MIB,
  /** Pixmaps given back after encoding, for the next drawing of their size. */
  spare_pixmaps: 8 * MIB,
  /** Coverage masks of glyphs: drawing text is mostly copying these. */
  glyph_masks: 8 * MIB,
  /** Badge text shadows: glyphs blurred and laid under their sharp copy. */
  badge_shadow_glyphs: 4 * MIB,
  /** Text runs shaped by fontkit or the ASCII tables. */
  shaped_runs: 4 * MIB,
  /** Banner backgrounds as drawn on a blank surface, copied instead of drawn. */
  banner_panels: 4 * MIB,
  /** Badge segment gradients: a colour under its style's overlay, per row count. */
  segment_stops: 1.5 * MIB,
  /** The finished pixels of badge labels, copied into the next badge with the same label. */
  label_pixels: 1 * MIB,
  /** Per-colour tables that blend a glyph's coverage in one step. */
  tint_tables: 0.25 * MIB,
  /** The small block textures some banner themes scale over their panel. */
  banner_textures: 0.25 * MIB,
  /** Marketplace projects' and authors' answers, and their last values for a day (src/market/market-service.ts): ~800 projects. */
  market_answers: 2 * MIB,
};
export type CacheName = keyof typeof CACHE_SHARES;
/**
 * The caches drawing keeps. With render threads, each thread keeps its own
 * (a thread cannot read another's memory), from an equal part of each share.
 */
export const DRAWING_CACHES = [
  "spare_pixmaps", "glyph_masks", "badge_shadow_glyphs", "shaped_runs", "banner_panels", "segment_stops", "label_pixels",
  "tint_tables", "banner_textures",
] as const satisfies readonly CacheName[];
export type CacheBytes = Readonly<Record<CacheName, number>>;
/** The sum of the shares: 185 MiB. */
export const DEFAULT_CACHE_MB = Object.values(CACHE_SHARES).reduce((sum, bytes) => sum + bytes, 0) / MIB;

/** One render thread's part of the drawing caches' shares (the other caches: none) when `threads` draw. */
export function drawingCacheBytes(bytes: CacheBytes, threads: number): CacheBytes {
  const drawing: ReadonlySet<CacheName> = new Set(DRAWING_CACHES);
  const parts = Math.max(1, threads);
  return Object.fromEntries(Object.entries(bytes).map(([name, share]) => [name, drawing.has(name as CacheName) ? Math.floor(share / parts) : 0])) as Record<CacheName, number>;
}

/** A total of `totalMb` MiB split by CACHE_SHARES, in whole bytes. */
export function splitCacheBudget(totalMb: number): CacheBytes {
  const scale = totalMb / DEFAULT_CACHE_MB;
  return Object.fromEntries(Object.entries(CACHE_SHARES).map(([name, bytes]) => [name, Math.floor(bytes * scale)])) as Record<CacheName, number>;
}

export function loadConfig(env: Env = process.env): Config {
  const host = read(env, "HOST") ?? "0.0.0.0";
  return {
    port: integer(env, "PORT", 8080, 0, 65_535),
    host,
    dbPath: read(env, "PENNANT_DB") ?? "./data/pennant.db",
    databaseUrl: postgresUrl(env, "PENNANT_DATABASE_URL"),
    clockSkewSeconds: integer(env, "PENNANT_CLOCK_SKEW", 300, 1, 86_400),
    legacySignatures: flag(env, "PENNANT_LEGACY_SIGNATURES", true),
    registration: oneOf(env, "PENNANT_REGISTRATION", ["closed", "open"] as const, "closed"),
    rateLimit: rateLimit(env, "PENNANT_RATE_LIMIT", { count: 120, windowSeconds: 60 }),
    // 29 of the largest banners a minute (206 units each), every size, scale
    // and format 12 times (477 units); a client of 468x60 PNGs stops at its
    // 120 requests first (docs/draw-cost.md).
    drawBudget: drawBudget(env, "PENNANT_DRAW_BUDGET", { count: 6000, windowSeconds: 60 }),
    drawQueue: {
      // A browser loads at most 6 images at once from one host over HTTP/1.1; a
      // README's dozen new badges fetched at once through one image proxy
      // (GitHub's camo) all wait too.
      perClient: integer(env, "PENNANT_DRAW_QUEUE_PER_CLIENT", 16, 1, 1_000),
      // About 1.3 s of drawing on one thread (0.3 ms a unit, bench/draw-cost.ts).
      maxUnits: integer(env, "PENNANT_DRAW_QUEUE_UNITS", 4096, 1, 1_000_000),
    },
    // A network behind one NAT: 100 servers pushing every 5 s (the plugin's
    // shortest interval; it syncs every 300 s by default) still fit.
    pushRateLimit: rateLimit(env, "PENNANT_PUSH_RATE_LIMIT", { count: 1200, windowSeconds: 60 }),
    registrationLimit: rateLimit(env, "PENNANT_REGISTRATION_LIMIT", { count: 10, windowSeconds: 3600 }),
    // With the per-token bound below, what open registration can store in all:
    // 100 tokens x 1 MiB (docs/signed-api.md).
    registrationMax: integer(env, "PENNANT_REGISTRATION_MAX", 100, 1, 1_000_000),
    // 50 plugins with 20 KiB of meta each; the deployed plugin's push sends a handful of short meta fields
    // (server_uuid, server_name, ...: test/support/ezbanners-client.ts holds its exact bytes).
    maxBytesPerToken: integer(env, "PENNANT_MAX_BYTES_PER_TOKEN", 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    maxServersPerToken: integer(env, "PENNANT_MAX_SERVERS_PER_TOKEN", 100, 1, 1_000_000),
    maxPluginsPerToken: integer(env, "PENNANT_MAX_PLUGINS_PER_TOKEN", 50, 1, 1_000_000),
    trustProxy: flag(env, "PENNANT_TRUST_PROXY", false),
    lookupPrivate: flag(env, "PENNANT_LOOKUP_PRIVATE", false),
    webhookPrivate: flag(env, "PENNANT_WEBHOOK_PRIVATE", false),
    // Three of the deployed plugin's 300 s sync intervals: one lost push is
    // not an outage, a crashed server (which never pushes "offline") is.
    staleAfterSeconds: integer(env, "PENNANT_STALE_AFTER", 900, 30, 30 * 86_400),
    logLevel: oneOf(env, "PENNANT_LOG_LEVEL", LOG_LEVELS, "info"),
    logClientIp: flag(env, "PENNANT_LOG_CLIENT_IP", true),
    metricsToken: secret(env, "PENNANT_METRICS_TOKEN"),
    adminToken: secret(env, "PENNANT_ADMIN_TOKEN"),
    // Below systemd's default stop timeout (90 s), far above any real request.
    shutdownTimeoutSeconds: integer(env, "PENNANT_SHUTDOWN_TIMEOUT", 10, 1, 600),
    // 8 MiB still leaves every cache room for its largest entries (a favicon: 64 KiB).
    cacheBytes: splitCacheBudget(integer(env, "PENNANT_CACHE_MB", DEFAULT_CACHE_MB, 8, 1_048_576)),
    // One per core: the thread that answers requests only parses, reads caches and writes.
    renderThreads: integer(env, "PENNANT_RENDER_THREADS", availableParallelism(), 0, 64),
    redisUrl: redisUrl(env, "PENNANT_REDIS_URL"),
    publicUrl: publicUrl(env, "PENNANT_PUBLIC_URL"),
    markets: {
      enabled: flag(env, "PENNANT_MARKETS", true),
      urls: {
        modrinth: apiRoot(env, "PENNANT_MODRINTH_URL", "https://api.modrinth.com/v2"),
        spigot: apiRoot(env, "PENNANT_SPIGET_URL", "https://api.spiget.org/v2"),
        hangar: apiRoot(env, "PENNANT_HANGAR_URL", "https://hangar.papermc.io/api/v1"),
        curseforge: apiRoot(env, "PENNANT_CFWIDGET_URL", "https://api.cfwidget.com"),
        polymart: apiRoot(env, "PENNANT_POLYMART_URL", "https://api.polymart.org/v1"),
      },
    },
  };
}

/** PENNANT_DEBUG=1 adds the stack trace to an unexpected error; read apart from loadConfig, which may be what failed. */
export function debugging(env: Env = process.env): boolean {
  return TRUE_WORDS.has(read(env, "PENNANT_DEBUG")?.toLowerCase() ?? "");
}

/**
 * Every variable Pennant reads, recorded while loadConfig and debugging read an
 * empty environment (each reads all of its variables whatever their values): a
 * name is written once, where it is read, and this list cannot miss it.
 */
export function knownVariables(): string[] {
  const names = new Set<string>();
  const recorder = new Proxy({} as Env, {
    get(_, name) {
      if (typeof name === "string") names.add(name);
      return undefined;
    },
  });
  loadConfig(recorder);
  debugging(recorder);
  return [...names];
}
