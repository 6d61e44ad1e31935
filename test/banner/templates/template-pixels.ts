// What the per-template tests ask of a drawn banner's pixels: the layout a
// size draws with, regions in device pixels, pixels that differ between two
// drawings, pixels of one colour, and the rows a colour inks.

import { layoutFor, type LayoutKey } from "../../../src/banner/layout-keys.ts";
import { readableOn } from "../../../src/banner/contrast.ts";
import type { TextBlock } from "../../../src/banner/fit-text.ts";
import { backdrops, PALETTES } from "../../../src/banner/theme.ts";
import { parseHexColor } from "../../../src/render/index.ts";
import { BANNER_SIZES, type BannerElement, type BannerOptions, type BannerSize, type ServerBannerData } from "../../../src/banner/model.ts";
import { templates } from "../../../src/banner/templates/catalogue.ts";
import { drawings, renderBanner } from "../../../src/banner/templates/index.ts";
import type { Color, Pixmap } from "../../../src/render/index.ts";

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const STRIPS_AND_UP = BANNER_SIZES.filter((size) => size.width >= 728 || size.height >= 250);

export const sizeName = (size: BannerSize) => `${size.width}x${size.height}`;

export function layoutOf<T>(key: string, size: BannerSize): { layout: T; factor: number } {
  const choice = layoutFor(size)!;
  return { layout: drawings.get(key)!.layouts[choice.key as LayoutKey] as T, factor: choice.factor };
}

export function draw(key: string, data: ServerBannerData, size: BannerSize, options: Partial<BannerOptions> = {}): Pixmap {
  return renderBanner(key, data, { size, theme: "dark", scale: 1, ...options });
}

export const hiding = (data: ServerBannerData, ...elements: BannerElement[]): ServerBannerData => ({ ...data, hidden: new Set(elements) });

/** A layout box (CSS px) in device pixels, grown by `margin` CSS px each side, clamped to the image. */
export function area(box: Area, factor: number, p: Pixmap, margin = 0): Area {
  const x = Math.max(0, Math.floor((box.x - margin) * factor)), y = Math.max(0, Math.floor((box.y - margin) * factor));
  return {
    x, y,
    width: Math.min(p.width, Math.ceil((box.x + box.width + margin) * factor)) - x,
    height: Math.min(p.height, Math.ceil((box.y + box.height + margin) * factor)) - y,
  };
}

/** The box a text of `size` on `baseline` inks, from `x` over `width` (caps above, descenders below). */
export function textRow(x: number, width: number, baseline: number, size: number): Area {
  return { x, y: baseline - size, width, height: size * 1.3 };
}

const whole = (p: Pixmap): Area => ({ x: 0, y: 0, width: p.width, height: p.height });

/** Pixels that differ between two drawings of one size, within `where`. */
export function differing(a: Pixmap, b: Pixmap, where: Area = whole(a)): number {
  let count = 0;
  for (let y = where.y; y < where.y + where.height; y++) {
    for (let x = where.x; x < where.x + where.width; x++) if (a.pixels[y * a.width + x] !== b.pixels[y * a.width + x]) count++;
  }
  return count;
}

/** The smallest box holding every pixel that differs between two drawings of one size, or null. */
export function boundsOfDifference(a: Pixmap, b: Pixmap): Area | null {
  let top = Infinity, bottom = -1, left = Infinity, right = -1;
  for (let i = 0; i < a.pixels.length; i++) {
    if (a.pixels[i] === b.pixels[i]) continue;
    const x = i % a.width, y = Math.floor(i / a.width);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
    left = Math.min(left, x);
    right = Math.max(right, x);
  }
  return bottom < 0 ? null : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

const near = (a: Color, b: Color, tolerance: number) =>
  a.a === 255 && Math.abs(a.r - b.r) <= tolerance && Math.abs(a.g - b.g) <= tolerance && Math.abs(a.b - b.b) <= tolerance;

/** Opaque pixels within `tolerance` of `color`. */
export function countNear(p: Pixmap, color: Color, where: Area = whole(p), tolerance = 3): number {
  let count = 0;
  for (let y = where.y; y < where.y + where.height; y++) {
    for (let x = where.x; x < where.x + where.width; x++) if (near(p.pixel(x, y), color, tolerance)) count++;
  }
  return count;
}

/** The rows and columns holding `color` (within `tolerance`), or null. */
export function inkBounds(p: Pixmap, color: Color, where: Area = whole(p), tolerance = 0): Area | null {
  let top = Infinity, bottom = -1, left = Infinity, right = -1;
  for (let y = where.y; y < where.y + where.height; y++) {
    for (let x = where.x; x < where.x + where.width; x++) {
      if (!near(p.pixel(x, y), color, tolerance)) continue;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
  }
  return bottom < 0 ? null : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** `color`'s ink in `where` as rows of '#' and '.' (a glyph as the pixel font's file writes it). */
export function inkRows(p: Pixmap, color: Color, where: Area): string[] {
  const rows: string[] = [];
  for (let y = where.y; y < where.y + where.height; y++) {
    let row = "";
    for (let x = where.x; x < where.x + where.width; x++) row += near(p.pixel(x, y), color, 0) ? "#" : ".";
    rows.push(row);
  }
  return rows;
}

/**
 * Where each MOTD line inks in the MOTD's column (dark theme), drawn with
 * line 1 in §a and line 2 in §b: null for a line not drawn.
 */
export function motdLineInk(key: string, data: ServerBannerData, size: BannerSize, motd: TextBlock, factor: number, tolerance = 0): [Area | null, Area | null] {
  const p = draw(key, { ...data, motd: ["§aHello there", "§bSecond line"] }, size);
  const column = area({ x: motd.x, y: motd.baseline - motd.size.max - 2, width: motd.width, height: size.height }, factor, p);
  const ends = backdrops(PALETTES.dark);
  const ink = (hex: string) => inkBounds(p, readableOn(parseHexColor(hex)!, ends), column, tolerance);
  return [ink("#55ff55"), ink("#55ffff")];
}
