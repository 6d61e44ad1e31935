// The straight-alpha copy of a pixmap that the PNG, WebP and GIF encoders read,
// written into one buffer that every encode on this thread reuses: a new
// copy per image was garbage of 4 bytes a pixel (5.8 MB for a 1200x300 at
// scale 2), which a render thread would have to collect. The buffer grows to
// the largest image encoded and stays; each encoder reads it before it
// returns or awaits anything, so no other encode can write it meanwhile.

import { writeStraight, type Pixmap } from "../pixmap.ts";

let scratch = new Uint8Array(0);

/** The pixmap's straight RGBA (valid until the next call on this thread), and whether every pixel is opaque. */
export function straightRgba(pixmap: Pixmap): { rgba: Uint8Array<ArrayBuffer>; opaque: boolean } {
  const bytes = pixmap.data.length;
  if (scratch.length < bytes) scratch = new Uint8Array(bytes);
  const rgba = scratch.subarray(0, bytes);
  return { rgba, opaque: writeStraight(pixmap, rgba) };
}
