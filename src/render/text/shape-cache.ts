// Shaping with fontkit costs tens of microseconds a run; banners and badges
// draw the same few strings again and again, so results are kept in a
// least-recently-used map bounded by entries and text length.

import type { Face, ShapedRun } from "./face.ts";

const MAX_ENTRIES = 4096;
/** Longer runs are shaped every time rather than kept. */
const MAX_CACHED_LENGTH = 256;

const runs = new Map<string, ShapedRun>();

export function shapeCached(face: Face, text: string): ShapedRun {
  if (text.length > MAX_CACHED_LENGTH) return face.shape(text);
  const key = `${face.id}:${text}`;
  const cached = runs.get(key);
  if (cached) {
    runs.delete(key);
    runs.set(key, cached);
    return cached;
  }
  const run = face.shape(text);
  runs.set(key, run);
  if (runs.size > MAX_ENTRIES) runs.delete(runs.keys().next().value!);
  return run;
}
