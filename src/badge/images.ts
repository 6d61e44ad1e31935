// Badge PNGs as image plans (src/image-plan.ts): the key is what is drawn
// (style, scale, texts, colours as pixels), not the URL, so every URL and
// every plugin that shows "downloads | 12k" in the same colours names one
// image, which the HTTP layer draws once and keeps. The plan's job is plain
// data (it crosses to a render thread); drawBadgeJob draws it.

import { imageKey, type ImagePlan } from "../image-plan.ts";
import { encodePng } from "../render/index.ts";
import type { BadgeCaches } from "./badge-caches.ts";
import { colorNumber } from "./colors.ts";
import { drawBadge } from "./draw-badge.ts";
import { layoutBadge, type BadgeContent } from "./badge-layout.ts";
import { STYLES } from "./styles.ts";

/**
 * Badges are encoded once and then served many times, so they are written
 * compact (per-row filters, a palette where it is smaller) at zlib level 6:
 * 5-30% fewer bytes than the engine's fast default. Levels above 6 cost twice
 * the time for under 1% more (docs/performance-notes.md, "Badges").
 */
const PNG_OPTIONS = { level: 6, compact: true };

/** A plan's own bookkeeping beside its content's text: the job's objects, the key. */
const PLAN_OVERHEAD_BYTES = 512;

/**
 * About the pixels a badge fills, without laying it out: its style's height
 * by a width of ~7 px per character plus the segments' padding. The plan's
 * pixel count prices the drawing; it need not be exact.
 */
function estimatedPixels(content: BadgeContent, scale: number): number {
  const width = 7 * (content.label.length + content.message.length) + 20;
  return width * STYLES[content.style].height * scale * scale;
}

/** What decides every pixel of a badge, as one string (its key is made from it). */
export function drawKey(content: BadgeContent, scale: number): string {
  const label = content.labelColor ? colorNumber(content.labelColor.rgba) : "default";
  return JSON.stringify([content.style, scale, content.label, content.message, label, colorNumber(content.color.rgba)]);
}

/** What a badge is drawn from. */
export interface BadgeJob {
  kind: "badge";
  content: BadgeContent;
  scale: 1 | 2;
}

/** The PNG of `content` at `scale`, to be drawn when no cache holds it. */
export function badgeImage(content: BadgeContent, scale: 1 | 2): ImagePlan<BadgeJob> {
  return {
    key: imageKey(["badge", drawKey(content, scale)]),
    contentType: "image/png",
    pixels: estimatedPixels(content, scale),
    memory: PLAN_OVERHEAD_BYTES + 2 * (content.label.length + content.message.length),
    job: { kind: "badge", content, scale },
  };
}

/** The PNG `job` describes, drawn with what `drawing` keeps between badges. */
export function drawBadgeJob({ content, scale }: BadgeJob, drawing: BadgeCaches): Uint8Array {
  return encodePng(drawBadge(layoutBadge(content), scale, drawing), PNG_OPTIONS);
}
