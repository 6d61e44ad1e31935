// Badge PNGs and SVGs as image plans (src/image-plan.ts): the key is what is
// drawn (format, style, scale, texts, colours), not the URL, so every URL and
// every plugin that shows "downloads | 12k" in the same colours names one
// image, which the HTTP layer draws once and keeps. The plan's job is plain
// data (it crosses to a render thread); writeBadgeSvgJob writes an SVG,
// badge-png.ts draws a PNG (apart, so that what makes plans loads no engine).

import { imageKey, type ImagePlan } from "../image-plan.ts";
import { charactersBeyondTables } from "../render/basics.ts";
import { badgeSvg } from "./badge-svg.ts";
import { colorNumber, svgColor } from "./colors.ts";
import type { BadgeContent } from "./badge-layout.ts";
import { STYLES } from "./styles.ts";

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

/** What decides every byte of a badge's SVG, which names its colours as given ("red" and "#f00" are two SVGs of one look). */
function svgKey(content: BadgeContent): string {
  const label = content.labelColor ? svgColor(content.labelColor) : "default";
  return JSON.stringify([content.style, content.label, content.message, label, svgColor(content.color)]);
}

/** What a badge is drawn from. */
export interface BadgeJob {
  kind: "badge";
  content: BadgeContent;
  scale: 1 | 2;
}

/** Heap bytes a plan of `content` keeps alive. */
const planMemory = (content: BadgeContent) => PLAN_OVERHEAD_BYTES + 2 * (content.label.length + content.message.length);

/**
 * The PNG of `content` at `scale`, to be drawn when no cache holds it. Its
 * texts beyond the faces' tables (a CJK label) are shaped and outlined by
 * fontkit, and the draw cost charges for them (src/image-plan.ts).
 */
export function badgeImage(content: BadgeContent, scale: 1 | 2): ImagePlan<BadgeJob> {
  return {
    key: imageKey(["badge", drawKey(content, scale)]),
    contentType: "image/png",
    pixels: estimatedPixels(content, scale),
    textBeyondTables: charactersBeyondTables(content.label) + charactersBeyondTables(content.message),
    memory: planMemory(content),
    job: { kind: "badge", content, scale },
  };
}

/** What an SVG badge is written from. */
export interface BadgeSvgJob {
  kind: "badge svg";
  content: BadgeContent;
}

/**
 * The SVG of `content` (it has no scale: it is drawn at whatever size it is
 * shown). Its pixels are those of the PNG at scale 1: what the SVG covers,
 * though writing it costs nothing per pixel (draw-cost.ts).
 */
export function badgeSvgImage(content: BadgeContent): ImagePlan<BadgeSvgJob> {
  return {
    key: imageKey(["badge svg", svgKey(content)]),
    contentType: "image/svg+xml",
    pixels: estimatedPixels(content, 1),
    memory: planMemory(content),
    job: { kind: "badge svg", content },
  };
}

/** The SVG `job` describes, as UTF-8. */
export function writeBadgeSvgJob({ content }: BadgeSvgJob): Uint8Array {
  return new TextEncoder().encode(badgeSvg(content));
}

/** The image formats of a badge (besides its endpoint JSON). */
export type BadgeFormat = "png" | "svg";

/** The plan of `content` in `format`; `scale` is a PNG's (an SVG has none). */
export function badgeImageIn(format: BadgeFormat, content: BadgeContent, scale: 1 | 2): ImagePlan<BadgeJob | BadgeSvgJob> {
  return format === "svg" ? badgeSvgImage(content) : badgeImage(content, scale);
}
