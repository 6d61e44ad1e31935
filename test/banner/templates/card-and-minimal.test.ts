// card and minimal-status, drawn for real and read back pixel by pixel: the
// join address in its chip, both MOTD lines from 728x90 up, hidden parts
// left out (their values change nothing) with their room given to the rest,
// the accent, and every size x theme with ink only inside the layout's
// boxes, which never intersect.

import { describe, expect, test } from "bun:test";
import type { AddressPlace } from "../../../src/banner/address-chip.ts";
import { layoutFor, type LayoutKey } from "../../../src/banner/layout-keys.ts";
import { BANNER_ELEMENTS, BANNER_SIZES, type BannerElement, type BannerSize, type ServerBannerData, type Theme } from "../../../src/banner/model.ts";
import type { CardLayout } from "../../../src/banner/templates/card.ts";
import { templates } from "../../../src/banner/templates/catalogue.ts";
import { drawings, renderBanner } from "../../../src/banner/templates/index.ts";
import type { MinimalStatusLayout } from "../../../src/banner/templates/minimal-status.ts";
import type { TextSlot } from "../../../src/banner/slots.ts";
import { PALETTES, paletteFor } from "../../../src/banner/theme.ts";
import { Pixmap, parseHexColor, type Color } from "../../../src/render/index.ts";
import { offline, realistic, stress } from "../../support/banner-samples.ts";

const KEYS = ["card", "minimal-status"] as const;
type Key = (typeof KEYS)[number];
const THEMES: Theme[] = ["dark", "light"];
const STRIP = { width: 468, height: 60 };
const LARGER = BANNER_SIZES.filter((size) => size.width >= 728 || size.height >= 90);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function layoutOf<T>(key: Key, size: BannerSize): { layout: T; factor: number; layoutKey: LayoutKey } {
  const choice = layoutFor(size)!;
  return { layout: drawings.get(key)!.layouts[choice.key] as T, factor: choice.factor, layoutKey: choice.key };
}

const draw = (key: Key, data: ServerBannerData, size: BannerSize, theme: Theme = "dark", scale: 1 | 2 = 1, accent?: Color) =>
  renderBanner(key, data, { size, theme, scale, accent });

/** Device-pixel boxes (as [x0, y0, x1, y1)) of the pixels that differ between two renders. */
function differing(a: Pixmap, b: Pixmap, area: Box = { x: 0, y: 0, width: a.width, height: a.height }): { count: number; box: Box | null } {
  let count = 0, x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = Math.max(0, area.y); y < Math.min(a.height, area.y + area.height); y++) {
    for (let x = Math.max(0, area.x); x < Math.min(a.width, area.x + area.width); x++) {
      if (a.pixels[y * a.width + x] === b.pixels[y * a.width + x]) continue;
      count++;
      x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x), y1 = Math.max(y1, y);
    }
  }
  return { count, box: count === 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

const toDevice = (box: Box, f: number): Box => {
  const x = Math.floor(box.x * f), y = Math.floor(box.y * f);
  return { x, y, width: Math.ceil((box.x + box.width) * f) - x, height: Math.ceil((box.y + box.height) * f) - y };
};

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

const intersect = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function union(...boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

/** The rows a slot's text may ink: an em above the baseline (accents), 0.3 em below (descenders). */
const textBox = (slot: { x: number; width: number; baseline: number; size: { max: number } }, rows = 1, lineHeight = 1): Box => ({
  x: slot.x, y: slot.baseline - slot.size.max, width: slot.width, height: slot.size.max * (1.3 + (rows - 1) * lineHeight),
});

const chipBox = (place: AddressPlace) => place.box;

/**
 * The parts of a layout as boxes (CSS px). Parts that share a row and split
 * it as they are drawn are one box: the name and pills that follow it, the
 * count and its inline label, the status column and the MOTD after it on a
 * strip, the MOTD and the chip that ends its row at 468x60.
 */
function partBoxes(key: Key, size: BannerSize): Record<string, Box> {
  if (key === "card") {
    const { layout: l } = layoutOf<CardLayout>(key, size);
    const pills = { x: l.pills.inline ? l.name.x : l.pills.x, y: l.pills.centerY - l.pills.height / 2, width: l.pills.inline ? l.name.width : l.pills.width, height: l.pills.height };
    const motd = textBox(l.motd, l.motdLines, l.motd.lineHeight);
    const boxes: Record<string, Box> = {
      icon: l.icon,
      count: union(textBox(l.count.count), textBox(l.count.label)),
      ...(l.pills.inline ? { header: union(textBox(l.name), pills) } : { name: textBox(l.name), pills }),
      ...(l.addressPosition === "beside-motd" ? { body: union(motd, chipBox(l.address)) } : { motd, address: chipBox(l.address) }),
    };
    if (l.divider) boxes.divider = { ...l.divider, height: 1 };
    return boxes;
  }
  const { layout: l } = layoutOf<MinimalStatusLayout>(key, size);
  const status = textBox(l.status);
  const version = l.version ? (l.version.place === "after" ? { ...textBox(l.version.slot), x: l.status.x + l.status.width + l.version.slot.size.max } : textBox(l.version.slot)) : null;
  const motd = textBox(l.motd, l.motdLines, l.motd.lineHeight);
  const statusColumn = version && l.version!.place !== "fixed" ? union(status, version) : status;
  const boxes: Record<string, Box> = {
    name: textBox(l.name),
    count: union(textBox(l.count.count), textBox(l.count.label)),
    ...(version && l.version!.place === "fixed" ? { version } : {}),
  };
  if (l.gap > 0) boxes.body = l.addressPosition === "beside-motd" ? union(statusColumn, motd, chipBox(l.address)) : union(statusColumn, motd);
  else Object.assign(boxes, { status: statusColumn, motd });
  if (!(l.addressPosition === "beside-motd")) boxes.address = chipBox(l.address);
  if (l.divider) boxes.divider = { ...l.divider, height: 1 };
  return boxes;
}

const NOTHING: ReadonlySet<BannerElement> = new Set(BANNER_ELEMENTS);

describe("the layouts' parts", () => {
  test("never intersect and stay inside the banner", () => {
    for (const key of KEYS) {
      for (const size of BANNER_SIZES) {
        const { width, height } = layoutFor(size)!;
        const boxes = Object.entries(partBoxes(key, size));
        for (const [name, box] of boxes) {
          expect({ key, size, name, inside: inside(box, { x: 0, y: 0, width, height }) }).toEqual({ key, size, name, inside: true });
        }
        for (const [i, [a, boxA]] of boxes.entries()) {
          for (const [b, boxB] of boxes.slice(i + 1)) expect({ key, size, a, b, overlap: intersect(boxA, boxB) }).toEqual({ key, size, a, b, overlap: false });
        }
      }
    }
  });

  test("every size, theme and sample at scale 2 inks only inside those boxes", () => {
    for (const key of KEYS) {
      for (const size of BANNER_SIZES) {
        const { factor } = layoutOf(key, size);
        const f = factor * 2;
        const boxes = Object.values(partBoxes(key, size)).map((box) => toDevice({ x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2 }, f));
        for (const theme of THEMES) {
          // The bare banner: panel (and the card's accent edge), no part drawn.
          const bare = draw(key, { ...realistic, name: "", hidden: NOTHING }, size, theme, 2);
          for (const [sample, data] of [["realistic", realistic], ["stress", stress], ["offline", offline]] as const) {
            const p = draw(key, data, size, theme, 2);
            let stray = 0;
            for (let y = 0; y < p.height; y++) {
              for (let x = 0; x < p.width; x++) {
                if (p.pixels[y * p.width + x] === bare.pixels[y * p.width + x]) continue;
                if (!boxes.some((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height)) stray++;
              }
            }
            expect({ key, size, theme, sample, stray }).toEqual({ key, size, theme, sample, stray: 0 });
          }
        }
      }
    }
  }, 60_000);
});

describe("the join address", () => {
  const addressSlot = (key: Key, size: BannerSize) => layoutOf<{ address: AddressPlace }>(key, size).layout.address;

  test("is drawn as a chip in its slot at every size, in the text colour, and changes nothing else", () => {
    for (const key of KEYS) {
      for (const size of BANNER_SIZES) {
        for (const theme of THEMES) {
          const { factor } = layoutOf(key, size);
          const slot = addressSlot(key, size);
          const chip = toDevice(chipBox(slot), factor);
          const withAddress = draw(key, realistic, size, theme);
          const without = draw(key, { ...realistic, address: null }, size, theme);
          const where = `${key} ${size.width}x${size.height} ${theme}`;
          // The card's box moves the rest together into an absent chip's room: there only the chip's area is compared.
          const restMoves = key === "card" && size.width === 300;
          const { count, box } = differing(withAddress, without, restMoves ? chip : undefined);
          expect({ where, drawn: count > 200, inSlot: box !== null && inside(box, chip) }).toEqual({ where, drawn: true, inSlot: true });
          // The address itself: pixels in the chip nearer the text colour than to the panel drawn there without it.
          let text = 0;
          const ink = PALETTES[theme].text;
          const distance = (a: Color, b: Color) => Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b);
          for (let y = chip.y; y < chip.y + chip.height; y++) {
            for (let x = chip.x; x < chip.x + chip.width; x++) {
              const c = withAddress.pixel(x, y);
              if (distance(c, ink) < distance(c, without.pixel(x, y)) / 2) text++;
            }
          }
          expect({ where, text: text > 20 }).toEqual({ where, text: true });
          // A different address draws differently: it is the address, not a decoration.
          expect({ where, other: differing(withAddress, draw(key, { ...realistic, address: "mc.example.org" }, size, theme), chip).count > 0 }).toEqual({ where, other: true });
        }
      }
    }
  });

  test("at 468x60 gives way to a MOTD that would not fit whole beside it", () => {
    for (const key of KEYS) {
      const long = { ...realistic, motd: ["§a" + "Welcome to the best Skyblock server of the year".repeat(2), ""] as const };
      expect({ key, chip: differing(draw(key, long, STRIP), draw(key, { ...long, address: null }, STRIP)).count }).toEqual({ key, chip: 0 });
      // Without a MOTD the row is the chip's, even for a long address.
      const empty = { ...realistic, motd: ["", ""] as const, address: "mc.survival-network.example.org:25577" };
      expect({ key, drawn: differing(draw(key, empty, STRIP), draw(key, { ...empty, address: null }, STRIP)).count > 200 }).toEqual({ key, drawn: true });
    }
  });
});

describe("the MOTD", () => {
  const one = { ...realistic, motd: ["§aWelcome to Skyblock Paradise!", ""] as const };
  const two = { ...realistic, motd: ["§aWelcome to Skyblock Paradise!", "§7Islands, quests and weekly events"] as const };

  test("both lines from 728x90 up, the second under the first; one line at 468x60", () => {
    for (const key of KEYS) {
      for (const theme of THEMES) {
        for (const size of LARGER) {
          const { layout, factor } = layoutOf<{ motd: { baseline: number; size: { max: number } } }>(key, size);
          const { count, box } = differing(draw(key, two, size, theme), draw(key, one, size, theme));
          const where = `${key} ${size.width}x${size.height} ${theme}`;
          expect({ where, drawn: count > 100, below: box !== null && box.y > layout.motd.baseline * factor }).toEqual({ where, drawn: true, below: true });
        }
        expect({ key, theme, strip: differing(draw(key, two, STRIP, theme), draw(key, one, STRIP, theme)).count }).toEqual({ key, theme, strip: 0 });
      }
    }
  });
});

describe("hide", () => {
  const favicon = new Pixmap(64, 64);
  favicon.fill(parseHexColor("#ff00ff")!);
  /** Two values of each part: a shown part draws them differently, a hidden one not at all. */
  const variants: Record<BannerElement, [Partial<ServerBannerData>, Partial<ServerBannerData>]> = {
    address: [{ address: "play.example.net" }, { address: "mc.other.org" }],
    version: [{ version: "1.21.4" }, { version: "1.8.9" }],
    players: [{ players: { online: 3, max: 50 } }, { players: { online: 48, max: 200 } }],
    motd: [{ motd: ["§aWelcome", "§7Islands"] }, { motd: ["§cClosed", "§eSoon"] }],
    icon: [{ favicon: null }, { favicon }],
    status: [{ status: "online" }, { status: "offline" }],
    latency: [{ latencyMs: 40 }, { latencyMs: 900 }],
  };
  /** What each template draws where (minimal-status: no icon, no latency; its version where there is room). */
  const draws = (key: Key, element: BannerElement, size: BannerSize) =>
    element === "latency" ? false
    : key === "minimal-status" ? element !== "icon" && !(element === "version" && size.width === 468)
    : true;

  test("a hidden part is not drawn: its value changes no pixel; shown, it does", () => {
    for (const key of KEYS) {
      for (const size of BANNER_SIZES) {
        for (const element of BANNER_ELEMENTS) {
          const [a, b] = variants[element];
          const shown = differing(draw(key, { ...realistic, ...a }, size), draw(key, { ...realistic, ...b }, size)).count;
          const hidden = new Set([element]);
          const gone = differing(draw(key, { ...realistic, ...a, hidden }, size), draw(key, { ...realistic, ...b, hidden }, size)).count;
          const where = `${key} ${size.width}x${size.height} ${element}`;
          expect({ where, shown: shown > 0, gone }).toEqual({ where, shown: draws(key, element, size), gone: 0 });
        }
      }
    }
  });

  test("the room of hidden players and a hidden icon goes to the name", () => {
    const name = "The Ultimate Minecraft Survival Experience Network";
    for (const key of KEYS) {
      for (const size of BANNER_SIZES) {
        const { layout, factor } = layoutOf<{ name: TextSlot }>(key, size);
        const extent = (hidden: ReadonlySet<BannerElement>) => differing(draw(key, { ...realistic, name, hidden }, size), draw(key, { ...realistic, name: "", hidden }, size)).box!;
        const all = extent(new Set()), noPlayers = extent(new Set(["players"])), noIcon = extent(new Set(["icon"]));
        const where = `${key} ${size.width}x${size.height}`;
        // Strips and the header give the count's column to the name; the box has the count under it.
        const widens = size.width !== 300 && !(key === "card" && size.width === 1200);
        expect({ where, wider: noPlayers.x + noPlayers.width > all.x + all.width }).toEqual({ where, wider: widens });
        if (key === "card") expect({ where, left: noIcon.x < layout.name.x * factor }).toEqual({ where, left: true });
      }
    }
  });
});

describe("accent", () => {
  const orange = parseHexColor("#ff7a00")!;

  test("card: the accent colours its left edge (and the chip's mark)", () => {
    for (const size of BANNER_SIZES) {
      for (const theme of THEMES) {
        const p = draw("card", realistic, size, theme, 1, orange);
        const where = `${size.width}x${size.height} ${theme}`;
        expect({ where, edge: p.pixel(1, p.height >> 1) }).toEqual({ where, edge: orange });
        expect({ where, theme: draw("card", realistic, size, theme).pixel(1, p.height >> 1) }).toEqual({ where, theme: paletteFor({ theme }).accent });
        // Without an address too: the edge is always there.
        const bare = { ...realistic, address: null };
        expect({ where, changes: differing(draw("card", bare, size, theme, 1, orange), draw("card", bare, size, theme)).count > 0 }).toEqual({ where, changes: true });
      }
    }
    expect(templates.get("card")!.uses).toContain("accent");
  });

  test("minimal-status offers no accent and draws none", () => {
    expect(templates.get("minimal-status")!.uses).not.toContain("accent");
    for (const size of BANNER_SIZES) {
      expect({ size, changes: differing(draw("minimal-status", realistic, size, "dark", 1, orange), draw("minimal-status", realistic, size)).count }).toEqual({ size, changes: 0 });
    }
  });
});
