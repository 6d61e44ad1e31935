// The image a banner URL answers with when it cannot draw the banner (a bad
// parameter, too many requests): an <img> tag on a forum shows what went
// wrong instead of a broken-image icon. A dark panel with a red edge, a
// small caption and the message: one line on the strips (shrunk, then
// ellipsized), wrapped onto up to three lines in the 300x250 box.

import {
  Path, Pixmap, drawTextLine, ellipsize, fillPath, layoutText, measureText, parseHexColor, sansFamily, solid, type Color, type FontStyle,
} from "../render/index.ts";
import type { BannerSize } from "./model.ts";
import { plainRun } from "../minecraft/format.ts";
import { wrapRuns } from "./wrap.ts";

const hex = (text: string): Color => parseHexColor(text)!;
const COLORS = { panel: hex("#1e293b"), edge: hex("#ef4444"), caption: hex("#fca5a5"), message: hex("#f1f5f9") };

export const ERROR_CAPTION = "Banner error";

/** Lines of the message a box as tall as this may hold. */
function maxLines(size: BannerSize): number {
  return size.height >= 150 ? 3 : 1;
}

/** Pixel sizes: 1 unit on the 468x60 strip and the narrow 300x250 box, 1.5 on the larger strips. */
function textSizes(size: BannerSize) {
  const unit = Math.min(size.height, 90, size.width / 5) / 60;
  return { caption: Math.round(10 * unit), max: Math.round(14 * unit), min: Math.round(10 * unit) };
}

/** The message as lines that fit `width`: the largest size at which it fits, else the smallest with the last line cut. */
function messageLines(message: string, width: number, lines: number, sizes: { max: number; min: number }): { style: FontStyle; lines: string[] } {
  for (let px = sizes.max; px >= sizes.min; px--) {
    const style = { family: sansFamily(), size: px };
    const measure = (text: string) => measureText(text, style);
    const wrapped = wrapRuns([plainRun(message)], width, lines, (runs) => measure(runs.map((run) => run.text).join("")))
      .map((runs) => runs.map((run) => run.text).join(""));
    if (px === sizes.min || wrapped.every((line) => measure(line) <= width)) {
      return { style, lines: wrapped.map((line) => ellipsize(line, style, width)) };
    }
  }
  throw new Error("unreachable: the smallest size always returns");
}

export function drawErrorImage(message: string, size: BannerSize): Pixmap {
  const { width, height } = size;
  const pixmap = new Pixmap(width, height);
  const radius = Math.min(8, height / 8);
  const edge = Math.max(4, Math.round(Math.min(height, 90) / 15));
  fillPath(pixmap, new Path().roundRect(0, 0, width, height, radius), solid(COLORS.edge));
  fillPath(pixmap, new Path().roundRect(edge, 0, width - edge, height, [0, radius, radius, 0]), solid(COLORS.panel));

  const left = edge * 3;
  const sizes = textSizes(size);
  const caption = { family: sansFamily(), size: sizes.caption, bold: true };
  const { style, lines } = messageLines(message, width - left - edge * 2, maxLines(size), sizes);
  // Caption and message as one block, centred vertically.
  const gap = Math.round(sizes.caption * 0.6);
  const lineHeight = Math.round(style.size * 1.3);
  const block = sizes.caption + gap + style.size + lineHeight * (lines.length - 1);
  const captionBaseline = Math.round((height - block) / 2 + sizes.caption);
  drawTextLine(pixmap, layoutText(ERROR_CAPTION, caption), left, captionBaseline, COLORS.caption);
  lines.forEach((line, i) => {
    drawTextLine(pixmap, layoutText(line, style), left, captionBaseline + gap + style.size + i * lineHeight, COLORS.message);
  });
  return pixmap;
}
