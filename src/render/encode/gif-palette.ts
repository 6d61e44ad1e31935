// A GIF frame's palette and indexed pixels, made here rather than by an
// encoder's quantizer: colours text is drawn in (the game's `§` colours, the
// MOTD's hex colours) must come out exactly as drawn, where a quantizer would
// move them to the centre of whatever cluster they fall in. So the palette
// is every colour the frame has when they fit in 256 (flat art: a fade's
// changed rectangle mostly does); else the kept colours present, exactly,
// and the rest by popularity of 5-bit-per-channel boxes (their mean colour),
// every other pixel then mapped to the entry nearest its box's mean.
// Transparency is one bit: alpha below half is the transparent entry.
//
// One pass counts, one maps, both over typed arrays (a Map per pixel cost
// ten times a PNG's encoding of the same frame); the per-box arrays are kept
// between frames (this is synchronous: one frame at a time per thread) and
// only the boxes a frame touched are cleared, as most frames are a small
// rectangle of a fade.

import type { Color } from "../color.ts";

export interface IndexedFrame {
  /** RGB entries, at most 256, the transparent one (if any) last. */
  palette: Array<[number, number, number]>;
  /** One palette index per pixel, row by row. */
  index: Uint8Array;
  /** The entry drawn as transparent; null: every pixel is opaque enough. */
  transparentIndex: number | null;
}

const GIF_COLORS = 256;
const HALF_ALPHA = 128;
const BOXES = 32_768;
/** Slots of the open-addressing table of exact colours: four times the most it holds (256 colours and one more, to know). */
const TABLE_SLOTS = 1_024;

const rgbKey = (r: number, g: number, b: number) => (r << 16) | (g << 8) | b;
const boxOf = (key: number) => ((key >> 9) & 0x7c00) | ((key >> 6) & 0x3e0) | ((key >> 3) & 0x1f);

/** Exact colours, up to a bound: a small hash table of keys (+1, so 0 is empty) and their palette index. */
class ColorTable {
  readonly keys = new Int32Array(TABLE_SLOTS);
  readonly values = new Int16Array(TABLE_SLOTS);
  size = 0;

  private slot(key: number): number {
    let slot = Math.imul(key, 0x9e3779b1) >>> 22;
    while (this.keys[slot] !== 0 && this.keys[slot] !== key + 1) slot = (slot + 1) & (TABLE_SLOTS - 1);
    return slot;
  }

  /** Adds `key` if absent; false once the table holds `limit` others. */
  add(key: number, limit: number): boolean {
    const slot = this.slot(key);
    if (this.keys[slot] !== 0) return true;
    if (this.size >= limit) return false;
    this.keys[slot] = key + 1;
    this.size++;
    return true;
  }

  get(key: number): number {
    const slot = this.slot(key);
    return this.keys[slot] === 0 ? -1 : this.values[slot]!;
  }

  set(key: number, value: number): void {
    const slot = this.slot(key);
    if (this.keys[slot] === 0) {
      this.keys[slot] = key + 1;
      this.size++;
    }
    this.values[slot] = value;
  }

  forEachKey(visit: (key: number) => void): void {
    for (let slot = 0; slot < TABLE_SLOTS; slot++) if (this.keys[slot] !== 0) visit(this.keys[slot]! - 1);
  }
}

/** The entry of `entries` nearest `key` (squared RGB distance). */
function nearest(entries: readonly number[], key: number): number {
  const r = (key >> 16) & 255, g = (key >> 8) & 255, b = key & 255;
  let best = 0, bestDistance = Infinity;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const dr = ((e >> 16) & 255) - r, dg = ((e >> 8) & 255) - g, db = (e & 255) - b;
    const distance = dr * dr + dg * dg + db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return best;
}

const count = new Uint32Array(BOXES), sumR = new Float64Array(BOXES), sumG = new Float64Array(BOXES), sumB = new Float64Array(BOXES);
/** Per box, the palette entry of colours not in the palette; -1: not searched yet. */
const byBox = new Int16Array(BOXES).fill(-1);

const boxMean = (box: number) => rgbKey(Math.round(sumR[box]! / count[box]!), Math.round(sumG[box]! / count[box]!), Math.round(sumB[box]! / count[box]!));

/** The palette and indexed pixels of one frame (straight RGBA), every colour of `kept` it draws kept exactly. */
export function indexFrame(rgba: Uint8Array, kept: readonly Color[]): IndexedFrame {
  const pixels = rgba.length / 4;
  const touched: number[] = [];
  try {
    return indexWith(rgba, pixels, kept, touched);
  } finally {
    for (const box of touched) {
      count[box] = sumR[box] = sumG[box] = sumB[box] = 0;
      byBox[box] = -1;
    }
  }
}

function indexWith(rgba: Uint8Array, pixels: number, kept: readonly Color[], touched: number[]): IndexedFrame {
  const exact = new ColorTable();
  let transparent = false, overflow = false;
  const room = () => GIF_COLORS - (transparent ? 1 : 0);
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i + 3]! < HALF_ALPHA) {
      transparent = true;
      continue;
    }
    const r = rgba[i]!, g = rgba[i + 1]!, b = rgba[i + 2]!, key = rgbKey(r, g, b), box = boxOf(key);
    if (count[box]!++ === 0) touched.push(box);
    sumR[box]! += r;
    sumG[box]! += g;
    sumB[box]! += b;
    if (!overflow && !exact.add(key, GIF_COLORS)) overflow = true;
  }
  if (exact.size > room()) overflow = true;

  let entries: number[];
  const table = new ColorTable();
  if (!overflow) {
    entries = [];
    exact.forEachKey((key) => entries.push(key));
  } else {
    // Kept colours present take at most half the palette: a frame drawn in more is no banner text.
    const present = new Set<number>();
    for (const color of kept) {
      const key = rgbKey(color.r, color.g, color.b);
      if (count[boxOf(key)]! > 0 && present.size < room() / 2) present.add(key);
    }
    entries = [...present];
    const popular = [...touched].sort((a, b) => count[b]! - count[a]!);
    for (const box of popular.slice(0, room() - entries.length)) entries.push(boxMean(box));
  }
  entries.forEach((key, i) => table.set(key, i));
  // A colour not in the palette takes the entry nearest its box's mean: one search per box.
  const transparentIndex = transparent ? entries.length : null;
  const index = new Uint8Array(pixels);
  let last = -1, lastIndex = 0;
  for (let p = 0, i = 0; p < pixels; p++, i += 4) {
    if (rgba[i + 3]! < HALF_ALPHA) {
      index[p] = transparentIndex!;
      continue;
    }
    const key = rgbKey(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    if (key !== last) {
      last = key;
      lastIndex = table.get(key);
      if (lastIndex < 0) {
        const box = boxOf(key);
        if (byBox[box]! < 0) byBox[box] = nearest(entries, boxMean(box));
        lastIndex = byBox[box]!;
      }
    }
    index[p] = lastIndex;
  }
  const palette = entries.map((key): [number, number, number] => [(key >> 16) & 255, (key >> 8) & 255, key & 255]);
  if (transparent) palette.push([0, 0, 0]);
  return { palette, index, transparentIndex };
}
