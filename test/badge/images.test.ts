import { expect, test } from "bun:test";
import { PNG } from "pngjs";
import { parseBadgeColor } from "../../src/badge/colors.ts";
import { BadgeCaches } from "../../src/badge/badge-caches.ts";
import { drawBadgeJob } from "../../src/badge/badge-png.ts";
import { badgeImage, badgeSvgImage } from "../../src/badge/images.ts";
import type { BadgeContent } from "../../src/badge/badge-layout.ts";

const drawing = new BadgeCaches();
const content = (message: string, color = "blue"): BadgeContent =>
  ({ label: "downloads", message, color: parseBadgeColor(color)!, style: "flat" });

test("the key is what is drawn, colours by their pixels: one key, one image", async () => {
  const plan = badgeImage(content("12k"), 1);
  // "informational" is shields' blue: the same pixels, the same key.
  expect(badgeImage(content("12k", "informational"), 1).key).toBe(plan.key);
  const others = [badgeImage(content("12k"), 2), badgeImage(content("13k"), 1), badgeImage(content("12k", "red"), 1), badgeImage({ ...content("12k"), style: "plastic" }, 1)];
  expect(new Set([plan.key, ...others.map((other) => other.key)]).size).toBe(5);
  const [first, again] = [drawBadgeJob(plan.job, drawing), drawBadgeJob(badgeImage(content("12k", "informational"), 1).job, drawing)];
  expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  expect(plan.contentType).toBe("image/png");
  const png = PNG.sync.read(Buffer.from(first));
  expect([png.width, png.height]).toEqual([100, 20]);
});

test("a PNG plan weighs its texts beyond the faces' tables (the draw cost charges them); an SVG, written and not drawn, none", () => {
  expect(badgeImage(content("12k"), 1).textBeyondTables).toBe(0);
  const japanese = { ...content("12 人"), label: "プレイヤー" };
  expect(badgeImage(japanese, 2).textBeyondTables).toBe(6);
  expect(badgeSvgImage(japanese).textBeyondTables).toBeUndefined();
});
