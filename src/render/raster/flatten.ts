// Curves to polylines in device space. The transform is applied to control
// points first (affine maps keep Béziers Béziers), so the tolerance is in
// device pixels whatever the scale.

import { CLOSE, CUBIC, LINE, MOVE, QUAD, type Path } from "../path.ts";
import type { Transform } from "../transform.ts";

/** A flattened sub-path: x,y pairs in device pixels. */
export interface Contour {
  points: number[];
  closed: boolean;
}

/**
 * Maximum distance in pixels between a curve and its polyline. Chords always
 * fall inside a convex curve, so a pixel on the edge loses up to ~0.7x this
 * in coverage: 0.1 px costs up to 14/255 on small circles, 0.02 px ~3/255.
 */
export const DEFAULT_TOLERANCE = 0.02;
/** Hostile or absurd curves (huge coordinates) must not make millions of points. */
const MAX_PIECES = 256;

/**
 * Segments needed so that a curve whose second derivative is at most
 * `secondDerivative` deviates at most `tolerance` from its chords: the chord
 * error of a step h is |B''| h^2 / 8.
 */
function pieceCount(secondDerivative: number, tolerance: number): number {
  const n = Math.ceil(Math.sqrt(secondDerivative / (8 * tolerance)));
  return n < 1 ? 1 : n > MAX_PIECES ? MAX_PIECES : n;
}

export function flattenPath(path: Path, t: Transform, tolerance = DEFAULT_TOLERANCE): Contour[] {
  const contours: Contour[] = [];
  const { verbs, coords } = path;
  let current: Contour | null = null;
  let x = 0;
  let y = 0;
  let k = 0;
  // Device-space coordinates of the k-th input number pair.
  const px = (i: number): number => t.a * coords[i]! + t.c * coords[i + 1]! + t.e;
  const py = (i: number): number => t.b * coords[i]! + t.d * coords[i + 1]! + t.f;

  for (const verb of verbs) {
    if (verb === MOVE) {
      x = px(k);
      y = py(k);
      k += 2;
      current = { points: [x, y], closed: false };
      contours.push(current);
    } else if (verb === CLOSE) {
      if (current) current.closed = true;
      current = null;
    } else if (current) {
      const points = current.points;
      if (verb === LINE) {
        x = px(k);
        y = py(k);
        k += 2;
        points.push(x, y);
      } else if (verb === QUAD) {
        const x1 = px(k), y1 = py(k), x2 = px(k + 2), y2 = py(k + 2);
        k += 4;
        const n = pieceCount(2 * Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2), tolerance);
        for (let i = 1; i <= n; i++) {
          const s = i / n;
          const u = 1 - s;
          points.push(u * u * x + 2 * u * s * x1 + s * s * x2, u * u * y + 2 * u * s * y1 + s * s * y2);
        }
        x = x2;
        y = y2;
      } else if (verb === CUBIC) {
        const x1 = px(k), y1 = py(k), x2 = px(k + 2), y2 = py(k + 2), x3 = px(k + 4), y3 = py(k + 4);
        k += 6;
        // |B''| is at most 6 times the larger second difference of the control points.
        const dd = Math.max(Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
        const n = pieceCount(6 * dd, tolerance);
        for (let i = 1; i <= n; i++) {
          const s = i / n;
          const u = 1 - s;
          const a = u * u * u, b = 3 * u * u * s, c = 3 * u * s * s, d = s * s * s;
          points.push(a * x + b * x1 + c * x2 + d * x3, a * y + b * y1 + c * y2 + d * y3);
        }
        x = x3;
        y = y3;
      }
    } else {
      // A drawing verb with no current sub-path (only after close): skip its points.
      k += verb === LINE ? 2 : verb === QUAD ? 4 : 6;
    }
  }
  return contours;
}
