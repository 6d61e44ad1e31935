// The bench scenes drawn with Pennant's own engine, keeping between drawings
// what the server keeps (a render context from a cache budget at its default).

import { CacheBudget } from "../../src/cache/budget.ts";
import {
  Path, Pixmap, RenderContext, drawImage, drawTextLine, encodePng, fillPath, layoutText, linearGradient, parseHexColor,
  sansFamily, solid, type Color,
} from "../../src/render/index.ts";
import type { BadgeScene, BannerScene, Scene, TextItem } from "./scenes.ts";

const color = (hex: string): Color => parseHexColor(hex)!;

export const budget = new CacheBudget();
const context = new RenderContext(budget);

function drawText(p: Pixmap, t: TextItem, opacity = 1): void {
  const line = layoutText(t.text, { family: sansFamily(), size: t.size, bold: t.bold }, context);
  drawTextLine(p, line, t.align === "right" ? t.x - line.width : t.x, t.y, color(t.color), { opacity, context });
}

export function drawBanner(scene: BannerScene, icon: Pixmap): Pixmap {
  const { width, height } = scene;
  const p = new Pixmap(width, height);
  fillPath(p, new Path().roundRect(0, 0, width, height, scene.radius), linearGradient(0, 0, width, height, [
    { offset: 0, color: color(scene.gradient[0]) }, { offset: 1, color: color(scene.gradient[1]) },
  ]), { context });
  drawImage(p, icon, { x: scene.icon.x, y: scene.icon.y, width: scene.icon.size, height: scene.icon.size });
  for (const t of scene.texts) drawText(p, t);
  fillPath(p, new Path().circle(scene.dot.cx, scene.dot.cy, scene.dot.r), solid(color(scene.dot.color)), { context });
  return p;
}

export function drawBadge(scene: BadgeScene): Pixmap {
  const { width, height, split } = scene;
  const p = new Pixmap(width, height);
  // Each segment is its own rounded shape: no clip mask to build and apply.
  fillPath(p, new Path().roundRect(0, 0, split, height, [3, 0, 0, 3]), solid(color(scene.colors[0])), { context });
  fillPath(p, new Path().roundRect(split, 0, width - split, height, [0, 3, 3, 0]), solid(color(scene.colors[1])), { context });
  fillPath(p, new Path().roundRect(0, 0, width, height, 3), linearGradient(0, 0, 0, height, [
    { offset: 0, color: { r: 187, g: 187, b: 187, a: 26 } }, { offset: 1, color: { r: 0, g: 0, b: 0, a: 26 } },
  ]), { context });
  for (const t of scene.texts) {
    drawText(p, { ...t, y: t.y + 1, color: "#010101" }, 0.3);
    drawText(p, t);
  }
  return p;
}

/** Draw and encode one scene: what a request costs. */
export function renderPng(scene: Scene, icon: Pixmap): Uint8Array {
  return encodePng(scene.kind === "banner" ? drawBanner(scene, icon) : drawBadge(scene));
}
