// Decoding an untrusted icon of any format we read (PNG, WebP, GIF's first
// frame): the header is checked against the limits before anything is
// decoded, and every failure is a value, never an exception. PNG goes
// through our own decoder (decode-png.ts); WebP through libwebp's decoder
// (@jsquash/webp, the package that already encodes); GIF through omggif's reader.

import { GifReader } from "omggif";
import { Pixmap, MAX_PIXMAP_SIDE } from "../pixmap.ts";
import { decodePng, DEFAULT_DECODE_LIMITS, type DecodeLimits, type DecodeResult } from "./decode-png.ts";
import { decodeWebpRgba } from "./decode-webp.ts";
import { readImageHeader } from "./image-header.ts";

/** The first frame of a GIF, composed on its logical screen. */
function decodeGif(bytes: Uint8Array): Pixmap {
  const reader = new GifReader(bytes);
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return Pixmap.fromStraightRgba(reader.width, reader.height, rgba);
}

/** `bytes` (PNG, WebP or GIF) decoded within `limits`. */
export async function decodeImage(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): Promise<DecodeResult> {
  if (bytes.length > limits.maxBytes) return { ok: false, error: "too-large", message: `image is ${bytes.length} bytes, limit ${limits.maxBytes}` };
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, error: "unsupported", message: "not a PNG, WebP or GIF file" };
  if (header.format === "png") return decodePng(bytes, limits);
  const { width, height } = header;
  if (width === 0 || height === 0) return { ok: false, error: "corrupt", message: `${header.format} has a zero dimension` };
  if (width > Math.min(limits.maxWidth, MAX_PIXMAP_SIDE) || height > Math.min(limits.maxHeight, MAX_PIXMAP_SIDE)) {
    return { ok: false, error: "too-large", message: `${header.format} is ${width}x${height}, limit ${limits.maxWidth}x${limits.maxHeight}` };
  }
  try {
    if (header.format === "gif") return { ok: true, image: decodeGif(bytes) };
    const decoded = await decodeWebpRgba(bytes);
    // The canvas the header declared is what was checked: a file whose frame says otherwise is not drawn.
    if (decoded.width !== width || decoded.height !== height) return { ok: false, error: "corrupt", message: "WebP frame differs from its header" };
    return { ok: true, image: Pixmap.fromStraightRgba(decoded.width, decoded.height, decoded.data) };
  } catch (error) {
    return { ok: false, error: "corrupt", message: `corrupt ${header.format}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
