// Strokes of constant width as polygons to fill (non-zero). Each polyline
// becomes one closed outline: its left offset side, the end cap, the other
// side (the left side of the reversed polyline) and the start cap. Closed
// polylines give two loops of opposite direction, an annulus under non-zero.
//
// Inner sides of joins use the intersection of the two offset lines, so the
// outline does not double back on itself: overlapping pieces would make the
// area-accumulating rasterizer over-cover edge pixels.

import type { Contour } from "./flatten.ts";

export type LineJoin = "miter" | "round" | "bevel";
export type LineCap = "butt" | "round" | "square";

export interface StrokeStyle {
  width: number;
  join?: LineJoin;
  cap?: LineCap;
  /** Longest miter, in stroke widths, before falling back to a bevel (SVG's default 4). */
  miterLimit?: number;
}

interface Side {
  halfWidth: number;
  join: LineJoin;
  miterLimit: number;
  tolerance: number;
}

/** Angle step of an arc of radius r whose chords stay within `tolerance`. */
function arcStep(r: number, tolerance: number): number {
  return r <= tolerance ? Math.PI / 2 : 2 * Math.acos(1 - tolerance / r);
}

/** Points on the arc around (cx, cy) from normal (nx, ny) turned by 0 < k < steps parts of `sweep`. */
function pushArc(out: number[], cx: number, cy: number, nx: number, ny: number, r: number, sweep: number, tolerance: number): void {
  const steps = Math.max(1, Math.ceil(Math.abs(sweep) / arcStep(r, tolerance)));
  for (let k = 1; k < steps; k++) {
    const a = (sweep * k) / steps;
    const cos = Math.cos(a), sin = Math.sin(a);
    out.push(cx + r * (nx * cos - ny * sin), cy + r * (nx * sin + ny * cos));
  }
}

/** Drops repeated points (zero-length segments have no direction), and a closing point equal to the first. */
function distinctPoints(points: readonly number[], closed: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i]!, y = points[i + 1]!;
    const n = out.length;
    if (n === 0 || Math.abs(x - out[n - 2]!) > 1e-9 || Math.abs(y - out[n - 1]!) > 1e-9) out.push(x, y);
  }
  const n = out.length;
  if (closed && n >= 4 && Math.abs(out[0]! - out[n - 2]!) <= 1e-9 && Math.abs(out[1]! - out[n - 1]!) <= 1e-9) out.length -= 2;
  return out;
}

function reversed(points: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = points.length - 2; i >= 0; i -= 2) out.push(points[i]!, points[i + 1]!);
  return out;
}

/**
 * The offset of a polyline on its left (normal (-dy, dx)), with joins. Open
 * polylines start and end at the offset end points; closed ones join every vertex.
 */
function pushSide(out: number[], p: readonly number[], closed: boolean, side: Side): void {
  const count = p.length / 2;
  const segments = closed ? count : count - 1;
  const dirs = new Float64Array(segments * 3); // unit dx, dy, length
  for (let i = 0; i < segments; i++) {
    const j = (i + 1) % count;
    const dx = p[2 * j]! - p[2 * i]!, dy = p[2 * j + 1]! - p[2 * i + 1]!;
    const length = Math.hypot(dx, dy);
    dirs[3 * i] = dx / length;
    dirs[3 * i + 1] = dy / length;
    dirs[3 * i + 2] = length;
  }
  const hw = side.halfWidth;
  if (!closed) out.push(p[0]! - hw * dirs[1]!, p[1]! + hw * dirs[0]!);
  for (let v = closed ? 0 : 1; v < (closed ? count : count - 1); v++) {
    const i0 = (v - 1 + segments) % segments;
    const x = p[2 * v]!, y = p[2 * v + 1]!;
    const d0x = dirs[3 * i0]!, d0y = dirs[3 * i0 + 1]!, len0 = dirs[3 * i0 + 2]!;
    const d1x = dirs[3 * v]!, d1y = dirs[3 * v + 1]!, len1 = dirs[3 * v + 2]!;
    const n0x = -d0y, n0y = d0x, n1x = -d1y, n1y = d1x;
    const cross = d0x * d1y - d0y * d1x;
    const dot = d0x * d1x + d0y * d1y;
    // (n0 + n1) / (1 + dot) reaches the crossing of the two offset lines (the miter point).
    const miterScale = 1 + dot > 1e-9 ? hw / (1 + dot) : Infinity;
    const mx = x + (n0x + n1x) * miterScale, my = y + (n0y + n1y) * miterScale;
    if (Math.abs(cross) < 1e-9 && dot > 0) {
      out.push(x + hw * n0x, y + hw * n0y);
    } else if (cross > 0) {
      // This side is the inside of the turn.
      const reach = miterScale * Math.abs(cross); // distance of the crossing along each segment
      if (reach <= Math.min(len0, len1)) out.push(mx, my);
      else out.push(x + hw * n0x, y + hw * n0y, x, y, x + hw * n1x, y + hw * n1y);
    } else {
      out.push(x + hw * n0x, y + hw * n0y);
      if (side.join === "round") {
        pushArc(out, x, y, n0x, n0y, hw, Math.atan2(cross, dot), side.tolerance);
      } else if (side.join === "miter" && 2 / (1 + dot) <= side.miterLimit * side.miterLimit) {
        out.push(mx, my);
      }
      out.push(x + hw * n1x, y + hw * n1y);
    }
  }
  if (!closed) {
    const last = segments - 1;
    out.push(p[2 * count - 2]! - hw * dirs[3 * last + 1]!, p[2 * count - 1]! + hw * dirs[3 * last]!);
  }
}

/** Cap at the end (x, y) of a polyline heading (dx, dy), between its left and right offset points. */
function pushCap(out: number[], x: number, y: number, dx: number, dy: number, cap: LineCap, hw: number, tolerance: number): void {
  const nx = -dy * hw, ny = dx * hw;
  if (cap === "square") {
    out.push(x + nx + dx * hw, y + ny + dy * hw, x - nx + dx * hw, y - ny + dy * hw);
  } else if (cap === "round") {
    pushArc(out, x, y, -dy, dx, hw, -Math.PI, tolerance);
  }
}

function endDirection(p: readonly number[]): [number, number] {
  const n = p.length;
  const dx = p[n - 2]! - p[n - 4]!, dy = p[n - 1]! - p[n - 3]!;
  const length = Math.hypot(dx, dy);
  return [dx / length, dy / length];
}

/** A lone point: round caps draw a disc, square caps a square, butt caps nothing. */
function dot(x: number, y: number, cap: LineCap, hw: number, tolerance: number): Contour[] {
  if (cap === "butt") return [];
  const points: number[] = [x + hw, y];
  if (cap === "round") pushArc(points, x, y, 1, 0, hw, Math.PI * 2, tolerance);
  else points.push(x + hw, y + hw, x - hw, y + hw, x - hw, y - hw, x + hw, y - hw);
  return [{ points, closed: true }];
}

/** Outlines (to fill with non-zero) of the given polylines stroked with `style`; same units as the points. */
export function strokeContours(contours: readonly Contour[], style: StrokeStyle, tolerance: number): Contour[] {
  const hw = style.width / 2;
  if (!(hw > 0) || !Number.isFinite(hw)) return [];
  const cap = style.cap ?? "butt";
  const side: Side = { halfWidth: hw, join: style.join ?? "miter", miterLimit: style.miterLimit ?? 4, tolerance };
  const out: Contour[] = [];
  for (const contour of contours) {
    const forward = distinctPoints(contour.points, contour.closed);
    if (forward.length === 2) {
      out.push(...dot(forward[0]!, forward[1]!, cap, hw, tolerance));
      continue;
    }
    if (forward.length === 0) continue;
    const backward = reversed(forward);
    const closed = contour.closed && forward.length >= 6;
    if (closed) {
      const outer: number[] = [];
      const inner: number[] = [];
      pushSide(outer, forward, true, side);
      pushSide(inner, backward, true, side);
      out.push({ points: outer, closed: true }, { points: inner, closed: true });
      continue;
    }
    const points: number[] = [];
    pushSide(points, forward, false, side);
    const [ex, ey] = endDirection(forward);
    pushCap(points, forward[forward.length - 2]!, forward[forward.length - 1]!, ex, ey, cap, hw, tolerance);
    pushSide(points, backward, false, side);
    const [sx, sy] = endDirection(backward);
    pushCap(points, backward[backward.length - 2]!, backward[backward.length - 1]!, sx, sy, cap, hw, tolerance);
    out.push({ points, closed: true });
  }
  return out;
}
