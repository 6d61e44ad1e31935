// From a request's subject, metric and options to what the badge shows and
// how long it may be cached: the record is read, the metric's value (or its
// fallback) is taken, the options are laid over it. Unknown plugins, servers
// and metrics become "not found" badges, a malformed UUID an "invalid uuid" one.
// A marketplace project the site could not be asked about (down, or
// PENNANT_MARKETS=off) with nothing kept is an "unavailable" badge, status 200:
// a README's image must not break because a site did.

import { MARKET_SITE_INFO, type MarketService, type MarketSite } from "../market/market-project.ts";
import { networkTotals } from "../minecraft/network-totals.ts";
import type { ReadCharge, ServerHistories } from "../store/history-ranges.ts";
import type { Store } from "../store/store.ts";
import { badgeColor } from "./colors.ts";
import type { BadgeContent } from "./badge-layout.ts";
import { MARKET_METRICS } from "./market-metrics.ts";
import { CACHE_SECONDS, FALLBACK, type Metric } from "./metric.ts";
import { NETWORK_METRICS } from "./network-metrics.ts";
import { BADGE_HISTORY_RANGE, type BadgeOptions } from "./options.ts";
import { PLUGIN_METRICS } from "./plugin-metrics.ts";
import { SERVER_METRICS, type ServerView } from "./server-metrics.ts";

export interface BadgeAnswer {
  status: 200 | 400 | 404;
  content: BadgeContent;
  /** Seconds it may be cached. */
  maxAge: number;
  /** Why there is no badge, for JSON clients (400 and 404 only). */
  error?: { code: string; message: string };
}

/** "Not found" answers change when the record appears: cached as briefly as live values (refusals alike). */
const REFUSAL_SECONDS = CACHE_SECONDS.live;

/** A badge saying why there is none: the style and scale asked for, but not the label or colours (so there are few of them). */
function refusal(status: 400 | 404, label: string, shown: string, error: { code: string; message: string }, options: BadgeOptions): BadgeAnswer {
  return { status, content: { label, message: shown, color: badgeColor("red"), style: options.style }, maxAge: REFUSAL_SECONDS, error };
}

function notFound(label: string, code: string, message: string, options: BadgeOptions): BadgeAnswer {
  return refusal(404, label, "not found", { code, message }, options);
}

/** The path's UUID is none (`problem` says why): 400, whatever the metric, and a "plugin | invalid uuid" badge. */
export function malformedUuid(subject: "plugin" | "server", problem: string, options: BadgeOptions): BadgeAnswer {
  return refusal(400, subject, "invalid uuid", { code: `invalid_${subject}_uuid`, message: problem }, options);
}

/** The path's slug is none (`problem` says why): 400, whatever the metric, and a "network | invalid slug" badge. */
export function malformedSlug(problem: string, options: BadgeOptions): BadgeAnswer {
  return refusal(400, "network", "invalid slug", { code: "invalid_slug", message: problem }, options);
}

function answer<R>(metric: Metric<R>, record: R, options: BadgeOptions, now: number): BadgeAnswer {
  const value = metric.read(record, now) ?? FALLBACK;
  return {
    status: 200,
    content: {
      label: options.label ?? metric.label,
      message: value.message,
      color: options.color ?? badgeColor(value.color),
      labelColor: options.labelColor,
      style: options.style,
    },
    maxAge: Math.max(CACHE_SECONDS[metric.cache], options.cacheSeconds ?? 0),
  };
}

const unknownMetric = (names: ReadonlyMap<string, unknown>, options: BadgeOptions) =>
  notFound("metric", "unknown_metric", `no such metric; known: ${[...names.keys()].join(", ")}`, options);

/** A plugin badge; `uuid` is the canonical UUID from the path. */
export async function pluginBadge(store: Store, uuid: string, metricName: string, options: BadgeOptions, now: number): Promise<BadgeAnswer> {
  const metric = PLUGIN_METRICS.get(metricName);
  if (!metric) return unknownMetric(PLUGIN_METRICS, options);
  const plugin = await store.plugins.get(uuid);
  if (!plugin) return notFound("plugin", "unknown_plugin", "no plugin with this UUID has pushed data", options);
  return answer(metric, plugin, options, now);
}

export async function serverBadge(
  store: Store, histories: ServerHistories, charge: ReadCharge, uuid: string, metricName: string, options: BadgeOptions, now: number, staleAfterMs: number,
): Promise<BadgeAnswer> {
  const metric = SERVER_METRICS.get(metricName);
  if (!metric) return unknownMetric(SERVER_METRICS, options);
  const row = await store.servers.get(uuid);
  if (!row) return notFound("server", "unknown_server", "no server with this UUID has pushed data", options);
  const history = metric.readsHistory ? await histories.read(row, options.range ?? BADGE_HISTORY_RANGE, now, charge) : undefined;
  const view: ServerView = { row, staleAfterMs, history };
  return answer(metric, view, options, now);
}

/** A network badge; `slug` is the canonical slug from the path. */
export async function networkBadge(
  store: Store, slug: string, metricName: string, options: BadgeOptions, now: number, staleAfterMs: number,
): Promise<BadgeAnswer> {
  const metric = NETWORK_METRICS.get(metricName);
  if (!metric) return unknownMetric(NETWORK_METRICS, options);
  const network = await store.networks.get(slug);
  if (!network) return notFound("network", "unknown_network", "no network has this slug", options);
  return answer(metric, networkTotals(network.servers, now, staleAfterMs), options, now);
}

/**
 * A marketplace project's badge; `project` as the path gives it (Hangar's
 * "owner/slug"). A stale value (the site failed since it was fetched) is
 * cached as briefly as a refusal, so the fresh one shows soon after the site
 * is back.
 */
export async function marketBadge(
  markets: MarketService, site: MarketSite, project: string, metricName: string, options: BadgeOptions, now: number,
): Promise<BadgeAnswer> {
  const metric = MARKET_METRICS[site].get(metricName);
  if (!metric) return unknownMetric(MARKET_METRICS[site], options);
  const fetched = await markets.project(site, project);
  switch (fetched.status) {
    case "invalid":
      return refusal(400, site, "invalid project", { code: "invalid_project", message: fetched.message }, options);
    case "not_found":
      return notFound(site, "unknown_project", `${MARKET_SITE_INFO[site].title} has no such project`, options);
    case "unavailable":
      return {
        status: 200,
        content: { label: options.label ?? metric.label, message: "unavailable", color: badgeColor("lightgrey"), labelColor: options.labelColor, style: options.style },
        maxAge: REFUSAL_SECONDS,
      };
    case "found": {
      const shown = answer(metric, fetched.value, options, now);
      return fetched.stale ? { ...shown, maxAge: REFUSAL_SECONDS } : shown;
    }
  }
}

/** The shields.io endpoint-badge form of an answer (https://shields.io/badges/endpoint-badge). */
export function endpointJson(answer: BadgeAnswer, options: BadgeOptions): Record<string, string | number> {
  const { content } = answer;
  return {
    schemaVersion: 1,
    label: content.label,
    message: content.message,
    color: content.color.css,
    ...(content.labelColor ? { labelColor: content.labelColor.css } : {}),
    ...(options.styleAsked ? { style: content.style } : {}),
  };
}
