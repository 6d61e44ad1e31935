// A contact sheet: rows of banners on a page-grey sheet, to look at many at
// once (the preview script, the banner goldens in docs/gallery). 1200x300 is
// shown at half size, as pages show it.

import { Pixmap, drawImage, halve, parseHexColor } from "../../src/render/index.ts";

const GAP = 16;
const PAGE = parseHexColor("#9aa3ad")!;

export function contactSheet(rows: Pixmap[][]): Pixmap {
  const shown = rows.map((row) => row.map((image) => (image.width > 900 ? halve(image) : image)));
  const width = Math.max(...shown.map((row) => row.reduce((sum, image) => sum + image.width + GAP, GAP)));
  const height = shown.reduce((sum, row) => sum + Math.max(...row.map((image) => image.height)) + GAP, GAP);
  const sheet = new Pixmap(width, height);
  sheet.fill(PAGE);
  let y = GAP;
  for (const row of shown) {
    let x = GAP;
    for (const image of row) {
      drawImage(sheet, image, { x, y, width: image.width, height: image.height });
      x += image.width + GAP;
    }
    y += Math.max(...row.map((image) => image.height)) + GAP;
  }
  return sheet;
}
