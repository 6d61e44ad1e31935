// classic, drawn for real and read back pixel by pixel: the join address as a
// chip (only uncut at 468x60, where the MOTD gets its room otherwise), MOTD
// line 2 from 728x90 up, the name above the MOTD, hidden parts drawing
// nothing, no accent, and MOTD symbols in the pixel face's own glyphs.

import { describe, expect, test } from "bun:test";
import pixelSource from "../../../glyphs/pixel/pennant-pixel.txt" with { type: "text" };
import { readableOn } from "../../../src/banner/contrast.ts";
import { BANNER_SIZES, type BannerElement, type BannerSize, type ServerBannerData } from "../../../src/banner/model.ts";
import type { ClassicLayout } from "../../../src/banner/templates/classic.ts";
import { PALETTES, backdrops } from "../../../src/banner/theme.ts";
import { parseHexColor } from "../../../src/render/index.ts";
import { parsePixelFont } from "../../../src/render/text/pixel-face.ts";
import { realistic, stress } from "../../support/banner-samples.ts";
import {
  area, boundsOfDifference, countNear, differing, draw, hiding, inkBounds, inkRows, layoutOf, motdLineInk, sizeName, STRIPS_AND_UP, textRow,
} from "./template-pixels.ts";

const KEY = "classic";
const dark = PALETTES.dark;
const layout = (size: BannerSize) => layoutOf<ClassicLayout>(KEY, size);

describe("classic: the join address", () => {
  test("is drawn as a chip in its place at every size, in the text colour", () => {
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const withAddress = draw(KEY, realistic, size), without = draw(KEY, { ...realistic, address: null }, size);
      const place = area(l.address.box, factor, withAddress);
      const where = sizeName(size);
      expect({ where, changed: differing(withAddress, without, place) > 50, text: countNear(withAddress, dark.text, place) > 20 })
        .toEqual({ where, changed: true, text: true });
      // Nothing of it outside its place.
      expect({ where, outside: differing(withAddress, without) - differing(withAddress, without, place) }).toEqual({ where, outside: 0 });
    }
  });

  test("at 728x90 and larger a long address is still drawn (cut); at 468x60 only where it fits whole", () => {
    for (const size of BANNER_SIZES) {
      const long = draw(KEY, { ...realistic, address: stress.address }, size), none = draw(KEY, { ...realistic, address: null }, size);
      expect({ size: sizeName(size), drawn: differing(long, none) > 0 }).toEqual({ size: sizeName(size), drawn: size.width !== 468 });
    }
  });

  test("the MOTD never paints under the chip beside it, and takes the room when there is no chip", () => {
    const size = { width: 468, height: 60 };
    const { layout: l } = layout(size);
    const motd: ServerBannerData["motd"] = ["§7" + "wide MOTD line ".repeat(8), "§7second"];
    const chipOnly = draw(KEY, { ...realistic, motd: ["", ""] }, size), noChip = draw(KEY, { ...realistic, motd: ["", ""], address: null }, size);
    const chipArea = boundsOfDifference(chipOnly, noChip)!;
    expect(chipArea.width).toBeGreaterThan(60);
    // With the chip, the long line stops before it; without, it runs on to the MOTD box's end.
    expect(differing(draw(KEY, { ...realistic, motd }, size), chipOnly, chipArea)).toBe(0);
    const wide = draw(KEY, { ...realistic, motd, address: null }, size);
    expect(differing(wide, noChip, chipArea)).toBeGreaterThan(20);
    expect(chipArea.x + chipArea.width).toBeLessThanOrEqual(l.motd.x + l.motd.width);
  });
});

describe("classic: the MOTD and the name", () => {
  test("draws MOTD line 2 at 728x90 and larger, on the row below line 1", () => {
    for (const size of STRIPS_AND_UP) {
      const { layout: l, factor } = layout(size);
      const [line1, line2] = motdLineInk(KEY, realistic, size, l.motd, factor);
      expect({ size: sizeName(size), line1: line1 !== null, line2: line2 !== null }).toEqual({ size: sizeName(size), line1: true, line2: true });
      expect(line2!.y).toBeGreaterThan(line1!.y + line1!.height - 1);
    }
  });

  test("at 728x90 the name stands taller than the MOTD, whatever their lengths", () => {
    const size = { width: 728, height: 90 };
    const { layout: l } = layout(size);
    const white = parseHexColor("#ffffff")!;
    for (const name of ["SKYBLOCK", "SKYBLOCK ".repeat(30)]) {
      for (const line of ["SKYBLOCK", "SKYBLOCK ".repeat(30)]) {
        const p = draw(KEY, { ...realistic, name, motd: [`§f${line}`, ""] }, size);
        const nameInk = inkBounds(p, dark.text, { x: l.name.x, y: 0, width: l.name.width, height: l.motd.baseline - l.motd.size.max })!;
        const motdInk = inkBounds(p, white, { x: l.motd.x, y: l.name.baseline + 2, width: l.motd.width, height: 90 - l.name.baseline - 2 })!;
        expect({ name: name.length, line: line.length, taller: nameInk.height > motdInk.height }).toEqual({ name: name.length, line: line.length, taller: true });
      }
    }
  });

  test("⚔, » and « are the pixel face's own glyphs, drawn pixel for pixel (not Unifont's shrunk to an x and a smudge)", () => {
    const glyphs = parsePixelFont(pixelSource);
    const designed = (char: string, scale: number) => {
      const rows = glyphs.get(char.codePointAt(0)!)!.rows.map((row) => row.map((ink) => (ink ? "#" : ".").repeat(scale)).join(""));
      return rows.filter((row) => row.includes("#")).flatMap((row) => Array(scale).fill(row) as string[]);
    };
    const red = readableOn(parseHexColor("#ff5555")!, backdrops(dark));
    for (const [size, scale] of [[{ width: 468, height: 60 }, 1], [{ width: 728, height: 90 }, 2]] as const) {
      const { layout: l } = layout(size);
      for (const char of ["⚔", "»", "«"]) {
        const p = draw(KEY, { ...realistic, motd: [`§c${char}`, ""] }, size);
        const row = textRow(l.motd.x, l.motd.width, l.motd.baseline, l.motd.size.max);
        const ink = inkBounds(p, red, row)!;
        expect({ size: sizeName(size), char, rows: inkRows(p, red, ink) }).toEqual({ size: sizeName(size), char, rows: designed(char, scale) });
      }
    }
  });
});

describe("classic: hidden parts", () => {
  const other: Record<BannerElement, [ServerBannerData, BannerElement[]]> = {
    address: [{ ...realistic, address: "other.example.org:25570" }, ["address"]],
    version: [{ ...realistic, version: "1.8.9" }, ["version"]],
    players: [{ ...realistic, players: { online: 47, max: 100 } }, ["players"]],
    motd: [{ ...realistic, motd: ["§cSomething else", "§eentirely"] }, ["motd"]],
    icon: [{ ...realistic, favicon: null }, ["icon"]],
    latency: [{ ...realistic, latencyMs: 800 }, ["latency"]],
    // Offline, the cross is the status; online, the bars are the latency: hidden both, nothing tells them apart.
    status: [{ ...realistic, status: "offline" }, ["status", "latency"]],
  };

  test("a hidden part draws nothing: the banner is the same whatever its value", () => {
    for (const size of BANNER_SIZES) {
      for (const [element, [changed, hidden]] of Object.entries(other)) {
        const a = draw(KEY, hiding(realistic, ...hidden), size), b = draw(KEY, hiding(changed, ...hidden), size);
        expect({ size: sizeName(size), element, differing: differing(a, b) }).toEqual({ size: sizeName(size), element, differing: 0 });
        // ...while shown, the value is drawn (the version only where the size has room for it).
        const drawn = differing(draw(KEY, realistic, size), draw(KEY, changed, size)) > 0;
        const expected = !(element === "version" && size.width === 468);
        expect({ size: sizeName(size), element, drawn }).toEqual({ size: sizeName(size), element, drawn: expected });
      }
    }
  });

  test("a hidden icon gives its room to the text beside it", () => {
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const p = draw(KEY, hiding(realistic, "icon"), size);
      const name = inkBounds(p, dark.text, { x: 0, y: 0, width: p.width, height: Math.ceil(l.name.baseline * factor) })!;
      expect({ size: sizeName(size), left: name.x / factor < l.icon.x + 2 }).toEqual({ size: sizeName(size), left: true });
    }
  });
});

describe("classic: no accent", () => {
  test("the game's list has no colour of choice: an accent changes nothing, the address chip's mark included (grey: address-chip.test.ts)", () => {
    const magenta = parseHexColor("#ff00ff")!;
    for (const size of BANNER_SIZES) {
      const accented = draw(KEY, realistic, size, { accent: magenta });
      expect(realistic.address).not.toBeNull();
      expect({ size: sizeName(size), differing: differing(accented, draw(KEY, realistic, size)) }).toEqual({ size: sizeName(size), differing: 0 });
    }
  });
});

describe("classic: its block pattern belongs to its own panel", () => {
  const everything: BannerElement[] = ["address", "version", "players", "motd", "icon", "status", "latency"];
  /** Pixels with any coverage below the name's row, inside the hairline and its rounded corners: only the panel and its pattern can put them there. */
  function inkedBelowName(options: Parameters<typeof draw>[3]): number {
    const size = BANNER_SIZES[0];
    const image = draw(KEY, hiding({ ...realistic, name: "A" }, ...everything), size, options);
    let inked = 0;
    for (let y = 40; y < image.height - 2; y++) {
      for (let x = 7; x < image.width - 7; x++) if (image.data[(y * image.width + x) * 4 + 3]! > 0) inked++;
    }
    return inked;
  }

  test("drawn on the theme's panel, left out on a preset and on a transparent background", () => {
    expect(inkedBelowName({})).toBeGreaterThan(0);
    expect(inkedBelowName({ background: "transparent" })).toBe(0);
    expect(inkedBelowName({ background: parseHexColor("#00000000")! })).toBe(0);
    const stone = draw(KEY, hiding(realistic, ...everything), BANNER_SIZES[0], { background: "stone" });
    const plainStone = draw("minimal-status", hiding(realistic, ...everything), BANNER_SIZES[0], { background: "stone" });
    // Same panel, nothing on top in the bottom rows: the pattern would make them differ.
    expect(differing(stone, plainStone, { x: 12, y: 44, width: 440, height: 8 })).toBe(0);
  });
});
