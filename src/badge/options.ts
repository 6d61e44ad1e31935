// The query parameters of a badge, as shields.io reads them plus `scale`.
// A value that is not valid is ignored (the default applies): a badge in a
// README must never turn into an error because of a typo.

import { parseBadgeColor, type BadgeColor } from "./colors.ts";
import { isHistoryRange, type HistoryRange } from "../store/history-ranges.ts";
import { isStyleName, type StyleName } from "./styles.ts";

export interface BadgeOptions {
  /** Replaces the metric's label ("" for none). */
  label?: string;
  color?: BadgeColor;
  labelColor?: BadgeColor;
  style: StyleName;
  /** Whether `style` was asked for (endpoint JSON then names it). */
  styleAsked: boolean;
  /** Image pixels per badge pixel: 2 is Hi-DPI. */
  scale: 1 | 2;
  /** Seconds the answer may be cached, when longer than the metric's own. */
  cacheSeconds?: number;
  /** The history range of the uptime and peak badges (BADGE_HISTORY_RANGE when not given). */
  range?: HistoryRange;
}

/** The range of an uptime or peak badge without ?range=. */
export const BADGE_HISTORY_RANGE: HistoryRange = "7d";

/** Longest label taken, in characters; a longer one is ignored. */
export const MAX_LABEL_CHARACTERS = 64;
/** Longest cache lifetime a badge asks for: a day. */
export const MAX_CACHE_SECONDS = 86_400;

export function badgeOptions(query: URLSearchParams): BadgeOptions {
  const value = (name: string) => query.get(name) ?? undefined;
  const label = value("label");
  const style = value("style");
  const cacheSeconds = value("cacheSeconds");
  const range = value("range");
  return {
    label: label !== undefined && [...label].length <= MAX_LABEL_CHARACTERS ? label : undefined,
    // colorB and colorA: shields' older names of color and labelColor.
    color: parseBadgeColor(value("color") ?? value("colorB")) ?? undefined,
    labelColor: parseBadgeColor(value("labelColor") ?? value("colorA")) ?? undefined,
    style: isStyleName(style) ? style : "flat",
    styleAsked: isStyleName(style),
    scale: value("scale") === "2" ? 2 : 1,
    cacheSeconds: cacheSeconds !== undefined && /^\d{1,9}$/.test(cacheSeconds) ? Math.min(Number(cacheSeconds), MAX_CACHE_SECONDS) : undefined,
    range: range !== undefined && isHistoryRange(range) ? range : undefined,
  };
}
