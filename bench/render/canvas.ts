// The bench scenes drawn with @napi-rs/canvas (Skia), the peer to beat.

import { createCanvas, GlobalFonts, Image, type SKRSContext2D } from "@napi-rs/canvas";
import type { BadgeScene, BannerScene, Scene, TextItem } from "./scenes.ts";

export interface CanvasText {
  /** Family names registered with GlobalFonts. */
  regular: string;
  bold: string;
}

export function registerFonts(regularPath: string, boldPath: string): CanvasText {
  GlobalFonts.registerFromPath(regularPath, "BenchRegular");
  GlobalFonts.registerFromPath(boldPath, "BenchBold");
  return { regular: "BenchRegular", bold: "BenchBold" };
}

function drawText(ctx: SKRSContext2D, t: TextItem, fonts: CanvasText, alpha = 1): void {
  ctx.globalAlpha = alpha;
  ctx.fillStyle = t.color;
  ctx.font = `${t.size}px ${t.bold ? fonts.bold : fonts.regular}`;
  ctx.textAlign = t.align;
  ctx.fillText(t.text, t.x, t.y);
  ctx.globalAlpha = 1;
}

function banner(scene: BannerScene, icon: Image, fonts: CanvasText) {
  const canvas = createCanvas(scene.width, scene.height);
  const ctx = canvas.getContext("2d");
  const gradient = ctx.createLinearGradient(0, 0, scene.width, scene.height);
  gradient.addColorStop(0, scene.gradient[0]);
  gradient.addColorStop(1, scene.gradient[1]);
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.roundRect(0, 0, scene.width, scene.height, scene.radius);
  ctx.fill();
  // Whole-number up-scales stay pixelated, like ours.
  ctx.imageSmoothingEnabled = scene.icon.size % 64 !== 0;
  ctx.drawImage(icon, scene.icon.x, scene.icon.y, scene.icon.size, scene.icon.size);
  for (const t of scene.texts) drawText(ctx, t, fonts);
  ctx.fillStyle = scene.dot.color;
  ctx.beginPath();
  ctx.arc(scene.dot.cx, scene.dot.cy, scene.dot.r, 0, Math.PI * 2);
  ctx.fill();
  return canvas;
}

function badge(scene: BadgeScene, fonts: CanvasText) {
  const { width, height, split } = scene;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.beginPath();
  ctx.roundRect(0, 0, width, height, 3);
  ctx.clip();
  ctx.fillStyle = scene.colors[0];
  ctx.fillRect(0, 0, split, height);
  ctx.fillStyle = scene.colors[1];
  ctx.fillRect(split, 0, width - split, height);
  const overlay = ctx.createLinearGradient(0, 0, 0, height);
  overlay.addColorStop(0, "rgba(187,187,187,0.1)");
  overlay.addColorStop(1, "rgba(0,0,0,0.1)");
  ctx.fillStyle = overlay;
  ctx.fillRect(0, 0, width, height);
  for (const t of scene.texts) {
    drawText(ctx, { ...t, y: t.y + 1, color: "#010101" }, fonts, 0.3);
    drawText(ctx, t, fonts);
  }
  return canvas;
}

export function loadIcon(png: Uint8Array): Image {
  const image = new Image();
  image.src = Buffer.from(png);
  return image;
}

export function canvasPng(scene: Scene, icon: Image, fonts: CanvasText): Uint8Array {
  const canvas = scene.kind === "banner" ? banner(scene, icon, fonts) : badge(scene, fonts);
  return canvas.encodeSync("png");
}

export function canvasWebp(scene: BannerScene, icon: Image, fonts: CanvasText): Promise<Buffer> {
  // Skia's WebP at quality 100 is lossless, as ours is by default.
  return banner(scene, icon, fonts).encode("webp", 100);
}
