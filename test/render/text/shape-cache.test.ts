// Shaped runs are kept by face and text, whatever their length: fitting lays
// a line out at several sizes and cuts it with an ellipsis, so a run not kept
// is shaped again for each (fontkit: ~2 µs a CJK character even with its
// glyphs parsed): a banner repeating the longest name and MOTD line of CJK
// drew in 3.7-6.6 ms, 1.6-1.7 once kept (docs/performance-notes.md).

import { expect, test } from "bun:test";
import type { Face, ShapedRun } from "../../../src/render/text/face.ts";
import { MAX_LINE_CHARACTERS } from "../../../src/render/text/layout.ts";
import { shapeCached } from "../../../src/render/text/shape-cache.ts";

function countingFace(): { face: Face; shaped: string[] } {
  const shaped: string[] = [];
  const face = {
    id: 200,
    shape(text: string): ShapedRun {
      shaped.push(text);
      return { glyphIds: [...text].map(() => 1), advances: [], xOffsets: [], yOffsets: [] };
    },
  } as unknown as Face;
  return { face, shaped };
}

test("a run is shaped once however often it is laid out, up to a line's whole length", () => {
  const { face, shaped } = countingFace();
  const store = new Map<string, ShapedRun>();
  const ideographs = (count: number) => Array.from({ length: count }, (_, k) => String.fromCodePoint(0x4e00 + k)).join("");
  for (const text of ["Skyblock", ideographs(300), ideographs(MAX_LINE_CHARACTERS)]) {
    const first = shapeCached(face, text, store);
    for (let again = 0; again < 5; again++) expect(shapeCached(face, text, store)).toBe(first);
  }
  expect(shaped.map((text) => text.length)).toEqual([8, 300, MAX_LINE_CHARACTERS]);
});
