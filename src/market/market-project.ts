// What Pennant knows of a project on a marketplace (Modrinth, Spigot through
// Spiget, Hangar, CurseForge through CFWidget, Polymart) and of an author's
// projects on one site: the one model the fetchers fill, badges read and
// banners draw. A site that does not publish a figure leaves it null; nothing
// here is guessed from another figure.

export const MARKET_SITES = ["modrinth", "spigot", "hangar", "curseforge", "polymart"] as const;
export type MarketSite = (typeof MARKET_SITES)[number];

export function isMarketSite(text: string): text is MarketSite {
  return (MARKET_SITES as readonly string[]).includes(text);
}

/**
 * How each site is named, and what it publishes beyond downloads, versions
 * and last update: what its followers are called (null: none public),
 * whether it rates projects, whether it lists the game versions supported.
 */
export const MARKET_SITE_INFO: Record<MarketSite, { title: string; followers: string | null; rating: boolean; gameVersions: boolean }> = {
  modrinth: { title: "Modrinth", followers: "followers", rating: false, gameVersions: true },
  spigot: { title: "SpigotMC", followers: "likes", rating: true, gameVersions: true },
  hangar: { title: "Hangar", followers: "stars", rating: false, gameVersions: true },
  curseforge: { title: "CurseForge", followers: null, rating: false, gameVersions: true },
  polymart: { title: "Polymart", followers: null, rating: true, gameVersions: false },
};

/** Stars out of 5, as the sites that rate projects give them. */
export interface MarketRating {
  /** 0-5. */
  average: number;
  /** How many voted; null when the site does not say. */
  votes: number | null;
}

export interface MarketProject {
  site: MarketSite;
  /** The site's own id (Modrinth's base62 id, Spigot's and CurseForge's number, Hangar's owner/slug). */
  id: string;
  /** The name in the project's address, where the site has one besides the id. */
  slug: string | null;
  name: string;
  author: string | null;
  /** The project's icon on the site (HTTPS), fetched only by what draws it. */
  iconUrl: string | null;
  downloads: number | null;
  rating: MarketRating | null;
  /** Followers, likes or stars, as MARKET_SITE_INFO names them. */
  followers: number | null;
  latestVersion: string | null;
  /** The game versions supported, as one range ("1.20-1.21.4", releaseSpan). */
  gameVersions: string | null;
  /** When the project last changed (ms since the epoch). */
  updatedAt: number | null;
}

/** An author's projects on one site, totalled. */
export interface MarketAuthor {
  site: MarketSite;
  id: string;
  name: string;
  iconUrl: string | null;
  /** Projects counted (the sites' public listings; bounded, see docs/markets.md). */
  projects: number;
  downloads: number | null;
  followers: number | null;
  /** Votes-weighted over the rated projects; null when none is. */
  rating: MarketRating | null;
}

/**
 * What the service answers. `found` carries when the value was fetched and
 * whether it is stale (the site failed since; the last value is served up
 * to a day). `invalid`: the reference is no project of that site's form.
 * `unavailable`: nothing cached and the site not reached (`down`), or
 * PENNANT_MARKETS=off (`off`).
 */
export type MarketAnswer<T> =
  | { status: "found"; value: T; fetchedAt: number; stale: boolean }
  | { status: "not_found" }
  | { status: "invalid"; message: string }
  | { status: "unavailable"; reason: "down" | "off" };

/** Projects and authors of the marketplaces, fetched, cached and coalesced. */
export interface MarketService {
  /** `project`: the site's id or slug; Hangar's as "owner/slug". */
  project(site: MarketSite, project: string): Promise<MarketAnswer<MarketProject>>;
  /** `author`: the site's user id or name (docs/markets.md says which each takes). */
  author(site: MarketSite, author: string): Promise<MarketAnswer<MarketAuthor>>;
}
