// The plugin metrics of spec 4.6, every row, with the meta keys each reads.
// Where the spec leaves the key open (rating, ids, repository licence) the
// first spelling listed is the documented one; the others are variants
// plugins are known to send. docs/badges.md lists the same table.

import { isPluginActive, type PluginRow } from "../store/records.ts";
import { versionRange } from "../minecraft/version-range.ts";
import {
  compactNumber, downloadsColor, issuesColor, licenseBadge, ratingColor, ratingText, softwareList,
} from "./value-display.ts";
import type { Metric, MetricValue } from "./metric.ts";
import { asAmount, asCount, asListSize, asText, capMessage, firstOf, valueAt, versionValue } from "./record-values.ts";

type PluginMetric = Metric<PluginRow>;

/** Site colours of the spec's table. */
const SITE_COLORS = { alpha: "orange", beta: "green", gamma: "blue", code: "#24292f" } as const;

function textMetric(label: string, paths: readonly string[], color: string): PluginMetric {
  return {
    label,
    cache: "stable",
    read: ({ meta }) => {
      const text = firstOf(meta, paths, asText);
      return text === undefined ? undefined : { message: capMessage(text), color };
    },
  };
}

function countMetric(label: string, paths: readonly string[], color: string): PluginMetric {
  return {
    label,
    cache: "count",
    read: ({ meta }) => {
      const count = firstOf(meta, paths, asCount);
      return count === undefined ? undefined : { message: compactNumber(count), color };
    },
  };
}

function versionMetric(label: string, paths: readonly string[]): PluginMetric {
  return { label, cache: "version", read: ({ meta }) => versionValue(firstOf(meta, paths, asText)) };
}

/** Downloads of every listing site the plugin reports, summed; undefined when none does. */
function totalDownloads(meta: unknown): number | undefined {
  const counts = ["alpha", "beta", "gamma"].map((site) => asCount(valueAt(meta, `${site}.downloads`)));
  const known = counts.filter((count): count is number => count !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, count) => sum + count, 0);
}

/** Ratings as sent: a number of stars out of 5, or {average, count} (also {rating|value, votes}). */
function ratingOf(meta: unknown): MetricValue | undefined {
  for (const path of ["alpha.rating", "rating", "beta.rating", "gamma.rating"]) {
    const value = valueAt(meta, path);
    const stars = asAmount(value) ?? firstOf(value, ["average", "rating", "value"], asAmount);
    if (stars === undefined || stars > 5) continue;
    const votes = firstOf(value, ["count", "votes"], asCount) ?? asCount(valueAt(meta, `${path}_count`));
    return { message: ratingText(stars, 5, votes), color: ratingColor(stars) };
  }
  return undefined;
}

/** The licence from the gamma listing first, then from the repository (a name, or an object with spdx_id/key/name). */
function licenseOf(meta: unknown): MetricValue | undefined {
  for (const path of ["gamma.license", "code.license", "license"]) {
    const value = valueAt(meta, path);
    const text = asText(value) ?? firstOf(value, ["spdx_id", "key", "name"], asText);
    const badge = text === undefined ? null : licenseBadge(text);
    if (badge) return { message: badge.name, color: badge.color };
  }
  return undefined;
}

export const PLUGIN_METRICS: ReadonlyMap<string, PluginMetric> = new Map(Object.entries<PluginMetric>({
  version: { label: "version", cache: "version", read: (plugin) => versionValue(plugin.version ?? undefined) },
  downloads: {
    label: "downloads",
    cache: "count",
    read: ({ meta }) => {
      const total = totalDownloads(meta);
      return total === undefined ? undefined : { message: compactNumber(total), color: downloadsColor(total) };
    },
  },
  rating: { label: "rating", cache: "count", read: ({ meta }) => ratingOf(meta) },
  status: {
    label: "status",
    cache: "live",
    read: (row, now) => (isPluginActive(row, now) ? { message: "active", color: "brightgreen" } : { message: "inactive", color: "lightgrey" }),
  },
  "minecraft-versions": {
    label: "minecraft",
    cache: "version",
    read: ({ minecraftVersions }) => {
      const range = versionRange(minecraftVersions);
      return range === null ? undefined : { message: capMessage(range), color: "blue" };
    },
  },
  "server-software": {
    label: "software",
    cache: "version",
    read: ({ serverSoftware }) => {
      const list = softwareList(serverSoftware);
      return list === null ? undefined : { message: capMessage(list), color: "blue" };
    },
  },
  alpha: textMetric("alpha", ["alpha.id", "alpha.resource_id", "alpha.resourceId"], SITE_COLORS.alpha),
  beta: textMetric("beta", ["beta.id", "beta.project_id", "beta.projectId", "beta.slug"], SITE_COLORS.beta),
  gamma: textMetric("gamma", ["gamma.slug", "gamma.project_slug", "gamma.projectSlug", "gamma.id"], SITE_COLORS.gamma),
  code: textMetric("code", ["code.repository", "code.repo", "code.full_name", "code.name"], SITE_COLORS.code),
  "alpha-downloads": countMetric("alpha dl", ["alpha.downloads"], SITE_COLORS.alpha),
  "beta-downloads": countMetric("beta dl", ["beta.downloads"], SITE_COLORS.beta),
  "beta-followers": countMetric("followers", ["beta.followers"], SITE_COLORS.beta),
  "gamma-downloads": countMetric("gamma dl", ["gamma.downloads"], SITE_COLORS.gamma),
  "gamma-stars": countMetric("stars", ["gamma.stars"], SITE_COLORS.gamma),
  "gamma-watchers": countMetric("watchers", ["gamma.watchers"], SITE_COLORS.gamma),
  "alpha-version": versionMetric("alpha", ["alpha.latest_version"]),
  "beta-version": versionMetric("beta", ["beta.latest_version"]),
  "gamma-version": versionMetric("gamma", ["gamma.latest_version"]),
  "code-release": versionMetric("release", ["code.latest_release"]),
  "code-stars": countMetric("stars", ["code.stars"], "blue"),
  "code-forks": countMetric("forks", ["code.forks"], "blue"),
  "code-watchers": countMetric("watchers", ["code.watchers"], "blue"),
  "code-issues": {
    label: "issues",
    cache: "count",
    read: ({ meta }) => {
      const open = firstOf(meta, ["code.open_issues", "code.open_issues_count"], asListSize);
      return open === undefined ? undefined : { message: `${compactNumber(open)} open`, color: issuesColor(open) };
    },
  },
  license: { label: "license", cache: "stable", read: ({ meta }) => licenseOf(meta) },
}));
