// Fetching banners from either service and measuring them from their pixels
// alone, the same way for both: size, bytes, time, and the contrast of a text
// element, found by drawing it twice with different words.

import { contrastRatio } from "../../src/banner/contrast.ts";
import { percentile } from "../report/stats.ts";
import {
  Path, Pixmap, decodePng, drawImage, drawTextLine, fillPath, halve, layoutText, parseHexColor, sansFamily, solid,
} from "../../src/render/index.ts";

export interface Fetched {
  url: string;
  status: number;
  bytes: number;
  ms: number;
  /** Null when the answer is not a PNG (MCBanners answers 404 with no body for an offline server). */
  image: Pixmap | null;
}

/** Up to a 1200x300 banner at scale 2. */
const BANNER_LIMITS = { maxWidth: 2400, maxHeight: 600, maxBytes: 8 * 1024 * 1024 };

export async function fetchImage(url: string): Promise<Fetched> {
  const started = performance.now();
  const response = await fetch(url);
  const body = new Uint8Array(await response.arrayBuffer());
  const ms = performance.now() - started;
  const decoded = response.ok ? decodePng(body, BANNER_LIMITS) : null;
  return { url, status: response.status, bytes: body.length, ms, image: decoded?.ok ? decoded.image : null };
}

/** A channel moved by more than this between the two drawings: part of a glyph, not a rounding difference. */
const CHANGED = 32;
/**
 * The share of changed pixels below the reported contrast: glyph cores, past
 * their anti-aliased edges (at 10-14 px most of a glyph's pixels are edges),
 * and short of the few extreme pixels of a textured background.
 */
const PERCENTILE = 0.98;

/**
 * The contrast of one text element against what is behind it: the same banner
 * drawn with two different words there; where a pixel changed, one drawing has
 * the glyph and the other the background (or glyphs of both), so the ratio
 * between the two colours, at the 98th percentile of the changed pixels, is
 * about the text's contrast on its own background, whatever the
 * background is (gradient, texture, picture). Null when nothing changed.
 */
export function textContrast(a: Pixmap, b: Pixmap): number | null {
  if (a.width !== b.width || a.height !== b.height) return null;
  const ratios: number[] = [];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const p = a.pixel(x, y), q = b.pixel(x, y);
      if (p.a < 255 || q.a < 255) continue;
      if (Math.max(Math.abs(p.r - q.r), Math.abs(p.g - q.g), Math.abs(p.b - q.b)) <= CHANGED) continue;
      ratios.push(contrastRatio(p, q));
    }
  }
  return ratios.length === 0 ? null : percentile(Float64Array.from(ratios).sort(), PERCENTILE);
}

const PAGE = parseHexColor("#9aa3ad")!;
const INK = parseHexColor("#0f172a")!;
const CAPTION_SIZE = 13;
const CAPTION_HEIGHT = 20;

/** `image` with `caption` under it on the contact sheet's page grey; a 1200-wide image is halved first, as pages show it. */
export function captioned(image: Pixmap, caption: string): Pixmap {
  const shown = image.width > 900 ? halve(image) : image;
  const line = layoutText(caption, { family: sansFamily(), size: CAPTION_SIZE });
  const cell = new Pixmap(Math.max(shown.width, Math.ceil(line.width)), shown.height + CAPTION_HEIGHT);
  cell.fill(PAGE);
  drawImage(cell, shown, { x: 0, y: 0, width: shown.width, height: shown.height });
  drawTextLine(cell, line, 0, shown.height + CAPTION_HEIGHT - 5, INK);
  return cell;
}

/** What a page shows where an image failed: an empty framed box of the expected size, with the reason in it. */
export function brokenImage(width: number, height: number, reason: string): Pixmap {
  const box = new Pixmap(width, height);
  box.fill(parseHexColor("#e2e8f0")!);
  fillPath(box, new Path().rect(0, 0, width, 1).rect(0, height - 1, width, 1).rect(0, 0, 1, height).rect(width - 1, 0, 1, height), solid(INK));
  const line = layoutText(reason, { family: sansFamily(), size: CAPTION_SIZE });
  drawTextLine(box, line, (width - line.width) / 2, height / 2 + 4, INK);
  return box;
}
