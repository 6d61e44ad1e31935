// Images read back from HTTP answers with independent decoders (pngjs for
// PNG, libwebp for WebP), and the pixel questions banner tests ask of them.

import decodeWebp from "@jsquash/webp/decode.js";
import { PNG } from "pngjs";
import type { Color, Pixmap } from "../../src/render/index.ts";

export interface DecodedImage {
  type: string;
  width: number;
  height: number;
  /** Straight (not premultiplied) RGBA, row by row. */
  data: Uint8Array;
}

export async function decodeImage(response: Response): Promise<DecodedImage> {
  const type = response.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (type === "image/png") {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { type, width: png.width, height: png.height, data: new Uint8Array(png.data) };
  }
  if (type === "image/webp") {
    const image = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    return { type, width: image.width, height: image.height, data: new Uint8Array(image.data.buffer) };
  }
  throw new Error(`not an image: ${type} ${new TextDecoder().decode(bytes.subarray(0, 200))}`);
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Opaque pixels of exactly `color` (RGB), within `box` when given. */
export function countColor(image: DecodedImage, color: Color, box: Box = { x: 0, y: 0, width: image.width, height: image.height }): number {
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * image.width + x) * 4;
      const d = image.data;
      if (d[i] === color.r && d[i + 1] === color.g && d[i + 2] === color.b && d[i + 3] === 255) count++;
    }
  }
  return count;
}

/** Pixels whose RGBA differ between an answer and an image drawn in the test. */
export function differingPixels(image: DecodedImage, expected: Pixmap): number {
  if (image.width !== expected.width || image.height !== expected.height) return Infinity;
  const want = expected.toStraightRgba();
  let count = 0;
  for (let i = 0; i < want.length; i += 4) {
    // Fully transparent pixels carry no colour.
    if (want[i + 3] === 0 && image.data[i + 3] === 0) continue;
    if (want[i] !== image.data[i] || want[i + 1] !== image.data[i + 1] || want[i + 2] !== image.data[i + 2] || want[i + 3] !== image.data[i + 3]) count++;
  }
  return count;
}
