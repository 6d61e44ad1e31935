// A badge ends on a whole device pixel in every style, at 1x and 2x: its
// first and last columns are fully opaque where the shape reaches them (the
// middle row; every row of a square style), never a half-covered column that
// shows as a faint edge on a light page. Read back from the PNG as served.

import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { BadgeCaches } from "../../src/badge/badge-caches.ts";
import { badgeColor } from "../../src/badge/colors.ts";
import { drawBadgeJob } from "../../src/badge/badge-png.ts";
import { STYLE_NAMES, STYLES } from "../../src/badge/styles.ts";

// for-the-badge spaces 1.25 px per character: 1, 2 and 3 characters (mod 4) end in a quarter, half and three quarters.
const TEXTS: Array<[label: string, message: string]> = [
  ["downloads", "12k"], ["ab", "abc"], ["abc", "a"], ["code", "MIT"], ["", "no label"], ["players", "19.98"],
];

/** The alpha of every row of column `x`. */
function columnAlpha(png: PNG, x: number): number[] {
  return Array.from({ length: png.height }, (_, y) => png.data[(y * png.width + x) * 4 + 3]!);
}

describe("badge edges on whole pixels", () => {
  for (const style of STYLE_NAMES) {
    test(style, () => {
      const square = STYLES[style].kind === "plate" && STYLES[style].radius === 0;
      const caches = new BadgeCaches();
      const edges = TEXTS.flatMap(([label, message]) =>
        ([1, 2] as const).map((scale) => {
          const png = PNG.sync.read(Buffer.from(drawBadgeJob({ kind: "badge", content: { label, message, color: badgeColor("blue"), style }, scale }, caches)));
          const rows = (alpha: number[]) => (square ? alpha : [alpha[png.height >> 1]!]);
          const partial = [0, png.width - 1].flatMap((x) => rows(columnAlpha(png, x)).filter((alpha) => alpha !== 255));
          return { label, scale, partialRows: partial.length, alpha: partial[0] };
        }),
      );
      expect(edges.filter(({ partialRows }) => partialRows > 0)).toEqual([]);
    });
  }
});
