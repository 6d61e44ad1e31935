import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { PNG } from "pngjs";
import decodeWebp from "@jsquash/webp/decode.js";
import { simd } from "wasm-feature-detect";
import { Path, Pixmap, encodePng, encodeWebp, fillPath, linearGradient, rasterizeToMask, rgba, solid } from "../../src/render/index.ts";
import { supportsWasmSimd } from "../../src/render/encode/webp.ts";

const ihdr = (png: Uint8Array) => ({ bitDepth: png[24], colorType: png[25] });
const hasChunk = (png: Uint8Array, type: string) => Buffer.from(png).includes(Buffer.from(type, "latin1"));

function gradientBanner(width: number, height: number, translucentCorner: boolean): Pixmap {
  const p = new Pixmap(width, height);
  const outline = new Path().roundRect(0, 0, width, height, translucentCorner ? 8 : 0);
  fillPath(p, outline, linearGradient(0, 0, width, height, [{ offset: 0, color: rgba(20, 30, 90) }, { offset: 1, color: rgba(120, 20, 160) }]));
  fillPath(p, new Path().circle(width / 2, height / 2, height / 3), solid(rgba(250, 200, 40, 200)));
  return p;
}

function decoded(png: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(png));
}

describe("PNG", () => {
  test("few colours: a palette PNG at the smallest bit depth, with tRNS for translucency", () => {
    const two = new Pixmap(9, 3);
    two.fill(rgba(10, 200, 30));
    two.data.set([0, 0, 0, 0], 0);
    const png = encodePng(two);
    expect(ihdr(png)).toEqual({ bitDepth: 1, colorType: 3 });
    expect(hasChunk(png, "tRNS")).toBe(true);
    const back = decoded(png);
    expect([...back.data.subarray(0, 8)]).toEqual([0, 0, 0, 0, 10, 200, 30, 255]);

    const opaque = new Pixmap(5, 5);
    opaque.fill(rgba(1, 2, 3));
    const opaquePng = encodePng(opaque);
    expect(hasChunk(opaquePng, "tRNS")).toBe(false);
  });

  test("bit depth follows the colour count: 4-bit up to 16 colours, 8-bit up to 256", () => {
    for (const [count, depth] of [[3, 2], [16, 4], [17, 8], [256, 8]] as const) {
      // 256 x 80: above the size where true colour is also tried.
      const p = new Pixmap(256, 80);
      for (let i = 0; i < 256 * 80; i++) p.data.set([i % count, 255 - (i % count), 7, 255], i * 4);
      const png = encodePng(p);
      expect(ihdr(png)).toEqual({ bitDepth: depth, colorType: 3 });
      expect([...decoded(png).data]).toEqual([...p.toStraightRgba()]);
    }
  });

  test("many colours: RGB when opaque, RGBA otherwise; pixels survive exactly", () => {
    const opaque = gradientBanner(300, 60, false);
    const rgb = encodePng(opaque);
    expect(ihdr(rgb)).toEqual({ bitDepth: 8, colorType: 2 });
    expect([...decoded(rgb).data]).toEqual([...opaque.toStraightRgba()]);
    const rounded = gradientBanner(300, 60, true);
    const rgbaPng = encodePng(rounded);
    expect(ihdr(rgbaPng)).toEqual({ bitDepth: 8, colorType: 6 });
    expect([...decoded(rgbaPng).data]).toEqual([...rounded.toStraightRgba()]);
  });

  test("images larger than a badge: Up on every row but the first (Sub: nothing above)", () => {
    // 300 x 60 (small images use Paeth). Each row one colour: every pixel repeats its left
    // neighbour and none the one above, which once made the encoder choose Sub for the whole image.
    const p = new Pixmap(300, 60);
    for (let y = 0; y < 59; y++) for (let x = 0; x < 300; x++) p.data.set([y * 4, 9, 9, 255], (y * 300 + x) * 4);
    // The last row has 300 colours, so that the image is not a palette one.
    for (let x = 0; x < 300; x++) p.data.set([x % 256, x >> 8, 200, 255], (59 * 300 + x) * 4);
    const png = encodePng(p, { level: 1 });
    const raw = Bun.inflateSync(new Uint8Array(encodedIdat(png)));
    const stride = 1 + 300 * 3;
    expect(Array.from({ length: 60 }, (_, y) => raw[y * stride])).toEqual([1, ...Array<number>(59).fill(2)]);
    expect([...decoded(png).data]).toEqual([...p.toStraightRgba()]);
  });

  test("a gradient banner with text-like detail: Up deflates it smaller than Sub would", () => {
    const p = gradientBanner(468, 60, true);
    for (let x = 20; x < 440; x += 9) fillPath(p, new Path().rect(x + 0.3, 18.6, 4.4, 22.2), solid(rgba(240, 240, 250)));
    const png = encodePng(p);
    // The same rows filtered with Sub, deflated at the encoder's level (2).
    const rgbaBytes = p.toStraightRgba(), stride = 1 + 468 * 4;
    const sub = new Uint8Array(stride * 60);
    for (let y = 0; y < 60; y++) {
      sub[y * stride] = 1;
      for (let i = 0; i < 468 * 4; i++) sub[y * stride + 1 + i] = rgbaBytes[y * 468 * 4 + i]! - (i >= 4 ? rgbaBytes[y * 468 * 4 + i - 4]! : 0);
    }
    expect(encodedIdat(png).length).toBeLessThan(Bun.deflateSync(sub, { level: 2 }).length);
  });
});

test("small images: Up rows, and true colour when it beats a palette's overhead; a zlib stream any inflater checks", () => {
  // A badge: two segments under a vertical gradient, rounded corners: ~90 colours, each
  // costing PLTE + tRNS bytes, while Up predicts the gradient rows almost perfectly.
  const p = new Pixmap(114, 20);
  const clip = rasterizeToMask(new Path().roundRect(0, 0, 114, 20, 3));
  fillPath(p, new Path().rect(0, 0, 69, 20), solid(rgba(85, 85, 85)), { clip });
  fillPath(p, new Path().rect(69, 0, 45, 20), solid(rgba(68, 204, 17)), { clip });
  fillPath(p, new Path().rect(0, 0, 114, 20), linearGradient(0, 0, 0, 20, [
    { offset: 0, color: rgba(187, 187, 187, 26) }, { offset: 1, color: rgba(0, 0, 0, 26) },
  ]), { clip });
  const png = encodePng(p);
  expect(ihdr(png)).toEqual({ bitDepth: 8, colorType: 6 });
  // zlib's own inflate checks the stream's header and Adler-32 trailer (libdeflate writes neither).
  const raw = inflateSync(idatStream(png));
  const stride = 1 + 114 * 4;
  expect(Array.from({ length: 20 }, (_, y) => raw[y * stride])).toEqual([1, ...Array<number>(19).fill(2)]);
  expect([...decoded(png).data]).toEqual([...p.toStraightRgba()]);
  // An explicit level is zlib's at that level, whatever the size.
  expect([...inflateSync(idatStream(encodePng(p, { level: 9 })))]).toEqual([...raw]);
});

test("small images: a palette up to 16 colours, true colour from 17 (and a palette again when compact finds it smaller)", () => {
  for (const count of [16, 17]) {
    // 60 x 12: small. Colours scattered (no filter predicts them, so a palette is the smaller file), every one used.
    const p = new Pixmap(60, 12);
    for (let i = 0, seed = 1; i < 60 * 12; i++, seed = (seed * 1103515245 + 12345) % 2 ** 31) {
      p.data.set([(i < count ? i : (seed >> 16) % count) * 9, 40, 200, 255], i * 4);
    }
    const png = encodePng(p);
    expect(ihdr(png)).toEqual(count === 16 ? { bitDepth: 4, colorType: 3 } : { bitDepth: 8, colorType: 2 });
    expect([...decoded(png).data]).toEqual([...p.toStraightRgba()]);
    const compact = encodePng(p, { compact: true });
    expect(ihdr(compact).colorType).toBe(3);
    expect([...decoded(compact).data]).toEqual([...p.toStraightRgba()]);
  }
});

describe("compact PNGs (images encoded once, served many times)", () => {
  /** The badge above with white text on it: anti-aliased edges, ~100-200 colours. */
  function badge(): Pixmap {
    const p = new Pixmap(114, 20);
    const clip = rasterizeToMask(new Path().roundRect(0, 0, 114, 20, 3));
    fillPath(p, new Path().rect(0, 0, 69, 20), solid(rgba(85, 85, 85)), { clip });
    fillPath(p, new Path().rect(69, 0, 45, 20), solid(rgba(68, 204, 17)), { clip });
    for (let x = 6; x < 110; x += 7) fillPath(p, new Path().circle(x + 0.3, 10.4, 2.6), solid(rgba(255, 255, 255)));
    return p;
  }

  test("a palette when it comes out smaller, exactly the same pixels", () => {
    const p = badge();
    const plain = encodePng(p, { level: 6 });
    const compact = encodePng(p, { level: 6, compact: true });
    expect(ihdr(plain).colorType).toBe(6);
    expect(ihdr(compact).colorType).toBe(3);
    expect(compact.length).toBeLessThan(plain.length);
    expect([...decoded(compact).data]).toEqual([...p.toStraightRgba()]);
  });

  test("true colour with a filter chosen per row, exact; never larger than the default", () => {
    for (const [width, height, colors, alphas] of [[40, 30, 1200, undefined], [300, 60, 5000, [255]], [120, 20, 900, undefined]] as const) {
      const { pixmap, straight } = knownImage(width, height, colors, alphas as number[] | undefined);
      const compact = encodePng(pixmap, { level: 6, compact: true });
      expect([...decoded(compact).data]).toEqual(straight);
      expect(compact.length).toBeLessThanOrEqual(encodePng(pixmap, { level: 6 }).length);
    }
    // Rows of a horizontal ramp with a row of noise: Sub for the first row and the noise, Up where the
    // row above repeats, Sub again just after the noise (Up would predict the noise). 101 bytes, not 285.
    const p = new Pixmap(64, 8);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 64; x++) p.data.set(y === 4 ? [(x * 97) % 256, (x * 31) % 256, x, 255] : [x * 4, 255 - x * 4, 128, 255], (y * 64 + x) * 4);
    const png = encodePng(p, { compact: true });
    const raw = Bun.inflateSync(new Uint8Array(encodedIdat(png)));
    expect(Array.from({ length: 8 }, (_, y) => raw[y * (1 + 64 * 3)])).toEqual([1, 2, 2, 2, 1, 1, 2, 2]);
    expect(png.length).toBeLessThan(encodePng(p).length / 2);
  });
});

/** The zlib stream of a PNG with one IDAT chunk. */
function idatStream(png: Uint8Array): Uint8Array {
  const at = Buffer.from(png).indexOf("IDAT");
  const length = new DataView(png.buffer, png.byteOffset).getUint32(at - 4);
  return png.subarray(at + 4, at + 4 + length);
}

/** Its deflate data, without the zlib wrapper. */
function encodedIdat(png: Uint8Array): Uint8Array {
  const stream = idatStream(png);
  return stream.subarray(2, stream.length - 4); // skip the 2-byte zlib header and the adler32
}

/**
 * Premultiplied pixels whose straight values are whole numbers (alphas 17, 51,
 * 85 and 255 divide 255), R, G and B distinct in every visible pixel, about
 * `colors` colours. `straight` is what a correct encoder writes, computed here
 * without the renderer's own conversion (which a fault could share).
 */
function knownImage(width: number, height: number, colors: number, alphas = [255, 85, 51, 17, 0]): { pixmap: Pixmap; straight: number[] } {
  const pixmap = new Pixmap(width, height);
  const straight: number[] = [];
  for (let i = 0; i < width * height; i++) {
    const k = i % colors, a = alphas[k % alphas.length]!, third = Math.floor(a / 3);
    // G is 1..a/3 above R and B a/3 above G (mod a + 1): never equal.
    const r = (k * 7) % (a + 1), shift = 1 + (Math.floor(k / (a + 1)) % Math.max(1, third));
    const g = (r + shift) % (a + 1), b = (r + shift + third) % (a + 1);
    pixmap.data.set([r, g, b, a], i * 4);
    straight.push(...(a === 0 ? [0, 0, 0, 0] : [(r * 255) / a, (g * 255) / a, (b * 255) / a, a]));
  }
  return { pixmap, straight };
}

describe("pixels reach the file exactly (literal values, read back by pngjs and libwebp)", () => {
  const cases: Array<[name: string, width: number, height: number, colors: number, alphas: number[] | undefined, colorType: number]> = [
    ["palette, 4 bits", 4, 4, 16, undefined, 3],
    ["palette, 8 bits", 256, 80, 200, undefined, 3],
    ["RGBA, Paeth (small)", 40, 30, 1200, undefined, 6],
    ["RGBA, Up/Sub", 300, 60, 5000, undefined, 6],
    ["RGB, Paeth (small)", 40, 30, 1200, [255], 2],
    ["RGB, Up/Sub", 300, 60, 5000, [255], 2],
  ];
  for (const [name, width, height, colors, alphas, colorType] of cases) {
    test(`PNG ${name}`, () => {
      const { pixmap, straight } = knownImage(width, height, colors, alphas);
      const png = encodePng(pixmap);
      expect(ihdr(png).colorType).toBe(colorType);
      expect([...decoded(png).data]).toEqual(straight);
    });
  }

  test("WebP lossless: every visible pixel exactly, transparent ones transparent", async () => {
    const { pixmap, straight } = knownImage(60, 20, 1200);
    const webp = await encodeWebp(pixmap);
    const image = await decodeWebp(webp.buffer.slice(webp.byteOffset, webp.byteOffset + webp.byteLength) as ArrayBuffer);
    const visible = (data: ArrayLike<number>) => Array.from({ length: data.length }, (_, i) => (data[i - (i % 4) + 3] === 0 ? 0 : data[i]!));
    expect(visible(image.data)).toEqual(straight);
  });
});

describe("WebP", () => {
  test("our SIMD probe agrees with the encoder's own feature test", async () => {
    expect(supportsWasmSimd()).toBe(await simd());
  });

  test("lossless by default: pixels round-trip exactly where alpha is 255", async () => {
    const p = gradientBanner(120, 30, true);
    const webp = await encodeWebp(p);
    expect(Buffer.from(webp.subarray(0, 4)).toString()).toBe("RIFF");
    expect(Buffer.from(webp.subarray(12, 16)).toString()).toBe("VP8L");
    const image = await decodeWebp(webp.buffer.slice(webp.byteOffset, webp.byteOffset + webp.byteLength) as ArrayBuffer);
    const straight = p.toStraightRgba();
    for (let i = 0; i < straight.length; i += 4) {
      expect(image.data[i + 3]).toBe(straight[i + 3]!);
      if (straight[i + 3] === 255) expect([...image.data.subarray(i, i + 3)]).toEqual([...straight.subarray(i, i + 3)]);
    }
  });

  test("encodes started together on one thread each read their own pixels (the straight copy's scratch is shared)", async () => {
    // Different sizes and contents, WebP and PNG interleaved, none awaited before the next starts.
    const pixmaps = [gradientBanner(120, 30, true), gradientBanner(64, 64, false), gradientBanner(1000, 600, true), gradientBanner(33, 7, false)];
    const webps = pixmaps.map((p) => encodeWebp(p));
    const pngs = pixmaps.map((p) => encodePng(p));
    const images = await Promise.all(webps.map(async (webp) => {
      const bytes = await webp;
      return decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    }));
    pixmaps.forEach((p, n) => {
      const straight = p.toStraightRgba();
      expect([images[n]!.width, images[n]!.height]).toEqual([p.width, p.height]);
      const image = images[n]!.data;
      let wrong = 0;
      for (let i = 0; i < straight.length; i += 4) {
        if (straight[i + 3] === 255 && (image[i] !== straight[i] || image[i + 1] !== straight[i + 1] || image[i + 2] !== straight[i + 2])) wrong++;
      }
      expect(wrong).toBe(0);
      expect([...decoded(pngs[n]!).data]).toEqual([...straight]);
    });
  });

  test("lossy on request, close to the original", async () => {
    const p = gradientBanner(120, 30, false);
    const webp = await encodeWebp(p, { lossless: false, quality: 90 });
    expect(Buffer.from(webp.subarray(12, 16)).toString()).toBe("VP8 ");
    const image = await decodeWebp(webp.buffer.slice(webp.byteOffset, webp.byteOffset + webp.byteLength) as ArrayBuffer);
    const straight = p.toStraightRgba();
    let sum = 0;
    for (let i = 0; i < straight.length; i++) sum += Math.abs(image.data[i]! - straight[i]!);
    expect(sum / straight.length).toBeLessThan(4);
  });
});
