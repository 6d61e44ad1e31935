// The drawing surface of one banner: a pixmap plus the factor from layout
// (CSS) pixels to device pixels. Layouts and templates speak CSS pixels only;
// shapes go through a scale transform and text is laid out at the device
// size, so a 2x banner is the same design drawn sharp, not an upscale.

import {
  drawImage, drawTextLine, fillPath, rasterizeToMask, scale as scaleTransform, shadowColor, strokePath,
  type Color, type ImageFilter, type Mask, type Paint, type Path, type Pixmap, type StrokeStyle, type Transform,
} from "../render/index.ts";
import { BannerCaches } from "./banner-caches.ts";
import { readableOn } from "./contrast.ts";
import type { FittedFormatted, FittedText } from "./fit-text.ts";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Align = "left" | "center" | "right";

export interface FormattedStyle {
  /** Colour of runs that name none. */
  defaultColor: Color;
  /** What the text stands on (the background's ends), to judge each run's contrast. */
  backdrops: readonly Color[];
  /** The game's drop shadow under every run (one font pixel right and down). */
  shadow?: boolean;
}

/**
 * Device pixels the game's shadow falls right of and below its text: one
 * font pixel of the game's 8 px em, at least one device pixel.
 */
export function shadowOffset(size: number, scale: number): number {
  return Math.max(1, Math.round((size * scale) / 8));
}

export class Surface {
  /** The pixels drawn; draw through the methods below, which `blank` follows. */
  readonly pixmap: Pixmap;
  readonly transform: Transform;
  private drawn = false;

  /**
   * A transparent surface of `width` x `height` CSS pixels at `scale` device
   * pixels each, its pixmap from the spare ones of `caches` (the
   * application's; by default the surface keeps its own).
   */
  constructor(readonly width: number, readonly height: number, readonly scale: number, readonly caches = new BannerCaches()) {
    this.pixmap = caches.render.pixmaps.take(Math.round(width * scale), Math.round(height * scale));
    this.transform = scaleTransform(scale);
  }

  /** Nothing drawn yet: what is drawn first can be a copy of the same drawing made on another blank surface. */
  get blank(): boolean {
    return !this.drawn;
  }

  /** Device pixels (as `pixmap.pixels`) of a drawing made on a blank surface of this size, copied onto this blank one. */
  copyBlankDrawing(pixels: Int32Array): void {
    if (this.drawn || pixels.length !== this.pixmap.pixels.length) throw new RangeError("a drawing is copied onto a blank surface of its own size");
    this.pixmap.pixels.set(pixels);
    this.drawn = true;
  }

  fill(path: Path, paint: Paint, options: { clip?: Mask | null } = {}): void {
    this.drawn = true;
    fillPath(this.pixmap, path, paint, { ...options, transform: this.transform, context: this.caches.render });
  }

  stroke(path: Path, style: StrokeStyle, paint: Paint): void {
    this.drawn = true;
    strokePath(this.pixmap, path, style, paint, { transform: this.transform, context: this.caches.render });
  }

  /** A coverage mask of `path`, to clip later draws to. */
  mask(path: Path): Mask {
    return rasterizeToMask(path, this.transform);
  }

  image(image: Pixmap, box: Box, options: { filter?: ImageFilter; clip?: Mask | null } = {}): void {
    this.drawn = true;
    const s = this.scale;
    drawImage(this.pixmap, image, { x: box.x * s, y: box.y * s, width: box.width * s, height: box.height * s }, options);
  }

  /** Draws fitted text with its left edge, centre or right edge at `x` (CSS pixels), on `baseline`. */
  text(fitted: FittedText, x: number, baseline: number, color: Color, align: Align = "left"): void {
    this.drawn = true;
    drawTextLine(this.pixmap, fitted.line, this.penX(x, fitted.width, align), baseline * this.scale, color, { context: this.caches.render });
  }

  /**
   * Draws a fitted formatted line in its runs' colours. A run whose colour
   * fails 4.5:1 against the backdrops is drawn in the same hue made just
   * light or dark enough to pass (readableOn).
   */
  formatted(fitted: FittedFormatted, x: number, baseline: number, style: FormattedStyle, align: Align = "left"): void {
    this.drawn = true;
    const left = this.penX(x, fitted.width, align);
    const base = baseline * this.scale;
    const offset = shadowOffset(fitted.size, this.scale);
    const pieces = fitted.line.pieces.map((piece) => ({ piece, color: readableOn(piece.color ?? style.defaultColor, style.backdrops) }));
    const draw = (dx: number, dy: number, colorOf: (color: Color) => Color) => {
      for (const { piece, color } of pieces) {
        drawTextLine(this.pixmap, piece.line, left + piece.x + dx, base + dy, colorOf(color), {
          underline: piece.underline, strikethrough: piece.strikethrough, context: this.caches.render,
        });
      }
    };
    if (style.shadow) draw(offset, offset, shadowColor);
    draw(0, 0, (color) => color);
  }

  private penX(x: number, width: number, align: Align): number {
    const left = align === "left" ? x : align === "right" ? x - width : x - width / 2;
    return left * this.scale;
  }
}
