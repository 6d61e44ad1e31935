// PNG decoding for untrusted images (server favicons, pushed images): sizes
// are checked on the header before anything is allocated, the image data is
// inflated with a bound of exactly what the header implies (a decompression
// bomb stops there), and every failure is a value, never an exception.

import { inflateSync } from "node:zlib";
import { Pixmap, MAX_PIXMAP_SIDE } from "../pixmap.ts";
import { toStraightRgba } from "./png-pixels.ts";
import { imageDataSize, PngFormatError, readPngStructure } from "./png-structure.ts";

export interface DecodeLimits {
  maxWidth: number;
  maxHeight: number;
  /** Size of the encoded file. */
  maxBytes: number;
}

/** Generous for favicons and icons, small enough that a hostile file cannot cost much. */
export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxWidth: 1024, maxHeight: 1024, maxBytes: 2 * 1024 * 1024 };

export type DecodeResult =
  | { ok: true; image: Pixmap }
  | { ok: false; error: "too-large" | "not-png" | "unsupported" | "corrupt"; message: string };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Inflates at most `expected` bytes: more is refused as soon as the output would pass it. */
function inflateImageData(compressed: Uint8Array, expected: number): Uint8Array {
  let data: Uint8Array;
  try {
    data = inflateSync(compressed, { maxOutputLength: expected });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new PngFormatError(`image data inflates past the ${expected} bytes its header implies`);
    }
    throw new PngFormatError(`image data does not inflate (${error instanceof Error ? error.message : String(error)})`);
  }
  if (data.length !== expected) throw new PngFormatError(`image data inflates to ${data.length} bytes, its header implies ${expected}`);
  return data;
}

export function decodePng(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): DecodeResult {
  if (bytes.length > limits.maxBytes) {
    return { ok: false, error: "too-large", message: `PNG is ${bytes.length} bytes, limit ${limits.maxBytes}` };
  }
  // Signature, then the IHDR chunk (length 13) whose data starts with width and height.
  const isPng = bytes.length >= 33 && SIGNATURE.every((b, i) => bytes[i] === b) &&
    String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR";
  if (!isPng) return { ok: false, error: "not-png", message: "not a PNG file" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16), height = view.getUint32(20);
  if (width === 0 || height === 0) return { ok: false, error: "corrupt", message: "PNG has a zero dimension" };
  if (width > Math.min(limits.maxWidth, MAX_PIXMAP_SIDE) || height > Math.min(limits.maxHeight, MAX_PIXMAP_SIDE)) {
    return { ok: false, error: "too-large", message: `PNG is ${width}x${height}, limit ${limits.maxWidth}x${limits.maxHeight}` };
  }
  try {
    const png = readPngStructure(bytes);
    const data = inflateImageData(png.compressed, imageDataSize(png.header));
    return { ok: true, image: Pixmap.fromStraightRgba(width, height, toStraightRgba(png, data)) };
  } catch (error) {
    if (error instanceof PngFormatError) return { ok: false, error: "corrupt", message: `corrupt PNG: ${error.message}` };
    throw error;
  }
}
