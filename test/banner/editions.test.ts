// Every server template drawing a Hytale server (issue 41): its own fallback
// icon where a template draws an icon, and players the source does not give
// said in words, never as a count. Drawn for real, checked on the pixels.

import { describe, expect, test } from "bun:test";
import { BANNER_SIZES, type ServerBannerData, type Theme } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { PALETTES } from "../../src/banner/theme.ts";
import { Pixmap, type Color } from "../../src/render/index.ts";
import { iconRgba } from "../../bench/render/scenes.ts";

const SERVER_TEMPLATES = [...templates.values()].filter((info) => info.kind === "server").map((info) => info.key);
/** The templates that draw an icon at each size (classic and card at all four, players-bar in its header). */
const ICONS: Record<string, readonly string[]> = {
  "468x60": ["classic", "card"], "728x90": ["classic", "card"], "300x250": ["classic", "card"], "1200x300": ["classic", "card", "players-bar"],
};

const HYTALE: ServerBannerData = {
  name: "Orbis Realms", status: "online", players: { online: 27, max: 100 }, motd: ["§bAdventure awaits", "§7Dungeons and quests"], version: "2026.01.24",
  latencyMs: null, favicon: null, history: [], address: "play.orbis.example", edition: "hytale",
};

const draw = (key: string, data: ServerBannerData, size: (typeof BANNER_SIZES)[number], theme: Theme = "dark") => renderBanner(key, data, { size, theme, scale: 1 });
const sizeName = (size: { width: number; height: number }) => `${size.width}x${size.height}`;

function same(a: Pixmap, b: Pixmap): boolean {
  return a.data.every((value, i) => value === b.data[i]);
}

function countColor(p: Pixmap, color: Color): number {
  let n = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const c = p.pixel(x, y);
      if (c.r === color.r && c.g === color.g && c.b === color.b && c.a === 255) n++;
    }
  }
  return n;
}

describe("a Hytale server's fallback icon", () => {
  test("is drawn where a template draws an icon, not Java's block; nothing else of the banner changes with the edition", () => {
    const java: ServerBannerData = { ...HYTALE, edition: undefined };
    for (const size of BANNER_SIZES) {
      for (const key of SERVER_TEMPLATES) {
        const drawsIcon = ICONS[sizeName(size)]!.includes(key);
        expect({ key, size: sizeName(size), differs: !same(draw(key, HYTALE, size), draw(key, java, size)) }).toEqual({ key, size: sizeName(size), differs: drawsIcon });
        // Bedrock servers get the block too.
        expect({ key, size: sizeName(size), bedrock: same(draw(key, { ...HYTALE, edition: "bedrock" }, size), draw(key, java, size)) }).toEqual({ key, size: sizeName(size), bedrock: true });
      }
    }
  });

  test("gives way to the icon the server sends", () => {
    const favicon = Pixmap.fromStraightRgba(64, 64, iconRgba());
    for (const key of ["classic", "card", "players-bar"]) {
      const size = BANNER_SIZES[3];
      expect(same(draw(key, { ...HYTALE, favicon }, size), draw(key, { ...HYTALE, favicon, edition: undefined }, size))).toBe(true);
    }
  });
});

describe("players unknown", () => {
  const unknown: ServerBannerData = { ...HYTALE, players: null };
  const zero: ServerBannerData = { ...HYTALE, players: { online: 0, max: 0 } };
  const hidden: ServerBannerData = { ...unknown, hidden: new Set(["players"]) };

  test("every server template at every size says it in its count's place: not 0/0, and not nothing", () => {
    for (const theme of ["dark", "light"] as const) {
      for (const size of BANNER_SIZES) {
        for (const key of SERVER_TEMPLATES) {
          const drawn = draw(key, unknown, size, theme);
          const where = { key, theme, size: sizeName(size) };
          expect({ ...where, asZero: same(drawn, draw(key, zero, size, theme)), asHidden: same(drawn, draw(key, hidden, size, theme)) })
            .toEqual({ ...where, asZero: false, asHidden: false });
        }
      }
    }
  });

  test("in muted words, not in the text colour counts are drawn in", () => {
    const { text } = PALETTES.dark;
    for (const size of BANNER_SIZES) {
      // Those whose one count is the players': classic writes its counts muted, as the game's list does, and
      // sparkline's peak, unknown too, keeps its dash (the test above shows neither draws 0/0).
      for (const key of ["minimal-status", "card", "players-bar"]) {
        const inUnknown = countColor(draw(key, unknown, size), text), inHidden = countColor(draw(key, hidden, size), text);
        const inZero = countColor(draw(key, zero, size), text);
        expect({ key, size: sizeName(size), noCount: inUnknown <= inHidden, zeroWouldShow: inZero > inUnknown })
          .toEqual({ key, size: sizeName(size), noCount: true, zeroWouldShow: true });
      }
    }
  });

  test("an offline server's missing count is no unknown: a dash in the count's colour, as before", () => {
    const offline: ServerBannerData = { ...unknown, status: "offline" };
    const offlineHidden: ServerBannerData = { ...offline, hidden: new Set(["players"]) };
    for (const size of BANNER_SIZES) {
      for (const key of ["minimal-status", "card", "players-bar", "sparkline"]) {
        const { text } = PALETTES.dark;
        const dash = countColor(draw(key, offline, size), text) > countColor(draw(key, offlineHidden, size), text);
        expect({ key, size: sizeName(size), dash }).toEqual({ key, size: sizeName(size), dash: true });
      }
    }
  });
});
