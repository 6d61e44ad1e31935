// What fills a shape: one colour or a gradient. Gradient geometry is in the
// same user space as the path, so both follow the fill's transform.

import type { Color } from "../color.ts";

export interface GradientStop {
  /** 0..1 along the gradient; stops are sorted by offset when compiled. */
  offset: number;
  color: Color;
}

export interface SolidPaint {
  type: "solid";
  color: Color;
}

/** Colour varies along the line (x0,y0) -> (x1,y1) and is constant across it; padded beyond the ends. */
export interface LinearGradient {
  type: "linear";
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  stops: readonly GradientStop[];
}

/** Colour varies with the distance from (cx, cy): offset 0 at the centre, 1 at radius r; padded beyond. */
export interface RadialGradient {
  type: "radial";
  cx: number;
  cy: number;
  r: number;
  stops: readonly GradientStop[];
}

export type Paint = SolidPaint | LinearGradient | RadialGradient;

export const solid = (color: Color): SolidPaint => ({ type: "solid", color });

export function linearGradient(x0: number, y0: number, x1: number, y1: number, stops: readonly GradientStop[]): LinearGradient {
  return { type: "linear", x0, y0, x1, y1, stops };
}

export function radialGradient(cx: number, cy: number, r: number, stops: readonly GradientStop[]): RadialGradient {
  return { type: "radial", cx, cy, r, stops };
}
