// Badge pictures in docs/gallery, compared by test/badge/gallery.test.ts and
// written only by `npm run gallery:update`: every style with a few metrics,
// and ours next to shields' own SVG (badge-maker) rendered by resvg with the
// same DejaVu faces, the closest a machine without Verdana shows shields.

import { Resvg } from "@resvg/resvg-js";
import { makeBadge } from "badge-maker";
import { join } from "node:path";
import { parseBadgeColor } from "../../../src/badge/colors.ts";
import { drawBadge } from "../../../src/badge/draw-badge.ts";
import { layoutBadge } from "../../../src/badge/badge-layout.ts";
import { STYLE_NAMES, type StyleName } from "../../../src/badge/styles.ts";
import { Pixmap, decodePng, drawImage, rgba } from "../../../src/render/index.ts";
import type { Scene } from "../../render/support/gallery-scenes.ts";

const FONT_DIR = join(import.meta.dir, "../../../glyphs/dejavu");
const GAP = 8;

interface Sample {
  label: string;
  message: string;
  color: string;
  labelColor?: string;
}

/** Metrics as the routes show them, and two colours asked for in the query (one light, for dark text). */
const SAMPLES: Sample[] = [
  { label: "downloads", message: "13k", color: "brightgreen" },
  { label: "version", message: "v3.2.1-beta.2", color: "orange" },
  { label: "minecraft", message: "1.8-1.21", color: "blue" },
  { label: "license", message: "GPL-3.0", color: "orange" },
  { label: "status", message: "inactive", color: "lightgrey" },
  { label: "players", message: "3/50", color: "brightgreen" },
  { label: "stars", message: "321", color: "ff69b4", labelColor: "2b2b2b" },
  { label: "server", message: "online", color: "ffd", labelColor: "teal" },
];

function ours(sample: Sample, style: StyleName, scale: 1 | 2): Pixmap {
  return drawBadge(layoutBadge({
    label: sample.label,
    message: sample.message,
    color: parseBadgeColor(sample.color)!,
    labelColor: sample.labelColor ? parseBadgeColor(sample.labelColor)! : undefined,
    style,
  }), scale);
}

/** badge-maker's SVG for the same badge, rendered by resvg with DejaVu Sans only (no system fonts). */
function shields(sample: Sample, style: StyleName, scale: number): Pixmap {
  const color = (value: string) => (/^[0-9a-f]{3,6}$/.test(value) ? `#${value}` : value);
  const svg = makeBadge({
    label: sample.label, message: sample.message, color: color(sample.color), style,
    ...(sample.labelColor ? { labelColor: color(sample.labelColor) } : {}),
  });
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    font: { fontFiles: [join(FONT_DIR, "DejaVuSans.ttf"), join(FONT_DIR, "DejaVuSans-Bold.ttf")], loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
  });
  const decoded = decodePng(resvg.render().asPng());
  if (!decoded.ok) throw new Error(decoded.message);
  return decoded.image;
}

/** Rows of images on a white sheet, left-aligned, GAP apart. */
function sheet(rows: Pixmap[][]): Pixmap {
  const width = Math.max(...rows.map((row) => row.reduce((sum, image) => sum + image.width + GAP, GAP)));
  const height = rows.reduce((sum, row) => sum + Math.max(...row.map((image) => image.height)) + GAP, GAP);
  const out = new Pixmap(width, height);
  out.fill(rgba(255, 255, 255));
  let y = GAP;
  for (const row of rows) {
    let x = GAP;
    for (const image of row) {
      drawImage(out, image, { x, y, width: image.width, height: image.height });
      x += image.width + GAP;
    }
    y += Math.max(...row.map((image) => image.height)) + GAP;
  }
  return out;
}

export const BADGE_GALLERY_DIR = join(import.meta.dir, "../../../docs/gallery");

export const BADGE_GALLERY_SCENES: Scene[] = [
  {
    file: "badges.png",
    title: "every style (rows) with metrics and query colours (columns), 1x; the last row flat at scale=2",
    draw: () => sheet([
      ...STYLE_NAMES.map((style) => SAMPLES.map((sample) => ours(sample, style, 1))),
      SAMPLES.slice(0, 4).map((sample) => ours(sample, "flat", 2)),
    ]),
  },
  {
    file: "badges-vs-shields.png",
    title: "ours (left) next to shields' badge-maker SVG rendered by resvg (right), each style, 2x",
    draw: () => sheet(STYLE_NAMES.flatMap((style) => [SAMPLES[0]!, SAMPLES[7]!].map((sample) => [ours(sample, style, 2), shields(sample, style, 2)]))),
  },
];
