// The bench badges drawn with @napi-rs/canvas (Skia) from our own layout: the
// same segments, overlay, texts and shadows at the same places, so that only
// the drawing and encoding differ. Social is left out (its bubble is a
// drawing of its own; the plate styles carry the comparison).

import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";
import type { PlateLayout } from "../../src/badge/badge-layout.ts";
import type { Color } from "../../src/render/index.ts";

const css = (c: Color, opacity = 1) => `rgba(${c.r},${c.g},${c.b},${((c.a / 255) * opacity).toFixed(3)})`;

export function registerCanvasFonts(regular: string, bold: string): void {
  GlobalFonts.registerFromPath(regular, "BadgeSans");
  GlobalFonts.registerFromPath(bold, "BadgeSansBold");
}

function text(ctx: SKRSContext2D, layout: PlateLayout, scale: number): void {
  const { shadow } = layout.style;
  ctx.textAlign = "left";
  for (const t of layout.texts) {
    ctx.font = `${t.font.size * scale}px ${t.font.bold ? "BadgeSansBold" : "BadgeSans"}`;
    const x = t.x * scale, y = t.baseline * scale;
    if (shadow) {
      ctx.fillStyle = css(t.colors.shadow, shadow.opacity);
      ctx.fillText(t.text, x, y + scale, t.width * scale);
      ctx.shadowColor = css(t.colors.shadow, shadow.blurOpacity);
      ctx.shadowBlur = 2 * shadow.blur * scale; // canvas blurs with sigma = shadowBlur / 2
      ctx.shadowOffsetY = scale;
    }
    ctx.fillStyle = css(t.colors.text);
    ctx.fillText(t.text, x, y, t.width * scale);
    ctx.shadowColor = "transparent";
  }
}

export function canvasBadgePng(layout: PlateLayout, scale: number): Buffer {
  const { width, height, style } = layout;
  const canvas = createCanvas(Math.ceil(width * scale), height * scale);
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  ctx.beginPath();
  ctx.roundRect(0, 0, width, height, style.radius);
  ctx.clip();
  if (layout.label) {
    ctx.fillStyle = css(layout.label.color);
    ctx.fillRect(0, 0, layout.label.width, height);
  }
  ctx.fillStyle = css(layout.message.color);
  ctx.fillRect(layout.message.x, 0, layout.message.width, height);
  if (style.overlay.length > 0) {
    const overlay = ctx.createLinearGradient(0, 0, 0, height);
    for (const stop of style.overlay) overlay.addColorStop(stop.offset, css(stop.color));
    ctx.fillStyle = overlay;
    ctx.fillRect(0, 0, width, height);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  text(ctx, layout, scale);
  return canvas.encodeSync("png");
}
