// The icons of marketplace projects and authors, fetched from the sites for
// the banners that draw them. Only from the site's own origins: its API's
// (PENNANT_*_URL, so a mirror serves its own) and, beside an API over HTTPS,
// the CDNs it serves icons from; nothing else (an icon URL is whatever the
// site's answer says). An API on this host over plain HTTP (a test's
// stand-in) gets icons from its own origin only: no test fetches from the internet. With the market fetchers' User-Agent and
// deadline, no redirect followed, a bounded body, a few fetches at once.
// Kept only when its first bytes declare a format we decode (PNG, WebP, GIF)
// at a size we accept: anything else (JPEG, SVG, an HTML error page, a huge
// canvas) is refused and the banner draws its default icon. Kept a day
// within the cache budget (market_icons), a refusal or failure 15 minutes,
// each URL fetched once however many banners ask meanwhile.

import { boundedBytes } from "../bounded-body.ts";
import type { BoundedCache } from "../cache/bounded-cache.ts";
import { readImageHeader } from "../render/basics.ts";
import { MARKET_SITES, type MarketSite } from "./market-project.ts";

/** An icon's bytes at most: Modrinth takes uploads up to 256 KiB; CurseForge's thumbnails are 256x256 PNGs of less. */
export const MAX_ICON_BYTES = 512 * 1024;
/** An icon's width and height at most: drawn at 256 device pixels at most (1200x300 at scale 2). */
export const MAX_ICON_SIDE = 1024;
const ICON_TTL_MS = 24 * 3_600_000;
const REFUSED_TTL_MS = 15 * 60_000;
/** Icons fetched at once, all sites together; one more is not fetched (drawn without its icon, not kept). */
const MAX_FETCHES = 4;

/** Where each site serves its icons from, besides its API (PENNANT_*_URL). */
export const ICON_ORIGINS: Readonly<Record<MarketSite, readonly string[]>> = {
  modrinth: ["https://cdn.modrinth.com"],
  spigot: ["https://www.spigotmc.org"],
  hangar: ["https://hangarcdn.papermc.io", "https://hangar.papermc.io"],
  curseforge: ["https://media.forgecdn.net"],
  polymart: ["https://polymart.org", "https://www.polymart.org"],
};

export interface ProjectIconOptions {
  /** Each site's API root (PENNANT_*_URL): its origin serves icons too. */
  apiUrls: Readonly<Record<MarketSite, string>>;
  userAgent: string;
  timeoutMs: number;
}

/** An icon kept: its bytes, or null for one refused or not fetched (the default icon is drawn). */
export type KeptIcon = Uint8Array | null;

export class ProjectIcons {
  private fetching = 0;
  private readonly origins: Record<MarketSite, ReadonlySet<string>>;

  /** `cache`: the budget's market_icons. */
  constructor(private readonly cache: BoundedCache<KeptIcon>, private readonly options: ProjectIconOptions) {
    const origins = {} as Record<MarketSite, ReadonlySet<string>>;
    for (const site of MARKET_SITES) {
      const api = new URL(options.apiUrls[site]);
      origins[site] = new Set([api.origin, ...(api.protocol === "https:" ? ICON_ORIGINS[site] : [])]);
    }
    this.origins = origins;
  }

  /** Whether `url` is one the site serves icons from: its API's origin, or (beside an HTTPS API) its CDN's. */
  allowed(site: MarketSite, url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return this.origins[site].has(parsed.origin) && parsed.username === "" && parsed.password === "";
  }

  /** The icon at `url` (PNG, WebP or GIF bytes, size-checked), or null: refused, not allowed, not fetched, or the site failed. */
  async icon(site: MarketSite, url: string | null): Promise<KeptIcon> {
    if (url === null || !this.allowed(site, url)) return null;
    const kept = this.cache.peek(url);
    if (kept !== undefined) return kept;
    // Too many in flight: drawn without it this once, nothing kept, the next banner asks again.
    if (this.fetching >= MAX_FETCHES && !this.cache.computing(url)) return null;
    return this.cache.getOrComputeAsync(url, () => this.fetchIcon(url), (icon) => (icon ? ICON_TTL_MS : REFUSED_TTL_MS));
  }

  /** The icon, or null when refused or the site failed. */
  private async fetchIcon(url: string): Promise<KeptIcon> {
    this.fetching++;
    try {
      const response = await fetch(url, {
        headers: { "User-Agent": this.options.userAgent, Accept: "image/png, image/webp, image/gif" },
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return null;
      }
      const bytes = await boundedBytes(response, MAX_ICON_BYTES);
      return bytes && acceptable(bytes) ? bytes : null;
    } catch {
      return null;
    } finally {
      this.fetching--;
    }
  }
}

/** Bytes that declare a format we decode, at a size we draw. */
export function acceptable(bytes: Uint8Array): boolean {
  const header = readImageHeader(bytes);
  return header !== null && header.width > 0 && header.height > 0 && header.width <= MAX_ICON_SIDE && header.height <= MAX_ICON_SIDE;
}
