// A frame of an animation as the animated encoders (gif.ts, animated-webp.ts)
// take them: a drawing and how long it shows. Frames come one at a time from
// an iterable, so a drawing may reuse one pixmap for every frame.

import type { Pixmap } from "../pixmap.ts";

export interface AnimationFrame {
  pixmap: Pixmap;
  durationMs: number;
}
