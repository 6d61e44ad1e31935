// Animated GIF: each frame indexed with a palette of its own (gif-palette.ts:
// the kept colours exact), written by gifenc, chosen for its speed and size
// (bench/animated.ts, README). Loops forever; delays are in hundredths of a
// second in the file, so a duration is rounded to 10 ms.

import { GIFEncoder } from "gifenc";
import type { Color } from "../color.ts";
import { writeStraight } from "../pixmap.ts";
import type { AnimationFrame } from "./animation-frame.ts";
import { indexFrame } from "./gif-palette.ts";

/** The GIF of `frames` (all one size), each keeping the colours of `kept` it draws exactly. */
export function encodeGif(frames: Iterable<AnimationFrame>, kept: readonly Color[]): Uint8Array {
  const gif = GIFEncoder();
  let rgba: Uint8Array | null = null;
  for (const { pixmap, durationMs } of frames) {
    rgba ??= new Uint8Array(pixmap.data.length);
    writeStraight(pixmap, rgba);
    const { palette, index, transparentIndex } = indexFrame(rgba, kept);
    gif.writeFrame(index, pixmap.width, pixmap.height, {
      palette,
      delay: durationMs,
      repeat: 0,
      ...(transparentIndex === null ? {} : { transparent: true, transparentIndex }),
    });
  }
  gif.finish();
  return gif.bytes();
}
