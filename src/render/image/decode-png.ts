// PNG decoding for untrusted images (server favicons): limits are checked on
// the header before pngjs allocates anything, and every failure is a value,
// never an exception.

import { PNG } from "pngjs";
import { Pixmap, MAX_PIXMAP_SIDE } from "../pixmap.ts";

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
  | { ok: false; error: "too-large" | "not-png" | "corrupt"; message: string };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

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
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (png.width !== width || png.height !== height) return { ok: false, error: "corrupt", message: "PNG size changed while decoding" };
    return { ok: true, image: Pixmap.fromStraightRgba(width, height, png.data) };
  } catch (error) {
    return { ok: false, error: "corrupt", message: `corrupt PNG: ${error instanceof Error ? error.message : String(error)}` };
  }
}
