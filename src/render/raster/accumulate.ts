// Exact-area coverage by signed-area accumulation (the idea of font-rs and
// ab_glyph_rasterizer, written afresh). Each line segment deposits, per pixel
// row it crosses, the area it leaves to its right into a delta buffer; a
// running sum along the row then turns deltas into the winding number averaged
// over each pixel, which is exactly the covered area when edges do not overlap.
//
// Buffer layout: `height` rows of `stride = width + 2` floats. A segment in
// column i writes to i and i + 1, and x may equal `width`, hence the +2.
// Rows are also split in blocks of 8 columns, flagged when a segment writes
// into them: the running sum is constant across untouched blocks, so the
// resolve pass fills each run of them in one go (the inside of a large shape
// costs ~nothing; small blocks let a 60 px badge segment, edges at both
// ends, skip its middle too).

export type FillRule = "nonzero" | "evenodd";

const BLOCK_SHIFT = 3;

export class CoverageAccumulator {
  width = 0;
  height = 0;
  stride = 0;
  private blocks = 0;
  private acc = new Float32Array(0);
  private touched = new Uint8Array(0);

  /** Prepares an all-zero buffer of `width` x `height` pixels. */
  reset(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.stride = width + 2;
    this.blocks = (this.stride >> BLOCK_SHIFT) + 1;
    if (this.acc.length < this.stride * height) this.acc = new Float32Array(this.stride * height);
    if (this.touched.length < this.blocks * height) this.touched = new Uint8Array(this.blocks * height);
  }

  /** Adds one segment, in buffer coordinates with x within [0, width] (see `clippedLine`); rows outside [0, height) are skipped. */
  line(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return;
    let dir = 1;
    if (y0 > y1) {
      dir = -1;
      [x0, y0, x1, y1] = [x1, y1, x0, y0];
    }
    const { acc, touched, stride, width, blocks } = this;
    const dxdy = (x1 - x0) / (y1 - y0);
    const firstRow = y0 < 0 ? 0 : Math.floor(y0);
    const endRow = y1 > this.height ? this.height : Math.ceil(y1);
    for (let row = firstRow; row < endRow; row++) {
      const top = y0 > row ? y0 : row;
      const bottom = y1 < row + 1 ? y1 : row + 1;
      const d = (bottom - top) * dir;
      // x where the segment enters and leaves this row, clamped against rounding drift.
      let xa = x0 + (top - y0) * dxdy;
      let xb = x0 + (bottom - y0) * dxdy;
      xa = xa < 0 ? 0 : xa > width ? width : xa;
      xb = xb < 0 ? 0 : xb > width ? width : xb;
      const left = xa < xb ? xa : xb;
      const right = xa < xb ? xb : xa;
      const base = row * stride;
      const i0 = Math.floor(left);
      let last: number;
      if (right <= i0 + 1) {
        // Within one column: the area right of the edge is d * (1 - mean x offset).
        const m = (left + right) * 0.5 - i0;
        acc[base + i0]! += d * (1 - m);
        acc[base + i0 + 1]! += d * m;
        last = i0 + 1;
      } else {
        // Across columns: `s` is the height gained per unit of x.
        const s = d / (right - left);
        // The first piece spans [left, i0 + 1]: its mean offset in the column is 1 - w0/2.
        const w0 = i0 + 1 - left;
        const d0 = s * w0;
        acc[base + i0]! += d0 * w0 * 0.5;
        acc[base + i0 + 1]! += d0 * (1 - w0 * 0.5);
        const i1 = Math.ceil(right) - 1;
        const half = s * 0.5;
        for (let i = base + i0 + 1; i < base + i1; i++) {
          acc[i]! += half;
          acc[i + 1]! += half;
        }
        // The last spans [i1, right]: mean offset w1/2.
        const w1 = right - i1;
        const d1 = s * w1;
        acc[base + i1]! += d1 * (1 - w1 * 0.5);
        acc[base + i1 + 1]! += d1 * w1 * 0.5;
        last = i1 + 1;
      }
      const flags = row * blocks;
      for (let b = i0 >> BLOCK_SHIFT, end = last >> BLOCK_SHIFT; b <= end; b++) touched[flags + b] = 1;
    }
  }

  /**
   * Adds a segment that may lie partly outside [0, width]: parts left of the
   * buffer become vertical edges on x = 0 (they still cover everything to their
   * right), parts right of it are dropped (they cover nothing visible).
   */
  clippedLine(x0: number, y0: number, x1: number, y1: number): void {
    const { width, height } = this;
    if ((y0 < 0 && y1 < 0) || (y0 >= height && y1 >= height) || y0 === y1) return;
    // Work left to right, but hand pieces on in the original direction: the sign of the winding depends on it.
    const reversed = x0 > x1;
    if (reversed) [x0, y0, x1, y1] = [x1, y1, x0, y0];
    if (x0 >= width) return;
    if (x1 > width) {
      y1 = y0 + ((width - x0) * (y1 - y0)) / (x1 - x0);
      x1 = width;
    }
    if (x0 < 0) {
      const y = x1 <= 0 ? y1 : y0 + ((0 - x0) * (y1 - y0)) / (x1 - x0);
      if (reversed) this.line(0, y, 0, y0);
      else this.line(0, y0, 0, y);
      if (x1 <= 0) return;
      x0 = 0;
      y0 = y;
    }
    if (reversed) this.line(x1, y1, x0, y0);
    else this.line(x0, y0, x1, y1);
  }

  /**
   * Running sum along each row into 0..255 coverage (row r at out[r * outStride]),
   * clearing the buffer for reuse. Non-zero: |w| capped at 1. Even-odd: |w|
   * folded onto a triangle wave (0 at even, 1 at odd windings), which is exact
   * at the 0/1 and 1/2 edges.
   */
  resolve(fillRule: FillRule, out: Uint8Array, outStride: number): void {
    const { acc, touched, stride, width, height, blocks } = this;
    const evenOdd = fillRule === "evenodd";
    for (let row = 0; row < height; row++) {
      const base = row * stride;
      const flags = row * blocks;
      const o = row * outStride;
      let sum = 0;
      for (let b = 0; b < blocks; ) {
        const start = b << BLOCK_SHIFT;
        if (start >= width) break;
        if (touched[flags + b] === 0) {
          // A run of untouched blocks: the running sum, so the coverage, is the same across all of it.
          let next = b + 1;
          while (next < blocks && touched[flags + next] === 0) next++;
          const m = Math.abs(sum);
          const v = evenOdd ? 1 - Math.abs(1 - (m % 2)) : Math.min(m, 1);
          out.fill((v * 255 + 0.5) | 0, o + start, o + Math.min(next << BLOCK_SHIFT, width));
          b = next;
          continue;
        }
        const end = Math.min(start + (1 << BLOCK_SHIFT), width);
        if (evenOdd) {
          for (let i = base + start, j = o + start, stop = base + end; i < stop; i++, j++) {
            sum += acc[i]!;
            acc[i] = 0;
            out[j] = ((1 - Math.abs(1 - (Math.abs(sum) % 2))) * 255 + 0.5) | 0;
          }
        } else {
          for (let i = base + start, j = o + start, stop = base + end; i < stop; i++, j++) {
            sum += acc[i]!;
            acc[i] = 0;
            out[j] = (Math.min(Math.abs(sum), 1) * 255 + 0.5) | 0;
          }
        }
        b++;
      }
      // Columns width and width + 1 hold only the far ends of deltas.
      acc[base + width] = 0;
      acc[base + width + 1] = 0;
      for (let b = 0; b < blocks; b++) touched[flags + b] = 0;
    }
  }
}
