// The example gallery in docs/gallery/: every image is drawn here and
// compared with the committed copy (support/golden.ts).

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  Path, Pixmap, blurMask, drawImage, drawMask, fillPath, linearGradient, radialGradient,
  rasterizeToMask, rgba, rotate, solid, strokePath, then, translate,
} from "../../src/render/index.ts";
import { matchGolden } from "./support/golden.ts";

const GALLERY = join(import.meta.dir, "../../docs/gallery");

function keep(name: string, pixmap: Pixmap): void {
  matchGolden(join(GALLERY, name), pixmap);
}

/** A 16x16 pixel-art block, standing in for a server favicon. */
function pixelArt(): Pixmap {
  const palette = [[95, 159, 53], [121, 192, 72], [134, 96, 67], [110, 78, 54], [150, 108, 74]];
  const p = new Pixmap(16, 16);
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const noise = (x * 7 + y * 13 + ((x * y) % 5)) % 3;
      const grass = y < 4 || (y === 4 && noise !== 0);
      const [r, g, b] = palette[grass ? noise % 2 : 2 + noise]!;
      p.data.set([r!, g!, b!, 255], (y * 16 + x) * 4);
    }
  }
  return p;
}

const background = (p: Pixmap) => p.fill(rgba(246, 246, 250));

describe("gallery", () => {
  test("shapes: circles, curves, a star (even-odd), rounded rectangles", () => {
    const p = new Pixmap(480, 160);
    background(p);
    for (let i = 0; i < 6; i++) fillPath(p, new Path().circle(30 + i * 26, 40, 4 + i * 2.2), solid(rgba(220, 60 + i * 25, 40)));
    fillPath(p, new Path().moveTo(20, 150).cubicTo(60, 60, 120, 170, 170, 90).quadTo(120, 150, 60, 155).close(), solid(rgba(40, 110, 200)));
    const star = new Path();
    for (let i = 0; i < 5; i++) {
      const a = -Math.PI / 2 + (i * 4 * Math.PI) / 5;
      if (i === 0) star.moveTo(260 + 60 * Math.cos(a), 85 + 60 * Math.sin(a));
      else star.lineTo(260 + 60 * Math.cos(a), 85 + 60 * Math.sin(a));
    }
    fillPath(p, star.close(), solid(rgba(240, 180, 20)), { fillRule: "evenodd" });
    fillPath(p, new Path().roundRect(345, 20, 120, 50, 12), solid(rgba(60, 160, 90)));
    fillPath(p, new Path().roundRect(345.5, 85.5, 120, 60, [4, 20, 4, 20]), solid(rgba(130, 60, 170, 200)));
    fillPath(p, new Path().rect(0, 0, 1, 1).rect(0.2, 0, 0.3, 1), solid(rgba(20, 20, 20)), { transform: then(then(translate(-0.5, -0.5), rotate(0.5)), then({ a: 30, b: 0, c: 0, d: 30, e: 0, f: 0 }, translate(420, 110))) });
    keep("shapes.png", p);
  });

  test("strokes: joins, caps, a circle and a curve", () => {
    const p = new Pixmap(480, 120);
    background(p);
    const zigzag = (x: number) => new Path().moveTo(x, 100).lineTo(x + 25, 25).lineTo(x + 50, 90).lineTo(x + 90, 40);
    strokePath(p, zigzag(15), { width: 10, join: "miter", cap: "butt" }, solid(rgba(200, 50, 50)));
    strokePath(p, zigzag(130), { width: 10, join: "round", cap: "round" }, solid(rgba(50, 120, 200)));
    strokePath(p, zigzag(245), { width: 10, join: "bevel", cap: "square" }, solid(rgba(60, 150, 70)));
    strokePath(p, new Path().circle(410, 60, 40), { width: 3 }, solid(rgba(40, 40, 40)));
    strokePath(p, new Path().moveTo(375, 90).cubicTo(395, 10, 425, 110, 445, 30), { width: 1.5, cap: "round" }, solid(rgba(220, 120, 0)));
    keep("strokes.png", p);
  });

  test("gradients: linear with three stops, radial, translucent", () => {
    const p = new Pixmap(480, 120);
    background(p);
    fillPath(p, new Path().roundRect(10, 10, 300, 100, 14), linearGradient(10, 10, 310, 110, [
      { offset: 0, color: rgba(255, 70, 90) }, { offset: 0.5, color: rgba(250, 200, 60) }, { offset: 1, color: rgba(40, 90, 230) },
    ]));
    fillPath(p, new Path().circle(390, 60, 50), radialGradient(375, 45, 60, [
      { offset: 0, color: rgba(255, 255, 255) }, { offset: 1, color: rgba(20, 60, 140) },
    ]));
    fillPath(p, new Path().rect(200, 30, 260, 60), linearGradient(200, 0, 460, 0, [
      { offset: 0, color: rgba(0, 0, 0, 0) }, { offset: 1, color: rgba(0, 0, 0, 200) },
    ]));
    keep("gradients.png", p);
  });

  test("clip: a banner's rounded corners, a gradient and an icon clipped to them", () => {
    const p = new Pixmap(468, 60);
    const clip = rasterizeToMask(new Path().roundRect(0, 0, 468, 60, 10));
    fillPath(p, new Path().rect(0, 0, 468, 60), linearGradient(0, 0, 468, 60, [
      { offset: 0, color: rgba(32, 40, 70) }, { offset: 1, color: rgba(90, 40, 120) },
    ]), { clip });
    drawImage(p, pixelArt(), { x: -8, y: -4, width: 64, height: 64 }, { clip });
    fillPath(p, new Path().circle(450, 12, 5), solid(rgba(80, 220, 100)), { clip });
    expect(p.pixel(0, 0).a).toBe(0);
    expect(p.pixel(234, 30).a).toBe(255);
    keep("clip.png", p);
  });

  test("blur: a soft shadow under a card", () => {
    const p = new Pixmap(300, 120);
    background(p);
    const card = new Path().roundRect(40, 25, 220, 70, 12);
    drawMask(p, blurMask(rasterizeToMask(card), 6), 0, 6, rgba(0, 0, 0, 110));
    fillPath(p, card, solid(rgba(255, 255, 255)));
    fillPath(p, new Path().circle(75, 60, 18), solid(rgba(250, 170, 30)));
    // The shadow shows below the card, fading outwards.
    expect(p.pixel(150, 100).r).toBeLessThan(p.pixel(150, 110).r);
    keep("blur.png", p);
  });

  test("image scaling: nearest for whole up-scales, bilinear otherwise, averaged down-scales", () => {
    const p = new Pixmap(360, 110);
    background(p);
    const icon = pixelArt();
    drawImage(p, icon, { x: 10, y: 10, width: 16, height: 16 });
    drawImage(p, icon, { x: 40, y: 10, width: 64, height: 64 });
    drawImage(p, icon, { x: 120, y: 10, width: 90, height: 90 });
    const big = new Pixmap(256, 256);
    drawImage(big, icon, { x: 0, y: 0, width: 256, height: 256 });
    drawImage(p, big, { x: 230, y: 10, width: 40, height: 40 });
    drawImage(p, icon, { x: 290, y: 10, width: 60, height: 90 }, { opacity: 0.6 });
    keep("image-scaling.png", p);
  });
});
