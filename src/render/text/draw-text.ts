// Drawing laid-out text: each glyph is a cached coverage mask composited in
// one colour; decorations are whole-pixel bars so they stay crisp.

import type { Color } from "../color.ts";
import { NO_CACHES, type RenderContext } from "../context.ts";
import { fillPath } from "../draw.ts";
import { drawMask } from "../paint/draw-mask.ts";
import { solid } from "../paint/paint.ts";
import { Path } from "../path.ts";
import type { Pixmap } from "../pixmap.ts";
import { SUBPIXEL_STEPS, type GlyphCache } from "./glyph-cache.ts";
import type { DecorationBar, TextLine } from "./layout.ts";

export interface TextDrawOptions {
  /** 0..1, multiplies the colour's alpha. */
  opacity?: number;
  underline?: boolean;
  strikethrough?: boolean;
  /** What is kept between drawings (glyph masks, tint tables); none by default. */
  context?: RenderContext;
  /** Glyph masks of another kind (a shadow); by default the context's. */
  glyphCache?: GlyphCache;
}

function drawBar(pixmap: Pixmap, x: number, width: number, baseline: number, bar: DecorationBar, color: Color, opacity: number, context: RenderContext): void {
  const top = Math.round(baseline + bar.offset);
  const thickness = Math.max(1, Math.round(bar.thickness));
  fillPath(pixmap, new Path().rect(Math.round(x), top, Math.round(width), thickness), solid(color), { opacity, context });
}

/**
 * Draws `line` with its pen starting at `x` on the baseline `baseline` (the
 * baseline is rounded to a whole pixel; x keeps quarter pixels for outline
 * faces and whole pixels for pixel faces).
 */
export function drawTextLine(pixmap: Pixmap, line: TextLine, x: number, baseline: number, color: Color, options: TextDrawOptions = {}): void {
  const context = options.context ?? NO_CACHES;
  const cache = options.glyphCache ?? context.glyphs;
  const opacity = options.opacity ?? 1;
  const base = Math.round(baseline);
  for (const glyph of line.glyphs) {
    // A whole pixel and a quarter-pixel step (0..3); pixel faces stay on whole pixels.
    const steps = glyph.face.pixelAligned ? Math.round(x + glyph.x) * SUBPIXEL_STEPS : Math.round((x + glyph.x) * SUBPIXEL_STEPS);
    const whole = Math.floor(steps / SUBPIXEL_STEPS);
    const step = steps - whole * SUBPIXEL_STEPS;
    const mask = cache.get(glyph.face, glyph.glyphId, glyph.size, step, glyph.slanted);
    const y = base + Math.round(glyph.y);
    drawMask(pixmap, mask, whole, y, color, opacity, context);
    if (glyph.fauxBold > 0) drawMask(pixmap, mask, whole + glyph.fauxBold, y, color, opacity, context);
  }
  if (options.underline) drawBar(pixmap, x, line.width, base, line.underline, color, opacity, context);
  if (options.strikethrough) drawBar(pixmap, x, line.width, base, line.strikethrough, color, opacity, context);
}
