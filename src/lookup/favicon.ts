// Server favicons arrive as "data:image/png;base64,..." inside the status JSON.
// We keep the PNG bytes only when they are what the game itself accepts: a
// 64x64 PNG, and not larger than any real one.

const PREFIX = "data:image/png;base64,";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A 64x64 RGBA PNG is at most ~16 KiB uncompressed; 64 KiB leaves room for odd encoders. */
export const MAX_FAVICON_BYTES = 64 * 1024;

export function decodeFavicon(value: unknown): Uint8Array | null {
  if (typeof value !== "string" || !value.startsWith(PREFIX)) return null;
  const base64 = value.slice(PREFIX.length).replace(/\s/g, "");
  if (base64.length > Math.ceil((MAX_FAVICON_BYTES * 4) / 3) + 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return null;
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  if (bytes.length < 24 || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return null;
  // IHDR is always first: width and height are its first two big-endian int32s.
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return view.getUint32(16) === 64 && view.getUint32(20) === 64 ? bytes : null;
}

export function faviconDataUrl(bytes: Uint8Array): string {
  return PREFIX + Buffer.from(bytes).toString("base64");
}
