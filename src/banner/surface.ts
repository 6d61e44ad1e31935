// The drawing surface of one banner: a pixmap plus the factor from layout
// (CSS) pixels to device pixels. Layouts and templates speak CSS pixels only;
// shapes go through a scale transform and text is laid out at the device
// size, so a 2x banner is the same design drawn sharp, not an upscale.

import {
  Pixmap, drawImage, drawTextLine, fillPath, rasterizeToMask, scale as scaleTransform, shadowColor, strokePath,
  type Color, type ImageFilter, type Mask, type Paint, type Path, type StrokeStyle, type Transform,
} from "../render/index.ts";
import { contrastRatio, TEXT_CONTRAST } from "./contrast.ts";
import type { FittedFormatted, FittedText } from "./fit.ts";

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
  /** What the text stands on, to judge each run's contrast. */
  backdrop: Color;
  /**
   * Runs below 4.5:1 against the backdrop get an outline of their own colour
   * moved three quarters of the way to this one (black: the game's shadow colour).
   */
  halo: Color;
  /** The game's drop shadow under every run (one font pixel right and down). */
  shadow?: boolean;
}

/** How far an outline's colour moves from the text's towards the halo colour, and its opacity. */
const HALO_MIX = 0.75;
const HALO_OPACITY = 0.7;

function mix(color: Color, towards: Color, amount: number): Color {
  const channel = (from: number, to: number) => Math.round(from + (to - from) * amount);
  return { r: channel(color.r, towards.r), g: channel(color.g, towards.g), b: channel(color.b, towards.b), a: color.a };
}

/** Neighbour offsets of a one-pixel outline. */
const HALO_OFFSETS: ReadonlyArray<readonly [number, number]> = [
  [-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1],
];

export class Surface {
  readonly pixmap: Pixmap;
  readonly transform: Transform;

  /** A transparent surface of `width` x `height` CSS pixels at `scale` device pixels each. */
  constructor(readonly width: number, readonly height: number, readonly scale: number) {
    this.pixmap = new Pixmap(Math.round(width * scale), Math.round(height * scale));
    this.transform = scaleTransform(scale);
  }

  fill(path: Path, paint: Paint, options: { opacity?: number; clip?: Mask | null } = {}): void {
    fillPath(this.pixmap, path, paint, { ...options, transform: this.transform });
  }

  stroke(path: Path, style: StrokeStyle, paint: Paint): void {
    strokePath(this.pixmap, path, style, paint, { transform: this.transform });
  }

  /** A coverage mask of `path`, to clip later draws to. */
  mask(path: Path): Mask {
    return rasterizeToMask(path, this.transform);
  }

  image(image: Pixmap, box: Box, options: { filter?: ImageFilter; clip?: Mask | null } = {}): void {
    const s = this.scale;
    drawImage(this.pixmap, image, { x: box.x * s, y: box.y * s, width: box.width * s, height: box.height * s }, options);
  }

  /** Draws fitted text with its left edge, centre or right edge at `x` (CSS pixels), on `baseline`. */
  text(fitted: FittedText, x: number, baseline: number, color: Color, align: Align = "left", opacity = 1): void {
    drawTextLine(this.pixmap, fitted.line, this.penX(x, fitted.width, align), baseline * this.scale, color, { opacity });
  }

  /**
   * Draws a fitted formatted line in its runs' colours. A run whose colour
   * fails 4.5:1 against the backdrop keeps its colour and gets an outline.
   */
  formatted(fitted: FittedFormatted, x: number, baseline: number, style: FormattedStyle, align: Align = "left"): void {
    const left = this.penX(x, fitted.width, align);
    const base = baseline * this.scale;
    // One font pixel of the game's 8 px em, at least one device pixel.
    const offset = Math.max(1, Math.round((fitted.size * this.scale) / 8));
    const pieces = fitted.line.pieces.map((piece) => {
      const color = piece.color ?? style.defaultColor;
      const weak = contrastRatio(color, style.backdrop) < TEXT_CONTRAST;
      return { piece, color, halo: weak ? mix(color, style.halo, HALO_MIX) : null };
    });
    const draw = (dx: number, dy: number, colorOf: (p: (typeof pieces)[number]) => Color | null, opacity = 1) => {
      for (const entry of pieces) {
        const color = colorOf(entry);
        if (!color) continue;
        const { piece } = entry;
        drawTextLine(this.pixmap, piece.line, left + piece.x + dx, base + dy, color, {
          underline: piece.underline, strikethrough: piece.strikethrough, opacity,
        });
      }
    };
    const width = Math.max(1, Math.round(this.scale));
    for (const [dx, dy] of HALO_OFFSETS) draw(dx * width, dy * width, (entry) => entry.halo, HALO_OPACITY);
    if (style.shadow) draw(offset, offset, (entry) => shadowColor(entry.color));
    draw(0, 0, (entry) => entry.color);
  }

  private penX(x: number, width: number, align: Align): number {
    const left = align === "left" ? x : align === "right" ? x - width : x - width / 2;
    return left * this.scale;
  }
}
