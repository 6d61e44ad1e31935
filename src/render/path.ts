// A vector path: sub-paths of lines, quadratic and cubic Béziers. Arcs,
// ellipses and rounded rectangles are stored as cubics, so the flattener only
// knows three kinds of segment. Method names follow the canvas API so that
// fontkit's glyph commands map one to one.

export const MOVE = 0;
export const LINE = 1;
export const QUAD = 2;
export const CUBIC = 3;
export const CLOSE = 4;
export type Verb = typeof MOVE | typeof LINE | typeof QUAD | typeof CUBIC | typeof CLOSE;

/** Control-point distance of a cubic that approximates a circular arc of `sweep` radians (at most a quarter turn). */
function arcHandle(sweep: number): number {
  return (4 / 3) * Math.tan(sweep / 4);
}

const TAU = Math.PI * 2;

export type CornerRadii = number | readonly [topLeft: number, topRight: number, bottomRight: number, bottomLeft: number];

export class Path {
  readonly verbs: Verb[] = [];
  /** Points of every verb in order: Move/Line 1, Quad 2, Cubic 3, Close 0. */
  readonly coords: number[] = [];
  private startX = 0;
  private startY = 0;
  private lastX = 0;
  private lastY = 0;
  private open = false;

  get isEmpty(): boolean {
    return this.verbs.length === 0;
  }

  moveTo(x: number, y: number): this {
    this.verbs.push(MOVE);
    this.coords.push(x, y);
    this.startX = this.lastX = x;
    this.startY = this.lastY = y;
    this.open = true;
    return this;
  }

  lineTo(x: number, y: number): this {
    if (!this.open) return this.moveTo(x, y);
    this.verbs.push(LINE);
    this.coords.push(x, y);
    this.lastX = x;
    this.lastY = y;
    return this;
  }

  quadTo(cx: number, cy: number, x: number, y: number): this {
    if (!this.open) this.moveTo(cx, cy);
    this.verbs.push(QUAD);
    this.coords.push(cx, cy, x, y);
    this.lastX = x;
    this.lastY = y;
    return this;
  }

  cubicTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): this {
    if (!this.open) this.moveTo(c1x, c1y);
    this.verbs.push(CUBIC);
    this.coords.push(c1x, c1y, c2x, c2y, x, y);
    this.lastX = x;
    this.lastY = y;
    return this;
  }

  close(): this {
    if (this.open) {
      this.verbs.push(CLOSE);
      this.lastX = this.startX;
      this.lastY = this.startY;
      this.open = false;
    }
    return this;
  }

  /**
   * An elliptical arc around (cx, cy), canvas style: angles in radians, 0 along
   * +x, increasing clockwise on screen; a line joins the current point to the
   * arc's start. A sweep of a full turn or more draws the whole ellipse.
   */
  arc(cx: number, cy: number, radius: number, startAngle: number, endAngle: number, counterclockwise = false): this {
    return this.ellipticalArc(cx, cy, radius, radius, startAngle, endAngle, counterclockwise);
  }

  ellipticalArc(cx: number, cy: number, rx: number, ry: number, startAngle: number, endAngle: number, counterclockwise = false): this {
    let sweep = counterclockwise ? startAngle - endAngle : endAngle - startAngle;
    sweep = sweep >= TAU ? TAU : ((sweep % TAU) + TAU) % TAU;
    if (counterclockwise) sweep = -sweep;
    const x0 = cx + rx * Math.cos(startAngle);
    const y0 = cy + ry * Math.sin(startAngle);
    if (this.open) this.lineTo(x0, y0);
    else this.moveTo(x0, y0);
    const pieces = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2) - 1e-9));
    const step = sweep / pieces;
    const k = arcHandle(step);
    let angle = startAngle;
    for (let i = 0; i < pieces; i++) {
      const next = angle + step;
      const cos0 = Math.cos(angle);
      const sin0 = Math.sin(angle);
      const cos1 = Math.cos(next);
      const sin1 = Math.sin(next);
      this.cubicTo(
        cx + rx * (cos0 - k * sin0),
        cy + ry * (sin0 + k * cos0),
        cx + rx * (cos1 + k * sin1),
        cy + ry * (sin1 - k * cos1),
        cx + rx * cos1,
        cy + ry * sin1,
      );
      angle = next;
    }
    return this;
  }

  rect(x: number, y: number, width: number, height: number): this {
    return this.moveTo(x, y).lineTo(x + width, y).lineTo(x + width, y + height).lineTo(x, y + height).close();
  }

  /** A rectangle with circular corners; radii that do not fit are scaled down together, as CSS does. */
  roundRect(x: number, y: number, width: number, height: number, radii: CornerRadii): this {
    let [tl, tr, br, bl] = typeof radii === "number" ? [radii, radii, radii, radii] : radii;
    [tl, tr, br, bl] = [tl, tr, br, bl].map((r) => Math.max(0, r)) as [number, number, number, number];
    const fit = Math.min(1, width / (tl + tr || 1), width / (bl + br || 1), height / (tl + bl || 1), height / (tr + br || 1));
    tl *= fit;
    tr *= fit;
    br *= fit;
    bl *= fit;
    const right = x + width;
    const bottom = y + height;
    const k = 1 - arcHandle(Math.PI / 2);
    this.moveTo(x + tl, y).lineTo(right - tr, y);
    if (tr > 0) this.cubicTo(right - tr * k, y, right, y + tr * k, right, y + tr);
    this.lineTo(right, bottom - br);
    if (br > 0) this.cubicTo(right, bottom - br * k, right - br * k, bottom, right - br, bottom);
    this.lineTo(x + bl, bottom);
    if (bl > 0) this.cubicTo(x + bl * k, bottom, x, bottom - bl * k, x, bottom - bl);
    this.lineTo(x, y + tl);
    if (tl > 0) this.cubicTo(x, y + tl * k, x + tl * k, y, x + tl, y);
    return this.close();
  }

  ellipse(cx: number, cy: number, rx: number, ry: number): this {
    this.open = false; // a new sub-path, leaving any open one as it was
    this.ellipticalArc(cx, cy, rx, ry, 0, TAU);
    return this.close();
  }

  circle(cx: number, cy: number, radius: number): this {
    return this.ellipse(cx, cy, radius, radius);
  }
}
