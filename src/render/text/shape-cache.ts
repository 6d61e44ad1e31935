// Shaping with fontkit costs tens of microseconds a run; banners and badges
// draw the same few strings again and again (and fitting lays one text out at
// several sizes), so runs are kept in the render context's shaped_runs cache.

import type { Store } from "../context.ts";
import type { Face, ShapedRun } from "./face.ts";

/** Longer runs are shaped every time rather than kept. */
const MAX_CACHED_LENGTH = 256;

export function shapeCached(face: Face, text: string, shapes: Store<string, ShapedRun>): ShapedRun {
  if (text.length > MAX_CACHED_LENGTH) return face.shape(text);
  const key = `${face.id}:${text}`;
  let run = shapes.get(key);
  if (run === undefined) {
    run = face.shape(text);
    shapes.set(key, run);
  }
  return run;
}
