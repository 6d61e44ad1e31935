// The metrics of a marketplace project's badge, per site: each site lists
// only what it publishes (Modrinth rates nothing, CurseForge's followers are
// not public, Polymart lists no game versions), so a metric a site does not
// have is an unknown metric there (404), never a badge saying N/A for ever.
// docs/markets.md lists the same table.

import { MARKET_SITE_INFO, MARKET_SITES, type MarketProject, type MarketSite } from "../market/market-project.ts";
import type { Metric } from "./metric.ts";
import { capMessage, versionValue } from "./record-values.ts";
import { ageColor, ageText, compactNumber, downloadsColor, ratingColor, ratingText } from "./value-display.ts";

type MarketMetric = Metric<MarketProject>;

const downloads: MarketMetric = {
  label: "downloads",
  cache: "count",
  read: ({ downloads }) => (downloads === null ? undefined : { message: compactNumber(downloads), color: downloadsColor(downloads) }),
};

const version: MarketMetric = { label: "version", cache: "version", read: ({ latestVersion }) => versionValue(latestVersion ?? undefined) };

const rating: MarketMetric = {
  label: "rating",
  cache: "count",
  read: ({ rating }) => (rating === null ? undefined : { message: ratingText(rating.average, 5, rating.votes ?? undefined), color: ratingColor(rating.average) }),
};

const followers = (label: string): MarketMetric => ({
  label,
  cache: "count",
  read: ({ followers }) => (followers === null ? undefined : { message: compactNumber(followers), color: "blue" }),
});

const gameVersions: MarketMetric = {
  label: "minecraft",
  cache: "version",
  read: ({ gameVersions }) => (gameVersions === null ? undefined : { message: capMessage(gameVersions), color: "blue" }),
};

const updated: MarketMetric = {
  label: "updated",
  cache: "count",
  read: ({ updatedAt }, now) => {
    if (updatedAt === null) return undefined;
    const elapsed = Math.max(0, now - updatedAt);
    return { message: ageText(elapsed), color: ageColor(elapsed) };
  },
};

function siteMetrics(site: MarketSite): ReadonlyMap<string, MarketMetric> {
  const has = MARKET_SITE_INFO[site];
  const metrics = new Map<string, MarketMetric>([["downloads", downloads], ["version", version]]);
  if (has.rating) metrics.set("rating", rating);
  if (has.followers !== null) metrics.set("followers", followers(has.followers));
  if (has.gameVersions) metrics.set("game-versions", gameVersions);
  return metrics.set("updated", updated);
}

export const MARKET_METRICS: Readonly<Record<MarketSite, ReadonlyMap<string, MarketMetric>>> = Object.fromEntries(
  MARKET_SITES.map((site) => [site, siteMetrics(site)]),
) as Record<MarketSite, ReadonlyMap<string, MarketMetric>>;
