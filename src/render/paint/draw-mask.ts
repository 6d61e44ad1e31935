// Compositing a coverage mask tinted with one colour: the hot path of text
// (every glyph is a cached mask) and of solid fills.

import { div255, opacityToAlpha, type Color } from "../color.ts";
import { NO_CACHES, type RenderContext } from "../context.ts";
import type { EngineCache } from "../engine-cache.ts";
import { packPixel, type Pixmap } from "../pixmap.ts";
import { ALPHA_SHIFT, scalePixel } from "./blend.ts";
import type { Mask } from "../raster/mask.ts";

/**
 * For a premultiplied source pixel, source-over at each coverage c (blendPixel)
 * split in its two halves: entry c is the source scaled by c, entry 256 + c
 * the backdrop's remaining share (of 256). Per pixel that leaves one scaling
 * instead of two, on the hot path of text. Kept in the context's tint_tables
 * (2 KB each): text is drawn in a few colours (a badge: its text colour and
 * its shadow's), so they are nearly always there.
 */
function tintOf(source: number, tints: EngineCache<number, Int32Array>): Int32Array {
  let tint = tints.get(source);
  if (tint) return tint;
  tint = new Int32Array(512);
  for (let c = 0; c < 256; c++) {
    const scaled = scalePixel(source, c + (c >> 7));
    const a = (scaled >>> ALPHA_SHIFT) & 255;
    tint[c] = scaled;
    tint[256 + c] = 256 - a - (a >> 7);
  }
  tints.set(source, tint);
  return tint;
}

/**
 * Draws `mask` in `color` (straight alpha) times `opacity` (0..1), source-over,
 * with its top-left pixel at device (mask.x + dx, mask.y + dy); dx and dy are
 * rounded to whole pixels (glyph caches bake the sub-pixel offset into the
 * mask). Parts outside the pixmap are skipped.
 */
export function drawMask(pixmap: Pixmap, mask: Mask, dx: number, dy: number, color: Color, opacity = 1, context: RenderContext = NO_CACHES): void {
  const alpha = div255(color.a * opacityToAlpha(opacity));
  if (alpha === 0 || mask.width === 0 || mask.height === 0) return;
  const left = mask.x + Math.round(dx);
  const top = mask.y + Math.round(dy);
  const x0 = Math.max(left, 0);
  const y0 = Math.max(top, 0);
  const x1 = Math.min(left + mask.width, pixmap.width);
  const y1 = Math.min(top + mask.height, pixmap.height);
  if (x1 <= x0 || y1 <= y0) return;

  const source = packPixel(div255(color.r * alpha), div255(color.g * alpha), div255(color.b * alpha), alpha);
  const opaque = alpha === 255;
  const tint = tintOf(source, context.tints);
  const { pixels, width } = pixmap;
  const coverage = mask.data;
  const span = x1 - x0;

  for (let y = y0; y < y1; y++) {
    let m = (y - top) * mask.width + (x0 - left);
    let p = y * width + x0;
    for (const end = p + span; p < end; p++, m++) {
      const c = coverage[m]!;
      if (c === 0) continue;
      // Fully covered pixels of an opaque colour are a plain store.
      pixels[p] = c === 255 && opaque ? source : (tint[c]! + scalePixel(pixels[p]!, tint[256 + c]!)) | 0;
    }
  }
}
