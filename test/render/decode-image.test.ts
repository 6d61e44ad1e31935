// Icons of the formats the sites serve (PNG, WebP, GIF), decoded within
// limits read from their headers: what is too large is refused before it is
// decoded, and anything else (JPEG, HTML, a cut file) is a value, not a throw.

import { describe, expect, test } from "bun:test";
import { GifWriter } from "omggif";
import { decodeImage, encodePng, encodeWebp, Pixmap, readImageHeader } from "../../src/render/index.ts";

function sample(width: number, height: number): Pixmap {
  const p = new Pixmap(width, height);
  p.fill({ r: 200, g: 30, b: 60, a: 255 });
  return p;
}

function gif(width: number, height: number): Uint8Array {
  const buffer = new Uint8Array(4096 + width * height * 2);
  const writer = new GifWriter(buffer, width, height, { palette: [0xc81e3c, 0x00ff00] });
  writer.addFrame(0, 0, width, height, new Uint8Array(width * height));
  return buffer.slice(0, writer.end());
}

const LIMITS = { maxWidth: 256, maxHeight: 256, maxBytes: 64 * 1024 };

describe("headers", () => {
  test("each format's declared size is read without decoding", async () => {
    expect(readImageHeader(await encodePng(sample(40, 30)))).toEqual({ format: "png", width: 40, height: 30 });
    expect(readImageHeader(await encodeWebp(sample(40, 30)))).toEqual({ format: "webp", width: 40, height: 30 });
    expect(readImageHeader(await encodeWebp(sample(41, 29), { lossless: false }))).toEqual({ format: "webp", width: 41, height: 29 });
    expect(readImageHeader(gif(5, 4))).toEqual({ format: "gif", width: 5, height: 4 });
    expect(readImageHeader(new TextEncoder().encode("<!doctype html><html></html>"))).toBeNull();
    // JPEG's start of image: a format we do not decode.
    expect(readImageHeader(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, ...new Uint8Array(40)))).toBeNull();
  });
});

describe("decodeImage", () => {
  test("PNG, lossless and lossy WebP, and GIF decode to their pixels", async () => {
    for (const bytes of [await encodePng(sample(40, 30)), await encodeWebp(sample(40, 30)), await encodeWebp(sample(40, 30), { lossless: false })]) {
      const decoded = await decodeImage(bytes, LIMITS);
      if (!decoded.ok) throw new Error(decoded.message);
      expect([decoded.image.width, decoded.image.height]).toEqual([40, 30]);
      const { r, g, b, a } = decoded.image.pixel(20, 15);
      expect(Math.abs(r - 200) + Math.abs(g - 30) + Math.abs(b - 60)).toBeLessThan(24);
      expect(a).toBe(255);
    }
    const decoded = await decodeImage(gif(5, 4), LIMITS);
    expect(decoded.ok && decoded.image.pixel(2, 2)).toEqual({ r: 200, g: 30, b: 60, a: 255 });
  });

  test("a canvas past the limits is refused from its header, whatever the format", async () => {
    for (const bytes of [await encodePng(sample(300, 10)), await encodeWebp(sample(10, 300)), gif(300, 2)]) {
      const decoded = await decodeImage(bytes, LIMITS);
      expect(decoded.ok ? "decoded" : decoded.error).toBe("too-large");
    }
  });

  test("more bytes than the limit are refused unread", async () => {
    const bytes = await encodePng(sample(40, 30));
    const decoded = await decodeImage(bytes, { ...LIMITS, maxBytes: bytes.length - 1 });
    expect(decoded.ok ? "decoded" : decoded.error).toBe("too-large");
  });

  test("what is not an image, or is cut short, is a value saying so", async () => {
    const html = await decodeImage(new TextEncoder().encode("<!doctype html><html><body>not found</body></html>"), LIMITS);
    expect(html.ok ? "decoded" : html.error).toBe("unsupported");
    const webp = await encodeWebp(sample(40, 30), { lossless: false });
    const cut = await decodeImage(webp.subarray(0, 40), LIMITS);
    expect(cut.ok ? "decoded" : cut.error).toBe("corrupt");
    const cutGif = await decodeImage(gif(5, 4).subarray(0, 20), LIMITS);
    expect(cutGif.ok ? "decoded" : cutGif.error).toBe("corrupt");
  });
});
