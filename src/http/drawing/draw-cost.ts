// What a draw costs, in units charged to the client's draw budget
// (PENNANT_DRAW_BUDGET) and counted by the draw queue: a request budget alone
// lets one client buy a hundred times the work of another with the same
// number of requests.
//
// 1 unit is a 468x60 PNG at scale 1 (28,080 pixels). Drawing and encoding
// grow with the pixels, and lossless WebP costs about 4 times what PNG costs
// per pixel (the median of its ratio over the sizes). Small banners cost a
// little more per pixel than this says (a fixed part per draw), which the
// minimum of 1 unit covers. `bun bench/draw-cost.ts` measures the times and
// ratios these weights come from; its figures, with their date and machine,
// are in docs/draw-cost.md.
//
// GIF is weighted as WebP: a frame's palette and omggif's LZW in JS take a
// few times a PNG's (bench/animated.ts). An animation costs a still for each
// of its states (each drawn whole by its template) and one more for its
// frames: after the first, a frame stores only the strip that changed. Its
// time stays within what its units of PNG take, the safe side for a budget
// (bench/animated.ts; docs/animated-banners.md, Cost).

import { FADE_FRAMES } from "../../banner/animation.ts";
import type { ImagePlan, ImageType } from "../../image-plan.ts";

/** The pixels of one unit: a 468x60 banner at scale 1. */
export const UNIT_PIXELS = 468 * 60;

/**
 * Cost per pixel against PNG's (bench/draw-cost.ts). An SVG badge is text
 * written in some microseconds whatever its size (bench/badge.ts): nothing per
 * pixel, so it costs the minimum, 1 unit, which still bounds how many new
 * badges (cache entries) one client can make a window.
 */
export const PIXEL_WEIGHT: Readonly<Record<ImageType, number>> = { "image/png": 1, "image/webp": 4, "image/gif": 4, "image/svg+xml": 0 };

/** The stills an animation of `frames` frames costs: one per state (a hold and its fade's frames), and one for all its frames. */
export function stillsOf(frames: number): number {
  return frames <= 1 ? 1 : 1 + Math.ceil(frames / (1 + FADE_FRAMES));
}

/**
 * Characters beyond the faces' tables a unit pays for (the plan's
 * textBeyondTables). Text of the tables (printable ASCII and · — …) is shaped
 * from them in microseconds and its few glyphs' masks are cached: it is in
 * the pixels' units. Any other character is shaped by fontkit (its glyph
 * object parsed from the font on first sight) and, where drawn, its glyph
 * outlined and rasterized, each tens to hundreds of microseconds: Unifont has
 * some 50,000 glyphs, so a client can make every character new. At 8
 * characters a unit a short text of new characters is charged about its
 * time, the longest at most twice it, and no script draws more a unit than
 * Latin does (bench/shaping.ts; the runs: docs/performance-notes.md, "Cost by
 * what is drawn"). Charged whether
 * or not the render thread has the characters cached (the answering thread
 * cannot know): a repeat is charged as new, and draws in about Latin's time.
 * Once per draw, whatever its size, format or frames: the work is per
 * character, and an animation's states reuse the shapes and masks of the
 * first.
 */
export const CHARACTERS_PER_UNIT = 8;

/**
 * Units a draw of `plan` costs: its weighted pixels in units (an animation's
 * stills' worth) and its text beyond the tables, rounded up, at least 1.
 */
export function drawCost(plan: Pick<ImagePlan<unknown>, "pixels" | "contentType" | "frames" | "textBeyondTables">): number {
  const pixelUnits = (plan.pixels * stillsOf(plan.frames ?? 1) * PIXEL_WEIGHT[plan.contentType]) / UNIT_PIXELS;
  return Math.max(1, Math.ceil(pixelUnits + (plan.textBeyondTables ?? 0) / CHARACTERS_PER_UNIT));
}
