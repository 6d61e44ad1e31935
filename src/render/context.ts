// What the engine keeps between drawings: glyph masks, shaped runs, tint
// tables and spare pixmaps, in one object the application makes and hands to
// every drawing (tiny-skia keeps no global state either). Render imports
// nothing of the project: its caches are whatever has get and set, made by
// the application's cache budget (src/cache/budget.ts) under the names below,
// each bounded by its share. A context made without one keeps nothing, so
// what one test draws is never seen by the next.
//
// Left at module level: pure functions of constant data computed once (the
// shipped faces, fonts.ts, and what they learn of themselves: each outline
// face's ASCII shaping tables, bounded by the alphabet; which faces cover
// ASCII); tables keyed by objects their callers own, which go with them
// (gradient tables by their stops, shader.ts); and working buffers (draw.ts,
// raster/mask.ts, paint/composite.ts, image/draw-image.ts, encode/png.ts),
// which every call writes before it reads: no drawing sees another's.

import type { EngineCache } from "./engine-cache.ts";
import type { Mask } from "./raster/mask.ts";
import { PixmapPool, type PoolUsage } from "./pixmap-pool.ts";
import type { ShapedRun } from "./text/face.ts";
import { GlyphCache } from "./text/glyph-cache.ts";

export type RenderCacheName = "glyph_masks" | "shaped_runs" | "tint_tables";

/** Where a context's caches come from: the application's cache budget. */
export interface RenderMemory {
  /** The cache `name`; `sizeOf` is the bytes a value holds. */
  cache<V, K extends string | number>(name: RenderCacheName, rules: { sizeOf(value: V): number }): EngineCache<K, V>;
  /** The bytes the spare pixmaps may hold; the pool reports what it holds through `usage`. */
  share(name: "spare_pixmaps", usage: () => PoolUsage): number;
}

/** Bytes a value of the engine's own holds beyond its arrays' contents: the object, its fields, the arrays' headers. */
const OBJECT_BYTES = 48;
const ARRAY_BYTES = 96;

export const maskBytes = (mask: Mask): number => OBJECT_BYTES + ARRAY_BYTES + mask.data.byteLength;
export const shapedRunBytes = (run: ShapedRun): number => OBJECT_BYTES + 4 * ARRAY_BYTES + 4 * 8 * run.glyphIds.length;
export const tintTableBytes = (table: Int32Array): number => ARRAY_BYTES + table.byteLength;

const NOTHING: EngineCache<never, never> = { get: () => undefined, set() {} };

/** Memory for a context that keeps nothing. */
export const KEEP_NOTHING: RenderMemory = {
  cache: <V, K>() => NOTHING as EngineCache<K, V>,
  share: () => 0,
};

export class RenderContext {
  /** Coverage masks of glyphs, as drawn (drawTextLine's default). */
  readonly glyphs: GlyphCache;
  /** Runs of text shaped, by face and text (layoutText). */
  readonly shapes: EngineCache<string, ShapedRun>;
  /** Per-colour blend tables, by premultiplied colour (drawMask). */
  readonly tints: EngineCache<number, Int32Array>;
  /** Pixmaps given back after encoding, for the next drawing of their size. */
  readonly pixmaps: PixmapPool;

  constructor(memory: RenderMemory = KEEP_NOTHING) {
    this.glyphs = new GlyphCache(memory.cache("glyph_masks", { sizeOf: maskBytes }));
    this.shapes = memory.cache("shaped_runs", { sizeOf: shapedRunBytes });
    this.tints = memory.cache("tint_tables", { sizeOf: tintTableBytes });
    this.pixmaps = new PixmapPool(memory.share("spare_pixmaps", () => this.pixmaps.usage));
  }
}

/** A context that keeps nothing: what drawing functions use when given none. */
export const NO_CACHES = new RenderContext();
