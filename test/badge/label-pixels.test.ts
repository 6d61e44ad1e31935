// Label pixels kept between badges: a badge drawn with its label copied from
// the cache has every byte of one drawn whole, and the cache stays bounded.

import { describe, expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { drawBadge } from "../../src/badge/draw.ts";
import { LabelPixels } from "../../src/badge/label-pixels.ts";
import { layoutBadge, type BadgeContent } from "../../src/badge/layout.ts";
import { STYLE_NAMES, type StyleName } from "../../src/badge/styles.ts";

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

describe("label pixels", () => {
  test("a badge drawn with its label kept is byte for byte one drawn with nothing kept, every style, scale 1 and 2", () => {
    const labels = new LabelPixels(64 * 1024 * 1024, 100_000);
    const copied = new Map<StyleName, number>();
    for (const style of STYLE_NAMES) {
      for (const scale of [1, 2]) {
        // Twice round: the first time labels are drawn and kept, the second copied.
        for (const round of [0, 1]) {
          for (const l of LOOKS) {
            const layout = layoutBadge({ ...l, style });
            const whole = drawBadge(layout, scale, null);
            const hitsBefore = labels.stats().hits;
            const reused = drawBadge(layout, scale, labels);
            expect({ style, scale, round, ...l, same: same(reused.data, whole.data) }).toMatchObject({ same: true });
            if (labels.stats().hits > hitsBefore) copied.set(style, (copied.get(style) ?? 0) + 1);
          }
        }
      }
    }
    // The comparison above is not vacuous: labels were copied in every plate style, and never in social.
    for (const style of ["flat", "flat-square", "plastic", "for-the-badge"] as const) expect(copied.get(style) ?? 0).toBeGreaterThan(5);
    expect(copied.get("social")).toBeUndefined();
    // Only "ff" at scale 2 (flat and plastic) was drawn whole.
    expect(labels.stats().spilling).toBeLessThanOrEqual(2);
  });

  test("a label whose ink reaches past its segment is kept as such and drawn whole", () => {
    const labels = new LabelPixels();
    const layout = layoutBadge({ ...look("ff", "x", "green"), style: "flat" });
    drawBadge(layout, 2, labels);
    expect(labels.stats()).toMatchObject({ entries: 1, spilling: 1 });
    const whole = drawBadge(layout, 2, null);
    expect(same(drawBadge(layout, 2, labels).data, whole.data)).toBe(true);
    expect(labels.stats().hits).toBe(1);
  });

  test("for-the-badge labels that end in a quarter pixel are not kept", () => {
    const labels = new LabelPixels();
    // DOWNLOADS: 9 characters at 1.25 px letter spacing; CODE: 4, a whole 5 px.
    drawBadge(layoutBadge({ ...look("downloads", "1k", "green"), style: "for-the-badge" }), 1, labels);
    expect(labels.stats().entries).toBe(0);
    drawBadge(layoutBadge({ ...look("code", "MIT", "green"), style: "for-the-badge" }), 1, labels);
    expect(labels.stats().entries).toBe(1);
  });

  test("bounded in entries and bytes, least recently used dropped first, an oversized label not kept", () => {
    const labels = new LabelPixels(256 * 1024, 20);
    const first = layoutBadge({ ...look("label 0", "1", "green"), style: "flat" });
    for (let i = 0; i < 200; i++) {
      drawBadge(layoutBadge({ ...look(`label ${i}`, "1", "green"), style: "flat" }), 1, labels);
      // Label 0, used again each time, stays: copied every time.
      const hits = labels.stats().hits;
      drawBadge(first, 1, labels);
      expect(labels.stats().hits).toBe(hits + 1);
      expect(labels.stats().entries).toBeLessThanOrEqual(20);
    }
    expect(labels.stats().entries).toBe(20);

    // Bytes: wide labels fill the byte bound before the entry bound.
    for (let i = 0; i < 50; i++) drawBadge(layoutBadge({ ...look(`a wide label number ${i} ${"m".repeat(15)}`, "1", "green"), style: "flat" }), 1, labels);
    expect(labels.stats().bytes).toBeLessThanOrEqual(256 * 1024);
    expect(labels.stats().bytes).toBeGreaterThan(200 * 1024);
    expect(labels.stats().entries).toBeLessThan(20);

    // A label over an eighth of the bound (32 KiB here) would flush the others: drawn, not kept.
    const before = labels.stats();
    drawBadge(layoutBadge({ ...look("m".repeat(120), "1", "green"), style: "flat" }), 2, labels);
    expect(labels.stats().entries).toBe(before.entries);
    expect(labels.stats().bytes).toBe(before.bytes);

    labels.clear();
    expect(labels.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
