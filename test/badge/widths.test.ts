// Our PNG badge widths against shields' own badge-maker: for the same label
// and message, in every style, the width of its SVG (measured with the same
// tables: text-width.ts); for-the-badge's segments may end in quarter
// pixels, which a PNG rounds each to the nearest whole one (1 px apart at most).

import { describe, expect, test } from "bun:test";
import { makeBadge } from "badge-maker";
import { badgeColor } from "../../src/badge/colors.ts";
import { layoutBadge } from "../../src/badge/badge-layout.ts";
import { STYLE_NAMES } from "../../src/badge/styles.ts";

const LABELS = [
  "version", "downloads", "rating", "status", "minecraft", "software", "alpha", "beta dl", "followers", "gamma dl",
  "stars", "watchers", "release", "forks", "issues", "license", "players", "tps", "plugin", "metric", "server",
  "build", "Discord", "EzShops API", "my custom label",
];
const MESSAGES = [
  "v3.2.1", "12k", "1.1k", "999", "4.6/5 (87)", "active", "inactive", "1.20-1.21", "1.8-1.21", "1.21-1.21.4",
  "Paper/Folia+2", "ezshops", "ez-plugins/EzShops", "N/A", "MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "Custom",
  "12 open", "12/100", "online", "offline", "19.98", "1.21.4", "not found", "v2.0.0-beta.1", "rate limited",
];

/** Printable ASCII strings from a fixed seed: the characters nobody thought of. */
function randomTexts(count: number): string[] {
  let seed = 20_261_122;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 20) }, () => String.fromCharCode(33 + Math.floor(next() * 94))).join(""));
}

function shieldsWidth(label: string, message: string, style: string): number {
  const svg = makeBadge({ label, message, color: "blue", style: style as "flat" });
  return Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1]);
}

describe("widths against badge-maker", () => {
  for (const style of STYLE_NAMES) {
    test(style, () => {
      const random = randomTexts(200);
      const pairs = [
        ...LABELS.flatMap((label) => MESSAGES.map((message) => [label, message] as const)),
        ...random.map((text, i) => [text, random[(i + 7) % random.length]!] as const),
      ];
      const off = pairs
        .map(([label, message]) => ({ label, message, ours: layoutBadge({ label, message, color: badgeColor("blue"), style }).width, shields: shieldsWidth(label, message, style) }))
        .filter(({ ours, shields }) => (style === "for-the-badge" ? Math.abs(ours - shields) > 1 : ours !== shields));
      expect(off).toEqual([]);
    });
  }
});
