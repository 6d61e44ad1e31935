import { expect, test } from "bun:test";
import { PNG } from "pngjs";
import { parseBadgeColor } from "../../src/badge/colors.ts";
import { BadgeImages, drawKey } from "../../src/badge/images.ts";
import type { BadgeContent } from "../../src/badge/layout.ts";

const content = (message: string, color = "blue"): BadgeContent =>
  ({ label: "downloads", message, color: parseBadgeColor(color)!, style: "flat" });

test("a look is drawn once; the key is what is drawn, colours by their pixels", () => {
  const clock = { now: 0 };
  const images = new BadgeImages(() => clock.now);
  const first = images.png(content("12k"), 1);
  expect(images.png(content("12k"), 1)).toBe(first);
  // "informational" is shields' blue: the same pixels, the same image.
  expect(images.png(content("12k", "informational"), 1)).toBe(first);
  expect(drawKey(content("12k", "informational"), 1)).toBe(drawKey(content("12k"), 1));
  expect(images.stats.draws).toBe(1);
  images.png(content("12k"), 2);
  images.png(content("13k"), 1);
  expect(images.stats.draws).toBe(3);
  const png = PNG.sync.read(Buffer.from(first));
  expect([png.width, png.height]).toEqual([100, 20]);
});

test("bounded in bytes: distinct looks beyond it push the least recently used out", () => {
  const maxBytes = 64 * 1024;
  const images = new BadgeImages(() => 0, maxBytes);
  for (let i = 0; i < 200; i++) images.png(content(`${i}k`), 1);
  const { bytes, entries, draws } = images.stats;
  expect(draws).toBe(200);
  expect(bytes).toBeLessThanOrEqual(maxBytes);
  expect(entries).toBeLessThan(200);
  // The newest is kept, the oldest was dropped and is drawn again.
  images.png(content("199k"), 1);
  expect(images.stats.draws).toBe(200);
  images.png(content("0k"), 1);
  expect(images.stats.draws).toBe(201);
});

test("a badge unused for an hour is dropped; one in use is kept", () => {
  const clock = { now: 0 };
  const images = new BadgeImages(() => clock.now);
  images.png(content("used"), 1);
  images.png(content("idle"), 1);
  clock.now += 50 * 60 * 1000;
  images.png(content("used"), 1);
  clock.now += 20 * 60 * 1000;
  images.png(content("used"), 1);
  images.png(content("idle"), 1);
  expect(images.stats.draws).toBe(3);
});

test("beforeDraw runs only for a draw, and refusing in it draws nothing", () => {
  const images = new BadgeImages(() => 0);
  let asked = 0;
  images.png(content("1"), 1, () => asked++);
  images.png(content("1"), 1, () => asked++);
  expect(asked).toBe(1);
  expect(() => images.png(content("2"), 1, () => {
    throw new Error("no budget");
  })).toThrow("no budget");
  expect(images.stats).toMatchObject({ draws: 1, entries: 1 });
});
