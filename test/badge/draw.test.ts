// Drawing badges again: what is kept between drawings gives the same pixels and stays bounded.

import { expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { drawBadge, keptSegmentStops, MAX_SEGMENT_STOPS } from "../../src/badge/draw.ts";
import { layoutBadge, type BadgeContent } from "../../src/badge/layout.ts";
import { STYLES } from "../../src/badge/styles.ts";

const hex = (n: number) => n.toString(16).padStart(2, "0");
const content = (r: number, g: number): BadgeContent =>
  ({ label: "downloads", message: "13k", color: badgeColor(`${hex(r)}${hex(g)}28`), style: "flat" });

test("a badge drawn again from kept gradients has the same pixels, and what is kept per overlay is bounded", () => {
  const first = drawBadge(layoutBadge(content(10, 200)), 2);
  for (let i = 0; i < MAX_SEGMENT_STOPS + 50; i++) drawBadge(layoutBadge(content(i % 256, (i * 7) % 256)));
  const flat = STYLES.flat;
  if (flat.kind !== "plate") throw new Error("flat is a plate style");
  expect(keptSegmentStops(flat.overlay)).toBe(MAX_SEGMENT_STOPS);
  const again = drawBadge(layoutBadge(content(10, 200)), 2);
  expect(Buffer.from(again.data).equals(Buffer.from(first.data))).toBe(true);
  const cached = drawBadge(layoutBadge(content(10, 200)), 2);
  expect(Buffer.from(cached.data).equals(Buffer.from(first.data))).toBe(true);
});
