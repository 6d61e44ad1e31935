// The straight-alpha copy of a pixmap that the PNG, WebP and GIF encoders read,
// written into one buffer that every encode on this thread reuses: a new
// copy per image was garbage of 4 bytes a pixel (5.8 MB for a 1200x300 at
// scale 2), which a render thread would have to collect. The buffer grows to
// the largest image encoded, until a trim (../working-buffer.ts); each
// encoder reads it before it returns or awaits anything, so no other encode
// can write it meanwhile.

import { writeStraight, type Pixmap } from "../pixmap.ts";
import { WorkingBuffer } from "../working-buffer.ts";

const scratch = WorkingBuffer.forStep();

/** The pixmap's straight RGBA (valid until the next call on this thread), and whether every pixel is opaque. */
export function straightRgba(pixmap: Pixmap): { rgba: Uint8Array<ArrayBuffer>; opaque: boolean } {
  const rgba = scratch.take(pixmap.data.length);
  return { rgba, opaque: writeStraight(pixmap, rgba) };
}
