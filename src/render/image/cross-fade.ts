// One frame of a fade between two drawings of the same size: each byte
// (premultiplied, so colour and coverage fade together) a weighted mean of
// the two, into a pixmap of the caller's.

import type { Pixmap } from "../pixmap.ts";

/** Writes `from` faded `mix` (0: `from`, 1: `to`) towards `to` into `into`; all three the same size. */
export function crossFade(from: Pixmap, to: Pixmap, mix: number, into: Pixmap): void {
  const a = from.data, b = to.data, out = into.data;
  if (a.length !== b.length || a.length !== out.length) throw new RangeError("a cross-fade needs three pixmaps of one size");
  // 8.8 fixed point: the weight of `to` out of 256.
  const w = Math.round(Math.min(1, Math.max(0, mix)) * 256);
  const fromWords = from.pixels, toWords = to.pixels, outWords = into.pixels;
  for (let p = 0; p < fromWords.length; p++) {
    // Pixels the fade does not touch (the panel, the name) are copied whole.
    if (fromWords[p] === toWords[p]) {
      outWords[p] = fromWords[p]!;
      continue;
    }
    const i = p << 2;
    for (let c = i; c < i + 4; c++) out[c] = (a[c]! * (256 - w) + b[c]! * w + 128) >> 8;
  }
}
