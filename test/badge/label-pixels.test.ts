// Label pixels kept between badges: a badge drawn with its label copied from
// the cache has every byte of one drawn whole, and the cache stays bounded.

import { describe, expect, test } from "bun:test";
import { BadgeCaches } from "../../src/badge/badge-caches.ts";
import { badgeColor } from "../../src/badge/colors.ts";
import { drawBadge } from "../../src/badge/draw-badge.ts";
import { MAX_LABEL_PIXELS, SPILLS } from "../../src/badge/label-pixels.ts";
import { layoutBadge, type BadgeContent } from "../../src/badge/badge-layout.ts";
import { STYLE_NAMES, type StyleName } from "../../src/badge/styles.ts";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";

type Look = Omit<BadgeContent, "style">;
const look = (label: string, message: string, color: string, labelColor?: string): Look =>
  ({ label, message, color: badgeColor(color), ...(labelColor ? { labelColor: badgeColor(labelColor) } : {}) });

// Labels come back with other messages and colours, so a key that leaves anything out shows.
const LOOKS: Look[] = [
  // A message opening with a combining mark: its ink falls left of its pen, on the label's columns.
  look("downloads", "\u0338 struck", "green"),
  look("downloads", "13k", "brightgreen"),
  look("downloads", "987k", "orange"),
  look("downloads", "", "blue"),
  look("version", "v1.2.3", "blue", "blue"),
  look("version", "v1.2.3", "blue", "yellow"),
  look("version", "v0.9", "red", "555"),
  look("version", "v0.9", "red", "556"),
  look("", "no label", "green"),
  look("", "no label either", "green", "blue"),
  look("a long label that a plugin author might well choose for a badge like this", "1", "informational"),
  look("版本 ünïcödé ✓", "✓ 通过 Ωmega", "9cf", "ff69b4"),
  // Its shadow reaches past the segment at scale 2 (the f's overhang): the label must be drawn whole.
  look("ff", "x", "green"),
  look("code", "AGPL-3.0", "blue"),
  look("code", "AGPL-3.0", "blue"),
];

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** Badge caches whose label pixels may hold `bytes`. */
function keeping(bytes = CACHE_SHARES.label_pixels): BadgeCaches {
  return new BadgeCaches({ budget: new CacheBudget({ ...CACHE_SHARES, label_pixels: bytes }) });
}
/** Labels drawn every time, in shields' order. */
const WHOLE = () => new BadgeCaches({ keepLabels: false });
const spilling = (caches: BadgeCaches) => [...caches.labels!.values()].filter((entry) => entry === SPILLS).length;

describe("label pixels", () => {
  test("a badge drawn with its label kept is byte for byte one drawn with nothing kept, every style, scale 1 and 2", () => {
    const caches = keeping(64 * 1024 * 1024);
    const labels = caches.labels!;
    const copied = new Map<StyleName, number>();
    for (const style of STYLE_NAMES) {
      for (const scale of [1, 2]) {
        // Twice round: the first time labels are drawn and kept, the second copied.
        for (const round of [0, 1]) {
          for (const l of LOOKS) {
            const layout = layoutBadge({ ...l, style });
            const whole = drawBadge(layout, scale, WHOLE());
            const hitsBefore = labels.stats.hits;
            const reused = drawBadge(layout, scale, caches);
            expect({ style, scale, round, ...l, same: same(reused.data, whole.data) }).toMatchObject({ same: true });
            if (labels.stats.hits > hitsBefore) copied.set(style, (copied.get(style) ?? 0) + 1);
          }
        }
      }
    }
    // The comparison above is not vacuous: labels were copied in every plate style, and never in social.
    for (const style of ["flat", "flat-square", "plastic", "for-the-badge"] as const) expect(copied.get(style) ?? 0).toBeGreaterThan(5);
    expect(copied.get("social")).toBeUndefined();
    // Only "ff" at scale 2 (flat and plastic) was drawn whole.
    expect(spilling(caches)).toBeLessThanOrEqual(2);
  });

  test("a label whose ink reaches past its segment is kept as such and drawn whole", () => {
    const caches = keeping();
    const layout = layoutBadge({ ...look("ff", "x", "green"), style: "flat" });
    drawBadge(layout, 2, caches);
    expect(caches.labels!.stats.entries).toBe(1);
    expect(spilling(caches)).toBe(1);
    const whole = drawBadge(layout, 2, WHOLE());
    expect(same(drawBadge(layout, 2, caches).data, whole.data)).toBe(true);
    expect(caches.labels!.stats.hits).toBe(1);
  });

  test("for-the-badge labels are kept whatever their length: their widths are whole pixels too", () => {
    const caches = keeping();
    // DOWNLOADS: 9 characters at 1.25 px letter spacing (a quarter pixel, rounded); CODE: 4, a whole 5 px.
    drawBadge(layoutBadge({ ...look("downloads", "1k", "green"), style: "for-the-badge" }), 1, caches);
    expect(caches.labels!.stats.entries).toBe(1);
    drawBadge(layoutBadge({ ...look("code", "MIT", "green"), style: "for-the-badge" }), 1, caches);
    expect(caches.labels!.stats.entries).toBe(2);
  });

  test("bounded in entries and bytes, least recently used dropped first, an oversized label not kept", () => {
    const roomy = keeping(64 * 1024 * 1024);
    const labels = roomy.labels!;
    const first = layoutBadge({ ...look("label 0", "1", "green"), style: "flat" });
    for (let i = 0; i < MAX_LABEL_PIXELS + 100; i++) {
      drawBadge(layoutBadge({ ...look(`label ${i}`, "1", "green"), style: "flat" }), 1, roomy);
      // Label 0, used again each time, stays: copied every time.
      const hits = labels.stats.hits;
      drawBadge(first, 1, roomy);
      expect(labels.stats.hits).toBe(hits + 1);
    }
    expect(labels.stats.entries).toBe(MAX_LABEL_PIXELS);

    // Bytes: wide labels fill the byte bound before the entry bound.
    const small = keeping(256 * 1024);
    const kept = small.labels!;
    for (let i = 0; i < 50; i++) drawBadge(layoutBadge({ ...look(`a wide label number ${i} ${"m".repeat(15)}`, "1", "green"), style: "flat" }), 1, small);
    expect(kept.stats.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(kept.stats.bytes).toBeGreaterThan(200 * 1024);
    expect(kept.stats.entries).toBeLessThan(50);

    // A label over an eighth of the bound (32 KiB here) would flush the others: drawn, not kept.
    const before = kept.stats;
    drawBadge(layoutBadge({ ...look("m".repeat(120), "1", "green"), style: "flat" }), 2, small);
    expect(kept.stats.entries).toBe(before.entries);
    expect(kept.stats.bytes).toBe(before.bytes);
  });
});
