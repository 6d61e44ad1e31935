// Animated images read back frame by frame with independent decoders:
// omggif's reader for GIF; for WebP the container parsed here by its
// specification and each frame's bitstream decoded by libwebp as a still.
// Each frame is the canvas once it is drawn, as a viewer shows it.

import decodeWebp from "@jsquash/webp/decode.js";
import { expect } from "bun:test";
import { GifReader } from "omggif";
import type { DecodedImage } from "./images.ts";

export interface WebpFrame {
  /** Where the ANMF chunk places the frame, and its size (every frame after the first stores only what changed). */
  x: number;
  y: number;
  width: number;
  height: number;
  durationMs: number;
  /** The canvas once the frame is drawn on it (no blending: the frame's pixels replace its rectangle). */
  image: DecodedImage;
}

/** The frames of an animated WebP: its chunks read here by the container specification, each frame's bitstream decoded as a still. */
export async function webpFrames(bytes: Uint8Array): Promise<{ canvas: [number, number]; flags: number; frames: WebpFrame[] }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fourcc = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  expect([fourcc(0), fourcc(8), view.getUint32(4, true)]).toEqual(["RIFF", "WEBP", bytes.length - 8]);
  let canvas: [number, number] = [0, 0], flags = 0, pixels = new Uint8Array(0);
  const frames: WebpFrame[] = [];
  for (let at = 12; at < bytes.length;) {
    const size = view.getUint32(at + 4, true), body = at + 8;
    if (fourcc(at) === "VP8X") {
      flags = bytes[body]!;
      canvas = [u24(body + 4) + 1, u24(body + 7) + 1];
      pixels = new Uint8Array(canvas[0] * canvas[1] * 4);
    } else if (fourcc(at) === "ANMF") {
      const x = 2 * u24(body), y = 2 * u24(body + 3), width = u24(body + 6) + 1, height = u24(body + 9) + 1;
      expect(bytes[body + 15]! & 0x02).toBe(0x02); // no blending
      const image = bytes.subarray(body + 16, body + size);
      const still = new Uint8Array(12 + image.length);
      still.set([..."RIFF"].map((c) => c.charCodeAt(0)));
      new DataView(still.buffer).setUint32(4, 4 + image.length, true);
      still.set([..."WEBP"].map((c) => c.charCodeAt(0)), 8);
      still.set(image, 12);
      const decoded = await decodeWebp(still.buffer);
      expect([decoded.width, decoded.height]).toEqual([width, height]);
      expect(x + width <= canvas[0] && y + height <= canvas[1]).toBe(true);
      const rows = new Uint8Array(decoded.data.buffer);
      for (let row = 0; row < height; row++) pixels.set(rows.subarray(row * width * 4, (row + 1) * width * 4), ((y + row) * canvas[0] + x) * 4);
      frames.push({ x, y, width, height, durationMs: u24(body + 12), image: { type: "image/webp", width: canvas[0], height: canvas[1], data: pixels.slice() } });
    }
    at = body + size + (size & 1);
  }
  return { canvas, flags, frames };
}

/** The frames of a GIF, each drawn over the one before (disposal 1), with its delay in ms. */
export function gifFrames(bytes: Uint8Array): Array<{ durationMs: number; image: DecodedImage }> {
  const reader = new GifReader(bytes);
  const data = new Uint8Array(reader.width * reader.height * 4);
  return Array.from({ length: reader.numFrames() }, (_, i) => {
    expect(i === 0 || reader.frameInfo(i).disposal === 1).toBe(true);
    reader.decodeAndBlitFrameRGBA(i, data);
    return { durationMs: reader.frameInfo(i).delay * 10, image: { type: "image/gif", width: reader.width, height: reader.height, data: data.slice() } };
  });
}
