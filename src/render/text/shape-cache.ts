// Shaping with fontkit costs tens of microseconds a run; banners and badges
// draw the same few strings again and again, and fitting lays one text out at
// several sizes and cuts it with an ellipsis, so runs are kept in the render
// context's shaped_runs cache. Every run is kept, however long: layout cuts a
// line to MAX_LINE_CHARACTERS first, and the cache is bounded in bytes (the
// text of its keys included). A long run not kept was shaped again at every
// size tried and every prefix the ellipsis tried, so a banner repeating the
// longest name and MOTD line of CJK drew in several times its time with them
// kept (bench/shaping.ts; docs/performance-notes.md, "Cost by what is drawn").

import type { EngineCache } from "../engine-cache.ts";
import type { Face, ShapedRun } from "./face.ts";

export function shapeCached(face: Face, text: string, shapes: EngineCache<string, ShapedRun>): ShapedRun {
  const key = `${face.id}:${text}`;
  let run = shapes.get(key);
  if (run === undefined) {
    run = face.shape(text);
    shapes.set(key, run);
  }
  return run;
}
