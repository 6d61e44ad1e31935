// What an image file says of itself in its first bytes: its format and
// dimensions, read without decoding anything, so a fetched icon can be
// refused before it is kept or drawn (a format we cannot decode, a canvas
// too large). PNG, WebP (lossy, lossless and extended) and GIF.

export type RasterFormat = "png" | "webp" | "gif";

export interface ImageHeader {
  format: RasterFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

function pngHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  if (bytes.length < 33 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b) || ascii(bytes, 12, 4) !== "IHDR") return null;
  return { format: "png", width: view.getUint32(16), height: view.getUint32(20) };
}

function gifHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  if (bytes.length < 13 || (ascii(bytes, 0, 6) !== "GIF87a" && ascii(bytes, 0, 6) !== "GIF89a")) return null;
  return { format: "gif", width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

/** RIFF....WEBP, then the first chunk: VP8 (lossy key frame), VP8L (lossless) or VP8X (extended: the canvas). */
function webpHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") return null;
  const chunk = ascii(bytes, 12, 4), data = 20;
  if (chunk === "VP8 ") {
    // A key frame's start code, then 14-bit width and height.
    if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return null;
    return { format: "webp", width: view.getUint16(data + 6, true) & 0x3fff, height: view.getUint16(data + 8, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (bytes[data] !== 0x2f) return null;
    const bits = view.getUint32(data + 1, true);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const width = (bytes[data + 4]! | (bytes[data + 5]! << 8) | (bytes[data + 6]! << 16)) + 1;
    const height = (bytes[data + 7]! | (bytes[data + 8]! << 8) | (bytes[data + 9]! << 16)) + 1;
    return { format: "webp", width, height };
  }
  return null;
}

/** The format and size `bytes` declare, or null for anything else (JPEG, SVG, HTML, truncated files). */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return pngHeader(bytes, view) ?? gifHeader(bytes, view) ?? webpHeader(bytes, view);
}
