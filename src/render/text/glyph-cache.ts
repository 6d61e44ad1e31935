// Coverage masks of glyphs, keyed by face, glyph, size, quarter-pixel offset
// and slant, kept in a cache of the render context (context.ts): drawing text
// is mostly copying these masks.

import { blurMask } from "../image/blur.ts";
import { rasterizeToMask, trimMask, type Mask } from "../raster/mask.ts";
import type { Transform } from "../transform.ts";
import type { EngineCache } from "../engine-cache.ts";
import type { Face } from "./face.ts";

/** Horizontal sub-pixel positions per pixel (outline faces; pixel faces use whole pixels). */
export const SUBPIXEL_STEPS = 4;
/** Font sizes are quantized to this fraction of a pixel. */
const SIZE_STEPS = 4;
/** The slant of faux italics: x moves this much per unit of height (about 11 degrees). */
const FAUX_ITALIC_SKEW = 0.2;
export const MAX_FONT_SIZE = 1024;
/** Glyph ids are below this: font files have at most 2^16 glyphs, code point boxes go to U+10FFFF. */
const GLYPH_IDS = 2 ** 21;
/** Kinds of masks one store can hold side by side (GlyphCache's `variant`): the sharp glyphs and a few shadows. */
export const GLYPH_VARIANTS = 16;

/**
 * A soft shadow held in a cache's masks: the glyph blurred (a Gaussian's
 * sigma in pixels) at `blurOpacity`, with, when `sharpOpacity` > 0, a sharp
 * copy at that opacity laid over it. Both layers are drawn in one colour, and
 * for one colour source-over of two layers is one layer of coverage
 * a + b - ab: so each glyph is one mask and one draw, not two.
 */
export interface GlyphShadow {
  blur: number;
  /** Default 1. */
  blurOpacity?: number;
  /** Default 0: the blurred copy alone. */
  sharpOpacity?: number;
}

export class GlyphCache {
  /**
   * With `shadow`, the cache's glyphs are that shadow: text drawn through it
   * is soft. Blurring is linear, so drawing blurred glyphs is blurring the
   * text (up to where glyphs' halos overlap, which composite instead of
   * adding), at the cost of one copy per glyph instead of a blur of the whole
   * line every time. Caches of different masks may share one store, each
   * with its own `variant` (below GLYPH_VARIANTS).
   */
  constructor(
    private readonly masks: EngineCache<number, Mask>,
    readonly shadow: GlyphShadow | null = null,
    private readonly variant = 0,
  ) {
    if (!Number.isInteger(variant) || variant < 0 || variant >= GLYPH_VARIANTS) throw new RangeError(`glyph variant ${variant} is not below ${GLYPH_VARIANTS}`);
  }

  /**
   * The mask of `glyphId` at `size` px, with its pen at (subpixel / SUBPIXEL_STEPS, 0):
   * mask.x/y are relative to the whole-pixel pen position on the baseline.
   */
  get(face: Face, glyphId: number, size: number, subpixel: number, slanted: boolean): Mask {
    const sizeStep = Math.min(Math.round(size * SIZE_STEPS), MAX_FONT_SIZE * SIZE_STEPS);
    // face id < 2^8, glyph id < 2^21 (code point boxes use the code point), size step < 2^13, subpixel < 2^2,
    // slant 1 bit, variant < 2^4: 49 bits, exact in a double.
    const key = ((((face.id * GLYPH_IDS + glyphId) * 8192 + sizeStep) * 4 + subpixel) * 2 + (slanted ? 1 : 0)) * GLYPH_VARIANTS + this.variant;
    let mask = this.masks.get(key);
    if (mask === undefined) {
      const sharp = rasterizeGlyph(face, glyphId, sizeStep / SIZE_STEPS, subpixel / SUBPIXEL_STEPS, slanted);
      mask = this.shadow ? trimMask(shadowMask(sharp, this.shadow)) : sharp;
      this.masks.set(key, mask);
    }
    return mask;
  }
}

/** The shadow's layers over `sharp` as one mask, each pixel rounded once. */
function shadowMask(sharp: Mask, { blur, blurOpacity = 1, sharpOpacity = 0 }: GlyphShadow): Mask {
  const soft = blurMask(sharp, blur);
  if (blurOpacity === 1 && sharpOpacity === 0) return soft;
  const { data, width } = soft;
  // Where the sharp glyph's pixels sit in the (larger) blurred mask.
  const dx = sharp.x - soft.x, dy = sharp.y - soft.y;
  for (let y = 0; y < soft.height; y++) {
    const sy = y - dy;
    for (let x = 0; x < width; x++) {
      const sx = x - dx;
      const inside = sy >= 0 && sy < sharp.height && sx >= 0 && sx < sharp.width;
      const a = blurOpacity * data[y * width + x]!;
      const b = inside ? sharpOpacity * sharp.data[sy * sharp.width + sx]! : 0;
      data[y * width + x] = Math.round(a + b - (a * b) / 255);
    }
  }
  return soft;
}

function rasterizeGlyph(face: Face, glyphId: number, size: number, offsetX: number, slanted: boolean): Mask {
  const scale = size / face.metrics.unitsPerEm;
  // Font units are y up; device pixels are y down. The slant leans the top right.
  const transform: Transform = { a: scale, b: 0, c: slanted ? FAUX_ITALIC_SKEW * scale : 0, d: -scale, e: offsetX, f: 0 };
  return rasterizeToMask(face.outline(glyphId), transform);
}
