// Drawing text: exact pixels for the pixel face (it must stay sharp), ink
// exactly where the layout puts each glyph, the glyph cache's bounds and
// decorations. Glyph outlines against resvg: ../reference.test.ts; golden
// images of Latin, CJK, symbols and MOTDs: ../gallery.test.ts.

import { describe, expect, test } from "bun:test";
import { BoundedCache } from "../../../src/cache/bounded-cache.ts";
import {
  GlyphCache, Pixmap, drawFormattedLine, maskBytes, drawTextLine, layoutFormatted, layoutText, pixelFamily, rgba,
  sansFamily, type FontStyle, type Mask, type Pixmap as PixmapType, type TextLine,
} from "../../../src/render/index.ts";
import { parseFormatted, splitLines } from "../../../src/minecraft/format.ts";
import { SUBPIXEL_STEPS } from "../../../src/render/text/glyph-cache.ts";
import { parsePixelFont } from "../../../src/render/text/pixel-face.ts";
import pixelSource from "../../../glyphs/pixel/pennant-pixel.txt" with { type: "text" };

const WHITE = rgba(255, 255, 255);
const sans: FontStyle = { family: sansFamily(), size: 16 };
const pixel: FontStyle = { family: pixelFamily(), size: 16 };

/** Glyph masks in a cache of `maxBytes`, as the application's budget makes them. */
const maskStore = (maxBytes = 8 * 1024 * 1024) => new BoundedCache<Mask, number>({ maxBytes, sizeOf: maskBytes });

const alphaAt = (p: PixmapType, x: number, y: number) => p.data[(y * p.width + x) * 4 + 3]!;

describe("pixel face", () => {
  test("draws each font pixel as a sharp 2x2 block at size 16", () => {
    const bitmaps = parsePixelFont(pixelSource);
    for (const char of "AgW@") {
      const glyph = bitmaps.get(char.codePointAt(0)!)!;
      const p = new Pixmap(16, 24);
      // Pen at x = 2.4 (snapped to whole pixels), baseline 15: rows 0-6 sit on y 1..14.
      drawTextLine(p, layoutText(char, pixel), 2.4, 15, WHITE);
      for (let y = 0; y < 24; y++) {
        for (let x = 0; x < 16; x++) {
          const row = Math.floor((y - 1) / 2), column = Math.floor((x - 2) / 2);
          const ink = y >= 1 && x >= 2 && (glyph.rows[row]?.[column] ?? false);
          expect({ char, x, y, alpha: alphaAt(p, x, y) }).toEqual({ char, x, y, alpha: ink ? 255 : 0 });
        }
      }
    }
  });
});

describe("placement", () => {
  interface Box { left: number; top: number; right: number; bottom: number }

  /** First and last columns and rows with any ink. */
  function inkBox(p: PixmapType): Box {
    const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        if (alphaAt(p, x, y) === 0) continue;
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
    return box;
  }

  /**
   * The pixels the glyphs' outlines cover, from the layout alone: each outline
   * (straight lines only, so its points bound it) scaled to the glyph's size,
   * its pen at the line's x plus the glyph's x, in quarter pixels for outline
   * faces and whole pixels for pixel faces, on the baseline.
   */
  function layoutBox(line: TextLine, x: number, baseline: number): Box {
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const glyph of line.glyphs) {
      const scale = glyph.size / glyph.face.metrics.unitsPerEm;
      const steps = glyph.face.pixelAligned ? 1 : SUBPIXEL_STEPS;
      const pen = Math.round((x + glyph.x) * steps) / steps;
      const coords = glyph.face.outline(glyph.glyphId).coords;
      for (let i = 0; i < coords.length; i += 2) {
        minX = Math.min(minX, pen + coords[i]! * scale);
        maxX = Math.max(maxX, pen + coords[i]! * scale);
        minY = Math.min(minY, baseline + glyph.y - coords[i + 1]! * scale);
        maxY = Math.max(maxY, baseline + glyph.y - coords[i + 1]! * scale);
      }
    }
    return { left: Math.floor(minX), top: Math.floor(minY), right: Math.ceil(maxX) - 1, bottom: Math.ceil(maxY) - 1 };
  }

  // Strings of letters with flat feet on the baseline, and with a star (which reaches below it).
  const cases: Array<[string, FontStyle, number]> = [
    ["H", sans, 10],
    ["LIFT", sans, 10.25],
    ["H", { ...sans, size: 23 }, 7.5],
    ["H", pixel, 10],
    ["LIFT", pixel, 10.4],
    ["LIFT ★", sans, 10.75],
    ["LIFT ★", pixel, 10],
  ];
  for (const [text, style, x] of cases) {
    test(`"${text}" at ${style.size} px in ${style.family.regular.name}, pen at ${x}: ink exactly in the layout's box`, () => {
      const line = layoutText(text, style);
      // Every character has a real glyph (id 0 is the .notdef box).
      expect(line.glyphs.filter((glyph) => glyph.glyphId === 0)).toEqual([]);
      const p = new Pixmap(120, 40);
      drawTextLine(p, line, x, 30, WHITE);
      const box = layoutBox(line, x, 30);
      expect(inkBox(p)).toEqual(box);
      // Flat feet stand on the baseline: the last inked row is the one above it.
      if (!text.includes("★")) expect(box.bottom).toBe(29);
    });
  }
});

describe("outline glyphs", () => {
  test("quarter-pixel pen positions give four distinct renderings; a whole pixel is an exact shift", () => {
    const draw = (x: number) => {
      const p = new Pixmap(40, 30);
      drawTextLine(p, layoutText("l", sans), x, 20, WHITE);
      return p;
    };
    const columnInk = (p: PixmapType) => Array.from({ length: 40 }, (_, x) => {
      let sum = 0;
      for (let y = 0; y < 30; y++) sum += alphaAt(p, x, y);
      return sum;
    });
    const [a, b, c, d, e] = [10, 10.25, 10.5, 10.75, 11].map((x) => columnInk(draw(x)));
    const distinct = new Set([a, b, c, d].map((ink) => ink!.join(",")));
    expect(distinct.size).toBe(4);
    // Ink moves right: the first inked column loses coverage at each step.
    expect(a![11]!).toBeGreaterThan(b![11]!);
    expect(b![11]!).toBeGreaterThan(c![11] ?? 0);
    expect(e).toEqual([0, ...a!.slice(0, 39)]);
    // Exact area coverage keeps the total ink (within byte rounding).
    const total = (ink: number[]) => ink.reduce((sum, v) => sum + v, 0);
    for (const ink of [b!, c!, d!]) expect(Math.abs(total(ink) - total(a!))).toBeLessThan(total(a!) * 0.01);
  });
});

describe("glyph cache", () => {
  test("draws a repeated string from cached masks", () => {
    const masks = maskStore();
    const cache = new GlyphCache(masks);
    const p = new Pixmap(200, 30);
    const line = layoutText("banana", sans);
    drawTextLine(p, line, 5, 20, WHITE, { glyphCache: cache });
    const first = masks.stats;
    // b, a and n, each at the quarter-pixel steps where the pen met it.
    expect(first.misses).toBeGreaterThanOrEqual(3);
    expect(first.misses).toBeLessThan(6);
    drawTextLine(p, line, 5, 20, WHITE, { glyphCache: cache });
    expect(masks.stats.misses).toBe(first.misses);
    expect(masks.stats.hits).toBe(first.hits + 6);
  });

  test("stays within its byte budget, dropping the least recently used", () => {
    const masks = maskStore(64 * 1024);
    const cache = new GlyphCache(masks);
    const p = new Pixmap(400, 120);
    const text = "The quick brown fox jumps over the lazy dog 中文日本語한국어";
    const lines = [12, 24, 48, 72, 96].map((size) => layoutText(text, { ...sans, size }));
    for (const line of lines) drawTextLine(p, line, 0, 100, WHITE, { glyphCache: cache });
    const { bytes, entries } = masks.stats;
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(entries).toBeGreaterThan(0);
    // The glyph drawn last is still held; the first line's glyphs were dropped.
    const before = masks.stats.misses;
    const last = lines[4]!;
    drawTextLine(p, { ...last, glyphs: [last.glyphs.at(-1)!] }, 0, 100, WHITE, { glyphCache: cache });
    expect(masks.stats.misses).toBe(before);
    drawTextLine(p, { ...lines[0]!, glyphs: [lines[0]!.glyphs[0]!] }, 0, 100, WHITE, { glyphCache: cache });
    expect(masks.stats.misses).toBe(before + 1);
  });

  test("caches of different masks share one store side by side, each drawing as it would alone", () => {
    const line = layoutText("Il", sans);
    const shared = maskStore();
    const alone = (glyphCache: GlyphCache) => {
      const p = new Pixmap(60, 40);
      drawTextLine(p, line, 20, 25, WHITE, { glyphCache });
      return p.data;
    };
    const sharp = alone(new GlyphCache(maskStore()));
    const soft = alone(new GlyphCache(maskStore(), { blur: 1.6 }, 1));
    for (let round = 0; round < 2; round++) {
      expect(Buffer.from(alone(new GlyphCache(shared))).equals(Buffer.from(sharp))).toBe(true);
      expect(Buffer.from(alone(new GlyphCache(shared, { blur: 1.6 }, 1))).equals(Buffer.from(soft))).toBe(true);
    }
    expect(shared.stats).toMatchObject({ entries: 4, hits: 4 });
    expect(() => new GlyphCache(shared, null, 16)).toThrow(RangeError);
  });

  test("a blurring cache draws soft text: the same ink spread further, no pixel as dark", () => {
    const line = layoutText("Il", sans);
    const sharp = new Pixmap(60, 40), soft = new Pixmap(60, 40);
    drawTextLine(sharp, line, 20, 25, WHITE);
    drawTextLine(soft, line, 20, 25, WHITE, { glyphCache: new GlyphCache(maskStore(), { blur: 1.6 }) });
    const alphas = (p: PixmapType) => Array.from({ length: p.width * p.height }, (_, i) => p.data[i * 4 + 3]!);
    const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
    // Blurring moves ink, it does not add or remove it (two glyphs far enough apart not to overlap).
    expect(Math.abs(sum(alphas(soft)) - sum(alphas(sharp)))).toBeLessThan(sum(alphas(sharp)) * 0.03);
    expect(Math.max(...alphas(soft))).toBeLessThan(Math.max(...alphas(sharp)) * 0.7);
    const inked = (p: PixmapType) => alphas(p).filter((a) => a > 0).length;
    expect(inked(soft)).toBeGreaterThan(inked(sharp) * 2);
    // The halo reaches past the I's left edge by about 2 sigma (further out it rounds to nothing).
    const firstColumn = (p: PixmapType) => Math.min(...alphas(p).flatMap((a, i) => (a > 0 ? [i % p.width] : [])));
    expect(firstColumn(sharp) - firstColumn(soft)).toBeGreaterThanOrEqual(3);
  });

  test("a shadow cache holds a blurred copy and a sharp one over it as one mask: one draw, the same pixels as the two layers", () => {
    // A dark shadow colour on a light ground, as badges draw it, with glyphs close enough for their halos to overlap.
    const shadow = rgba(1, 1, 1);
    const line = layoutText("Shadow 13k", sans);
    const layered = new Pixmap(120, 40), once = new Pixmap(120, 40);
    layered.fill(rgba(68, 204, 17));
    once.fill(rgba(68, 204, 17));
    drawTextLine(layered, line, 6.25, 26, shadow, { opacity: 0.8, glyphCache: new GlyphCache(maskStore(), { blur: 1.6 }) });
    drawTextLine(layered, line, 6.25, 26, shadow, { opacity: 0.3 });
    const masks = maskStore();
    const cache = new GlyphCache(masks, { blur: 1.6, blurOpacity: 0.8, sharpOpacity: 0.3 });
    drawTextLine(once, line, 6.25, 26, shadow, { glyphCache: cache });
    let darkened = 0, largest = 0;
    for (let i = 0; i < once.data.length; i++) {
      largest = Math.max(largest, Math.abs(once.data[i]! - layered.data[i]!));
      if (i % 4 === 1 && once.data[i]! < 200) darkened++;
    }
    // Rounded once instead of twice: a level or two apart, never more.
    expect(largest).toBeLessThanOrEqual(2);
    expect(darkened).toBeGreaterThan(100);
    // One glyph mask per glyph drawn, not two, cut to its ink (the blur's margin is wider than its reach).
    expect(masks.stats.hits + masks.stats.misses).toBe(line.glyphs.length);
    const mask = cache.get(line.glyphs[0]!.face, line.glyphs[0]!.glyphId, line.glyphs[0]!.size, 0, false);
    expect(Math.max(...mask.data.subarray(0, mask.width))).toBeGreaterThan(0);
    expect(Math.max(...mask.data.subarray(mask.data.length - mask.width))).toBeGreaterThan(0);
  });
});

describe("decorations", () => {
  test("underline sits below the baseline and strikethrough across the x-height, both as wide as the text", () => {
    const line = layoutText("Underlined", sans);
    const p = new Pixmap(120, 30);
    drawTextLine(p, line, 4, 20, WHITE, { underline: true, strikethrough: true });
    const underlineRow = 20 + Math.round(line.underline.offset);
    const strikeRow = 20 + Math.round(line.strikethrough.offset);
    expect(underlineRow).toBeGreaterThan(20);
    expect(strikeRow).toBeLessThan(20);
    for (const row of [underlineRow, strikeRow]) {
      expect(alphaAt(p, 4, row)).toBe(255);
      expect(alphaAt(p, 4 + Math.round(line.width) - 1, row)).toBe(255);
      expect(alphaAt(p, 4 + Math.round(line.width) + 1, row)).toBe(0);
    }
  });
});

describe("formatted text", () => {
  test("draws runs in their colours with the game's quarter-colour shadow", () => {
    const runs = splitLines(parseFormatted("§cRed§r plain"))[0]!;
    const formatted = layoutFormatted(runs, pixelFamily(), 16);
    expect(formatted.pieces.map((piece) => piece.color)).toEqual([rgba(255, 85, 85), null]);
    const p = new Pixmap(140, 24);
    drawFormattedLine(p, formatted, 0, 15, { defaultColor: rgba(170, 170, 170), shadowOffset: 2 });
    // 'R' starts with a full column at x 0-1 from y 1; its shadow shows two pixels lower at the foot.
    expect(p.pixel(0, 1)).toEqual(rgba(255, 85, 85));
    expect(p.pixel(2, 16)).toEqual(rgba(63, 21, 21));
    // " plain": the space advances 4 font pixels, then 'p' has ink in its first column from row 2.
    const plainX = Math.round(formatted.pieces[1]!.x) + 8;
    expect(p.pixel(plainX, 6)).toEqual(rgba(170, 170, 170));
  });

  test("cuts an overflowing line with an ellipsis inside the run that overflows", () => {
    const runs = splitLines(parseFormatted("§aWelcome to §6the best server §bin the world"))[0]!;
    const formatted = layoutFormatted(runs, sansFamily(), 14, 150);
    expect(formatted.width).toBeLessThanOrEqual(150);
    expect(formatted.pieces.length).toBe(2);
    const last = formatted.pieces[1]!.line.glyphs;
    expect(last.at(-1)!.glyphId).toBe(sansFamily().regular.shape("…").glyphIds[0]!);
  });

  test("obfuscated text is scrambled the same way every time, keeping spaces", () => {
    const runs = parseFormatted("§kab cd");
    const a = layoutFormatted(runs, sansFamily(), 14);
    const b = layoutFormatted(runs, sansFamily(), 14);
    expect(a.pieces[0]!.line.glyphs.map((g) => g.glyphId)).toEqual(b.pieces[0]!.line.glyphs.map((g) => g.glyphId));
    const plain = layoutText("ab cd", { family: sansFamily(), size: 14 }).glyphs.map((g) => g.glyphId);
    const scrambled = a.pieces[0]!.line.glyphs.map((g) => g.glyphId);
    expect(scrambled).not.toEqual(plain);
    expect(scrambled[2]).toBe(plain[2]);
  });
});
