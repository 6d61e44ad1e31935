// Source-over of one premultiplied pixel, held as a 32-bit word (packPixel
// order), two channels per multiply: red/blue and green/alpha sit in 16-bit
// lanes that cannot overflow (255 * 256 + 128 < 65536). Byte-wise loops cost
// about three times as much in JavaScriptCore.
//
// Words are signed 32-bit (Int32Array views, Math.imul, `| 0`): unsigned
// values past 2^31 would be doubles to the JIT, and several times slower.

/** Bit position of alpha inside a pixel word: the top byte on little-endian machines. */
export const ALPHA_SHIFT = new Uint8Array(Uint32Array.of(0xff000000).buffer)[3] === 0xff ? 24 : 0;

const LANES = 0x00ff00ff;
const HALF = 0x00800080;

/** `pixel` scaled by scale/256 (scale 0..256) in every channel, rounded. */
export function scalePixel(pixel: number, scale: number): number {
  const rb = (((Math.imul(pixel & LANES, scale) + HALF) | 0) >>> 8) & LANES;
  const ga = (((Math.imul((pixel >>> 8) & LANES, scale) + HALF) | 0) >>> 8) & LANES;
  return rb | (ga << 8);
}

/** `source` with coverage c (0..255) over `dest`: source*c + dest*(1 - alpha(source)*c). */
export function blendPixel(source: number, dest: number, c: number): number {
  const s = scalePixel(source, c + (c >> 7));
  const a = (s >>> ALPHA_SHIFT) & 255;
  return (s + scalePixel(dest, 256 - a - (a >> 7))) | 0;
}

/** a + (b - a) * weight/256 in every channel (weight 0..256), rounded: bilinear filtering's step. */
export function lerpPixel(a: number, b: number, weight: number): number {
  const keep = 256 - weight;
  const rb = (((Math.imul(a & LANES, keep) + Math.imul(b & LANES, weight) + HALF) | 0) >>> 8) & LANES;
  const ga = (((Math.imul((a >>> 8) & LANES, keep) + Math.imul((b >>> 8) & LANES, weight) + HALF) | 0) >>> 8) & LANES;
  return rb | (ga << 8);
}
