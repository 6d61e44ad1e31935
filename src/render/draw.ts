// Filling and stroking paths onto a pixmap: flatten, rasterize to a coverage
// mask over the visible part of the shape, composite with the paint.

import { NO_CACHES, type RenderContext } from "./context.ts";
import { drawMask } from "./paint/draw-mask.ts";
import { compositeMask } from "./paint/composite.ts";
import type { Paint } from "./paint/paint.ts";
import { compilePaint } from "./paint/shader.ts";
import type { Path } from "./path.ts";
import type { Pixmap } from "./pixmap.ts";
import type { FillRule } from "./raster/accumulate.ts";
import { DEFAULT_TOLERANCE, flattenPath, type Contour } from "./raster/flatten.ts";
import { rasterizeContours, visibleArea, type Mask, type Rect } from "./raster/mask.ts";
import { strokeContours, type StrokeStyle } from "./raster/stroke.ts";
import { IDENTITY, type Transform } from "./transform.ts";

export interface DrawOptions {
  /** User space (path and gradient coordinates) to device pixels. */
  transform?: Transform;
  /** 0..1, multiplies the paint's alpha. */
  opacity?: number;
  /** Only pixels inside this coverage mask are painted, weighted by it (e.g. a rounded banner outline). */
  clip?: Mask | null;
  /** What is kept between drawings (tint tables); none by default. */
  context?: RenderContext;
}

export interface FillOptions extends DrawOptions {
  fillRule?: FillRule;
}

// Coverage of the fill being drawn: used and dropped within one call, so one
// buffer serves them all. Only buffers up to 1 MiB (a 1024x1024 area) are kept.
const KEEP_COVERAGE_BYTES = 1 << 20;
let coverage = new Uint8Array(64 * 1024);

function coverageStorage(area: Rect): Uint8Array | undefined {
  const needed = area.width * area.height;
  if (needed <= coverage.length) return coverage;
  if (needed > KEEP_COVERAGE_BYTES) return undefined;
  coverage = new Uint8Array(needed);
  return coverage;
}

function fillContours(pixmap: Pixmap, contours: Contour[], paint: Paint, fillRule: FillRule, options: DrawOptions): void {
  const clip = options.clip ?? null;
  const area = visibleArea(pixmap.width, pixmap.height, clip);
  const mask = rasterizeContours(contours, fillRule, area, coverageStorage(area));
  if (mask.width === 0) return;
  const opacity = options.opacity ?? 1;
  if (paint.type === "solid" && !clip) {
    drawMask(pixmap, mask, 0, 0, paint.color, opacity, options.context ?? NO_CACHES);
    return;
  }
  compositeMask(pixmap, mask, compilePaint(paint, options.transform ?? IDENTITY), opacity, clip);
}

export function fillPath(pixmap: Pixmap, path: Path, paint: Paint, options: FillOptions = {}): void {
  fillContours(pixmap, flattenPath(path, options.transform ?? IDENTITY), paint, options.fillRule ?? "nonzero", options);
}

/**
 * Strokes `path` with a line of constant width (in user units). The outline
 * is built in user space and then transformed, so non-uniform scales give
 * the calligraphic widths one expects.
 */
export function strokePath(pixmap: Pixmap, path: Path, style: StrokeStyle, paint: Paint, options: DrawOptions = {}): void {
  const transform = options.transform ?? IDENTITY;
  const scaleFactor = Math.sqrt(Math.abs(transform.a * transform.d - transform.b * transform.c)) || 1;
  const tolerance = DEFAULT_TOLERANCE / scaleFactor;
  const outline = strokeContours(flattenPath(path, IDENTITY, tolerance), style, tolerance);
  for (const contour of outline) {
    const p = contour.points;
    for (let i = 0; i < p.length; i += 2) {
      const x = p[i]!, y = p[i + 1]!;
      p[i] = transform.a * x + transform.c * y + transform.e;
      p[i + 1] = transform.b * x + transform.d * y + transform.f;
    }
  }
  fillContours(pixmap, outline, paint, "nonzero", options);
}
