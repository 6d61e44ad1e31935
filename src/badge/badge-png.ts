// The PNG of a badge job (images.ts): laid out, drawn by draw-badge.ts and
// encoded. Only who draws imports this (a render thread, or the thread that
// answers requests when there are none): it loads the render engine.

import { encodePng } from "../render/index.ts";
import type { BadgeCaches } from "./badge-caches.ts";
import { layoutBadge } from "./badge-layout.ts";
import { drawBadge } from "./draw-badge.ts";
import type { BadgeJob } from "./images.ts";

/**
 * Badges are encoded once and then served many times, so they are written
 * compact (per-row filters, a palette where it is smaller) at zlib level 6:
 * 5-30% fewer bytes than the engine's fast default. Levels above 6 cost twice
 * the time for under 1% more (docs/performance-notes.md, "PNG encoding").
 */
const PNG_OPTIONS = { level: 6, compact: true };

/** The PNG `job` describes, drawn with what `drawing` keeps between badges. */
export function drawBadgeJob({ content, scale }: BadgeJob, drawing: BadgeCaches): Uint8Array {
  return encodePng(drawBadge(layoutBadge(content), scale, drawing), PNG_OPTIONS);
}
