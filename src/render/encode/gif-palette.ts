// A GIF frame's palette and indexed pixels, made here rather than by an
// encoder's quantizer: colours text is drawn in (the game's `§` colours, the
// MOTD's hex colours) must come out exactly as drawn, where a quantizer would
// move them to the centre of whatever cluster they fall in. So the palette
// is every colour the frame has when they fit in 256 (banners are flat art:
// most frames do); else the kept colours present, exactly, and the rest by
// popularity of 5-bit-per-channel boxes (their mean colour), every pixel then
// mapped to its nearest entry. Transparency is one bit: alpha below half is
// the transparent entry.

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

const rgbKey = (r: number, g: number, b: number) => (r << 16) | (g << 8) | b;
const boxOf = (key: number) => ((key >> 9) & 0x7c00) | ((key >> 6) & 0x3e0) | ((key >> 3) & 0x1f);

/** How many pixels have each colour, and whether any is transparent. */
function countColors(rgba: Uint8Array): { counts: Map<number, number>; transparent: boolean } {
  const counts = new Map<number, number>();
  let transparent = false, last = -1, run = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i + 3]! < HALF_ALPHA) {
      transparent = true;
      continue;
    }
    const key = rgbKey(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    // Runs of one colour (panels, backgrounds) are counted once.
    if (key === last) {
      run++;
      continue;
    }
    if (last >= 0) counts.set(last, (counts.get(last) ?? 0) + run);
    last = key;
    run = 1;
  }
  if (last >= 0) counts.set(last, (counts.get(last) ?? 0) + run);
  return { counts, transparent };
}

/** The mean colours of the `room` most used 5-bit boxes among `counts`' colours. */
function popularBoxes(counts: Map<number, number>, room: number): number[] {
  const boxes = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (const [key, n] of counts) {
    const box = boxOf(key);
    const sum = boxes.get(box) ?? { n: 0, r: 0, g: 0, b: 0 };
    sum.n += n;
    sum.r += ((key >> 16) & 255) * n;
    sum.g += ((key >> 8) & 255) * n;
    sum.b += (key & 255) * n;
    boxes.set(box, sum);
  }
  return [...boxes.values()].sort((a, b) => b.n - a.n).slice(0, room)
    .map((s) => rgbKey(Math.round(s.r / s.n), Math.round(s.g / s.n), Math.round(s.b / s.n)));
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

/** The palette and indexed pixels of one frame (straight RGBA), every colour of `kept` it draws kept exactly. */
export function indexFrame(rgba: Uint8Array, kept: readonly Color[]): IndexedFrame {
  const { counts, transparent } = countColors(rgba);
  const room = GIF_COLORS - (transparent ? 1 : 0);
  let entries: number[];
  if (counts.size <= room) entries = [...counts.keys()];
  else {
    // Kept colours take at most half the palette: a frame drawn in more is no banner text.
    const exact = [...new Set(kept.map((c) => rgbKey(c.r, c.g, c.b)))].filter((key) => counts.has(key)).slice(0, room / 2);
    entries = [...exact, ...popularBoxes(counts, room - exact.length)];
  }
  const indexOf = new Map<number, number>();
  entries.forEach((key, i) => indexOf.set(key, i));
  const transparentIndex = transparent ? entries.length : null;
  // A colour not in the palette takes the entry nearest the first colour of its 5-bit box seen: one search per box, not per colour.
  const byBox = new Int16Array(32_768).fill(-1);
  const index = new Uint8Array(rgba.length / 4);
  let last = -1, lastIndex = 0;
  for (let p = 0, i = 0; i < rgba.length; p++, i += 4) {
    if (rgba[i + 3]! < HALF_ALPHA) {
      index[p] = transparentIndex!;
      continue;
    }
    const key = rgbKey(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    if (key !== last) {
      let found = indexOf.get(key);
      if (found === undefined) {
        const box = boxOf(key);
        if (byBox[box]! < 0) byBox[box] = nearest(entries, key);
        found = byBox[box]!;
      }
      last = key;
      lastIndex = found;
    }
    index[p] = lastIndex;
  }
  const palette = entries.map((key): [number, number, number] => [(key >> 16) & 255, (key >> 8) & 255, key & 255]);
  if (transparent) palette.push([0, 0, 0]);
  return { palette, index, transparentIndex };
}
