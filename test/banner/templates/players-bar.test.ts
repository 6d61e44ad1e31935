// players-bar, drawn for real and read back pixel by pixel: the join address
// as a chip (beside the name at 468x60 only when the name keeps its size),
// both MOTD lines from 728x90 up, the header's icon and version, hidden
// parts drawing nothing, and the accent.

import { describe, expect, test } from "bun:test";
import { BANNER_SIZES, type BannerElement, type BannerSize, type ServerBannerData } from "../../../src/banner/model.ts";
import type { PlayersBarLayout } from "../../../src/banner/templates/players-bar.ts";
import { PALETTES } from "../../../src/banner/theme.ts";
import { parseHexColor } from "../../../src/render/index.ts";
import { realistic, stress } from "../../support/banner-samples.ts";
import {
  area, boundsOfDifference, countNear, differing, draw, hiding, inkBounds, layoutOf, motdLineInk, sizeName, STRIPS_AND_UP,
} from "./template-pixels.ts";

const KEY = "players-bar";
const dark = PALETTES.dark;
const layout = (size: BannerSize) => layoutOf<PlayersBarLayout>(KEY, size);
const STRIP = { width: 468, height: 60 };

describe("players-bar: the join address", () => {
  test("is drawn as a chip in its place at 728x90 and larger, long ones cut rather than dropped", () => {
    for (const size of STRIPS_AND_UP) {
      const { layout: l, factor } = layout(size);
      // Without a version: on the header's bottom row it follows the chip, moving with its width.
      const base = { ...realistic, version: null };
      const none = draw(KEY, { ...base, address: null }, size);
      for (const address of [realistic.address, stress.address]) {
        const p = draw(KEY, { ...base, address }, size);
        const place = area(l.address.box, factor, p);
        const where = `${sizeName(size)} ${address}`;
        expect({ where, changed: differing(p, none, place) > 50, text: countNear(p, dark.text, place, 30) > 10, outside: differing(p, none) - differing(p, none, place) })
          .toEqual({ where, changed: true, text: true, outside: 0 });
      }
    }
  });

  test("at 468x60 it stands beside a name that keeps its size, and gives way to a long name", () => {
    const { layout: l } = layout(STRIP);
    const none = draw(KEY, { ...realistic, address: null }, STRIP);
    const name = inkBounds(none, dark.text, { x: 0, y: 0, width: STRIP.width, height: l.name.baseline + 4 })!;
    const chip = boundsOfDifference(draw(KEY, realistic, STRIP), none)!;
    // Only the chip changed, right of the name as drawn without it.
    expect(chip.x).toBeGreaterThan(name.x + name.width);
    expect(chip.x + chip.width).toBeLessThanOrEqual(l.status.x);
    const longName = { ...realistic, name: stress.name };
    expect(differing(draw(KEY, longName, STRIP), draw(KEY, { ...longName, address: null }, STRIP))).toBe(0);
  });
});

describe("players-bar: MOTD", () => {
  test("draws both MOTD lines at 728x90 and larger, line 2 on the row below line 1", () => {
    for (const size of STRIPS_AND_UP) {
      const { layout: l, factor } = layout(size);
      // Sans text is smoothed: its stems come within a few levels of the colour.
      const [line1, line2] = motdLineInk(KEY, realistic, size, l.motd!, factor, 12);
      expect({ size: sizeName(size), line1: line1 !== null, line2: line2 !== null }).toEqual({ size: sizeName(size), line1: true, line2: true });
      expect(line2!.y).toBeGreaterThan(line1!.y + line1!.height - 1);
    }
  });
});

describe("players-bar: hidden parts", () => {
  const other: Record<BannerElement, ServerBannerData> = {
    address: { ...realistic, address: "other.example.org:25570" },
    version: { ...realistic, version: "1.8.9" },
    players: { ...realistic, players: { online: 47, max: 100 } },
    motd: { ...realistic, motd: ["§cSomething else", "§eentirely"] },
    icon: { ...realistic, favicon: null },
    latency: { ...realistic, latencyMs: 800 },
    status: { ...realistic, status: "offline" },
  };
  /** Where each part is drawn at all; the rest of the sizes leave it out for room. */
  const drawnAt: Record<BannerElement, (width: number) => boolean> = {
    address: () => true,
    version: (width) => width === 300 || width === 1200,
    players: () => true,
    motd: (width) => width !== 468,
    icon: (width) => width === 1200,
    latency: () => false,
    status: () => true,
  };

  test("a hidden part draws nothing: the banner is the same whatever its value; shown, it is drawn where the size has room", () => {
    for (const size of BANNER_SIZES) {
      for (const [name, changed] of Object.entries(other)) {
        const element = name as BannerElement;
        const where = `${sizeName(size)} ${element}`;
        expect({ where, differing: differing(draw(KEY, hiding(realistic, element), size), draw(KEY, hiding(changed, element), size)) })
          .toEqual({ where, differing: 0 });
        const drawn = differing(draw(KEY, realistic, size), draw(KEY, changed, size)) > 0;
        expect({ where, drawn }).toEqual({ where, drawn: drawnAt[element](size.width) });
      }
    }
  });

  test("a hidden icon gives its room to the name and the MOTD (1200x300)", () => {
    const size = { width: 1200, height: 300 };
    const { layout: l, factor } = layout(size);
    const p = draw(KEY, hiding(realistic, "icon"), size);
    const name = inkBounds(p, dark.text, { x: 0, y: 0, width: p.width, height: Math.ceil(l.name.baseline * factor) })!;
    expect(name.x / factor).toBeLessThan(l.icon!.x + 4);
  });
});

describe("players-bar: accent", () => {
  test("fills the bar and marks the address chip", () => {
    const magenta = parseHexColor("#ff00ff")!;
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const p = draw(KEY, realistic, size, { accent: magenta });
      const bar = area(l.bar, factor, p), chip = area(l.address.box, factor, p);
      const where = sizeName(size);
      expect({ where, bar: countNear(p, magenta, bar, 40) > 10, chip: countNear(p, magenta, chip, 8) > 3 }).toEqual({ where, bar: true, chip: true });
    }
  });
});
