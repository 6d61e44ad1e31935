// decodePng on hostile and unusual files: a decompression bomb is refused
// after inflating no more than its header allows; every colour type, bit
// depth, filter and interlacing decodes to what pngjs (an independent
// decoder) reads; pixels come out premultiplied as the pipeline draws them.

import { describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { PNG } from "pngjs";
import { DEFAULT_DECODE_LIMITS, Pixmap, decodePng, encodePng, rgba } from "../../src/render/index.ts";
import { imageDataSize } from "../../src/render/image/png-structure.ts";
import { chunk, craftPng, ihdr, imageData, pngFile, type RawImage } from "./support/craft-png.ts";

/** Deterministic pseudo-random integers in 0..max. */
function samples(count: number, max: number, seed = 1): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % (max + 1);
  });
}

function decoded(bytes: Uint8Array): Pixmap {
  const result = decodePng(bytes);
  if (!result.ok) throw new Error(result.message);
  return result.image;
}

/** What pngjs reads from the file, premultiplied the way the pipeline stores pixels. */
function pngjsReads(bytes: Uint8Array): Pixmap {
  const png = PNG.sync.read(Buffer.from(bytes));
  return Pixmap.fromStraightRgba(png.width, png.height, png.data);
}

describe("decompression bombs", () => {
  // 100 MiB of zeros deflate to ~100 KB: far below the 2 MiB file limit.
  const bombData = deflateSync(new Uint8Array(100 * 1024 * 1024), { level: 9 });

  for (const interlaced of [true, false]) {
    test(`a 64x64 ${interlaced ? "interlaced" : "plain"} PNG whose data inflates to 100 MiB is refused without inflating it`, () => {
      const bomb = pngFile([ihdr(64, 64, 8, 6, interlaced), chunk("IDAT", bombData)]);
      expect(bomb.length).toBeLessThan(DEFAULT_DECODE_LIMITS.maxBytes);
      const expected = interlaced ? 16504 : 16448;
      const before = process.memoryUsage().rss;
      const result = decodePng(bomb);
      const grown = process.memoryUsage().rss - before;
      expect(result).toEqual({
        ok: false, error: "corrupt", message: `corrupt PNG: image data inflates past the ${expected} bytes its header implies`,
      });
      // Inflating it whole would hold 100 MiB at least.
      expect(grown).toBeLessThan(32 * 1024 * 1024);
    });
  }

  test("the bound is exact: one byte of image data more than the header implies is refused, one less too", () => {
    const image: RawImage = { width: 9, height: 5, bitDepth: 8, colorType: 6, interlaced: true, samples: samples(9 * 5 * 4, 255) };
    const data = imageData(image);
    const file = (raw: Uint8Array) => pngFile([ihdr(9, 5, 8, 6, true), chunk("IDAT", deflateSync(raw))]);
    expect(decodePng(file(data)).ok).toBe(true);
    expect(decodePng(file(Buffer.concat([data, Uint8Array.of(0)])))).toMatchObject({ ok: false, error: "corrupt", message: expect.stringContaining("inflates past") });
    expect(decodePng(file(data.subarray(0, data.length - 1)))).toMatchObject({ ok: false, error: "corrupt" });
  });

  test("the expected size counts every Adam7 pass with its filter bytes, and no empty pass", () => {
    const header = (width: number, height: number, bitDepth: number, colorType: number, interlaced: boolean) =>
      ({ width, height, bitDepth, colorType, interlaced });
    // Worked by hand: 64x64 RGBA passes of 8x8, 8x8, 16x8, 16x16, 32x16, 32x32, 64x32 pixels, 4 bytes each, a filter byte a row.
    expect(imageDataSize(header(64, 64, 8, 6, true))).toBe(8 * 33 + 8 * 33 + 8 * 65 + 16 * 65 + 16 * 129 + 32 * 129 + 32 * 257);
    expect(imageDataSize(header(64, 64, 8, 6, false))).toBe(64 * 257);
    // 5x3 at one bit: passes 1, 2, 4, 5 and 7 have one row of one byte, pass 6 two; pass 3 starts below the image.
    expect(imageDataSize(header(5, 3, 1, 0, true))).toBe(2 + 2 + 2 + 2 + 2 * 2 + 2);
    // 3x1 at 64 bits a pixel: passes 1, 4 and 6 hold one pixel each.
    expect(imageDataSize(header(3, 1, 16, 6, true))).toBe(3 * (1 + 8));
    for (const [width, height] of [[1, 1], [2, 9], [7, 7], [8, 8], [13, 5], [33, 17]] as const) {
      for (const [colorType, bitDepth] of [[0, 1], [0, 2], [3, 4], [2, 8], [4, 16], [6, 16]] as const) {
        const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
        const image = { width, height, bitDepth, colorType, interlaced: true, samples: new Array<number>(width * height * channels).fill(0) };
        expect(imageDataSize(image)).toBe(imageData(image).length);
      }
    }
  });
});

describe("every PNG format decodes as pngjs reads it", () => {
  const formats: Array<[colorType: number, bitDepth: number]> = [
    [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [2, 8], [2, 16], [3, 1], [3, 2], [3, 4], [3, 8], [4, 8], [4, 16], [6, 8], [6, 16],
  ];

  function rawImage(colorType: number, bitDepth: number, interlaced: boolean): RawImage {
    const width = 13, height = 11, channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType]!;
    const max = colorType === 3 ? Math.min(255, (1 << bitDepth) - 1) : (1 << bitDepth) - 1;
    const image: RawImage = { width, height, bitDepth, colorType, interlaced, samples: samples(width * height * channels, max, colorType * 31 + bitDepth) };
    if (colorType === 3) {
      image.palette = samples((max + 1) * 3, 255, 7);
      image.trns = samples(Math.ceil((max + 1) / 2), 255, 9); // alphas for the first half of the entries
    }
    // Colour keys equal to the first pixel's samples, so that some pixels are keyed out.
    if (colorType === 0) image.trns = [image.samples[0]! >> 8, image.samples[0]! & 255];
    if (colorType === 2) image.trns = image.samples.slice(0, 3).flatMap((s) => [s >> 8, s & 255]);
    return image;
  }

  for (const [colorType, bitDepth] of formats) {
    for (const interlaced of [false, true]) {
      test(`colour type ${colorType}, ${bitDepth} bits${interlaced ? ", interlaced" : ""}, every filter`, () => {
        const png = craftPng(rawImage(colorType, bitDepth, interlaced));
        const ours = decoded(png);
        // The colour key applies: the first pixel is keyed out.
        if (colorType === 0 || colorType === 2) expect(ours.pixel(0, 0).a).toBe(0);
        expect([...ours.data]).toEqual([...pngjsReads(png).data]);
      });
    }
  }

  test("an interlaced file decodes to the same pixels as the plain one", () => {
    const image: RawImage = { width: 37, height: 23, bitDepth: 8, colorType: 6, samples: samples(37 * 23 * 4, 255, 5) };
    const plain = decoded(craftPng(image));
    const interlaced = decoded(craftPng({ ...image, interlaced: true }));
    expect([...interlaced.data]).toEqual([...plain.data]);
    expect([...plain.data]).toEqual([...Pixmap.fromStraightRgba(37, 23, image.samples).data]);
  });

  test("files from pngjs's own encoder, each filter forced, 8 and 16 bits", () => {
    for (const [colorType, bitDepth] of [[0, 8], [2, 8], [4, 8], [6, 8], [0, 16], [2, 16], [6, 16]] as const) {
      for (const filterType of [0, 1, 2, 3, 4]) {
        const png = new PNG({ width: 19, height: 7, colorType, bitDepth, inputHasAlpha: true, filterType });
        png.data.set(samples(19 * 7 * 4, 255, filterType + 1));
        const bytes = new Uint8Array(PNG.sync.write(png, { colorType, bitDepth, inputHasAlpha: true, filterType }));
        expect([...decoded(bytes).data]).toEqual([...pngjsReads(bytes).data]);
      }
    }
  });
});

describe("decodePng", () => {
  const encoded = (width: number, height: number) => {
    const png = new PNG({ width, height });
    for (let i = 0; i < png.data.length; i += 4) png.data.set([10, 20, 30, i % 8 === 0 ? 255 : 128], i);
    return new Uint8Array(PNG.sync.write(png));
  };

  test("pixels come out premultiplied, exactly as the pipeline stores them", () => {
    const png = new PNG({ width: 4, height: 1 });
    png.data.set([200, 100, 50, 128, 255, 0, 255, 1, 10, 20, 30, 0, 9, 99, 199, 255]);
    const image = decoded(new Uint8Array(PNG.sync.write(png)));
    // 200 * 128 / 255 = 100.4 -> 100, 50.2 -> 50, 25.1 -> 25; alpha 1 keeps 1/255 of each; alpha 0 is all zeros.
    expect([...image.data]).toEqual([100, 50, 25, 128, 1, 0, 1, 1, 0, 0, 0, 0, 9, 99, 199, 255]);
  });

  test("refuses large images from the header, before decoding", () => {
    const result = decodePng(encoded(300, 10), { maxWidth: 256, maxHeight: 256, maxBytes: 1 << 20 });
    expect(result).toMatchObject({ ok: false, error: "too-large" });
    expect(decodePng(encoded(10, 10), { maxWidth: 256, maxHeight: 256, maxBytes: 50 })).toMatchObject({ ok: false, error: "too-large" });
  });

  test("a forged header claiming a huge size is refused without allocation", () => {
    const bytes = encoded(8, 8);
    new DataView(bytes.buffer).setUint32(16, 1 << 30);
    expect(decodePng(bytes)).toMatchObject({ ok: false, error: "too-large" });
  });

  test("garbage, truncation and corrupt data are values, not exceptions", () => {
    expect(decodePng(new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false, error: "not-png" });
    const good = encoded(16, 16);
    expect(decodePng(good.subarray(0, good.length - 30))).toMatchObject({ ok: false, error: "corrupt" });
    const flipped = good.slice();
    flipped[60] = flipped[60]! ^ 0xff; // inside IDAT: CRC mismatch
    expect(decodePng(flipped)).toMatchObject({ ok: false, error: "corrupt", message: expect.stringContaining("CRC") });
    const zero = good.slice();
    new DataView(zero.buffer).setUint32(16, 0);
    expect(decodePng(zero)).toMatchObject({ ok: false, error: "corrupt" });
  });

  test("malformed structure and data are refused by name", () => {
    const grey: RawImage = { width: 4, height: 2, bitDepth: 8, colorType: 0, samples: samples(8, 255) };
    const raw = imageData(grey);
    const withData = (data: Uint8Array, extra: Uint8Array[] = []) => pngFile([ihdr(4, 2, 8, 0, false), ...extra, chunk("IDAT", deflateSync(data))]);
    const badFilter = raw.slice();
    badFilter[0] = 5;
    const cases: Array<[Uint8Array, string]> = [
      [withData(badFilter), "unknown filter type 5"],
      [withData(raw, [chunk("ABCD", new Uint8Array(1))]), "unsupported critical chunk ABCD"],
      [pngFile([ihdr(4, 2, 8, 0, false)]), "no image data"],
      [pngFile([ihdr(4, 2, 3, 0, false), chunk("IDAT", deflateSync(raw))]), "unsupported colour type 0 with bit depth 3"],
      [pngFile([ihdr(4, 2, 8, 3, false), chunk("IDAT", deflateSync(raw))]), "without a valid PLTE"],
      [craftPng({ width: 2, height: 1, bitDepth: 8, colorType: 3, samples: [0, 2], palette: [1, 2, 3, 4, 5, 6] }), "palette index 2 out of range"],
      [pngFile([ihdr(4, 2, 8, 0, false), chunk("IDAT", Uint8Array.of(1, 2, 3))]), "does not inflate"],
    ];
    for (const [bytes, message] of cases) {
      expect(decodePng(bytes)).toMatchObject({ ok: false, error: "corrupt", message: expect.stringContaining(message) });
    }
    // Ancillary chunks the decoder does not know are skipped.
    expect(decodePng(withData(raw, [chunk("teXt", new Uint8Array(3))])).ok).toBe(true);
  });

  test("files with valid CRCs but lying headers, odd chunks and damaged image data are values, never exceptions", () => {
    const rnd = (() => {
      let state = 11;
      return (n: number) => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return (state >>> 8) % n;
      };
    })();
    const formats = [[0, 1], [0, 16], [2, 8], [3, 2], [3, 8], [4, 16], [6, 8]] as const;
    for (let n = 0; n < 2000; n++) {
      const [colorType, bitDepth] = formats[rnd(formats.length)]!;
      const width = 1 + rnd(9), height = 1 + rnd(9), interlaced = rnd(2) === 1;
      const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
      const raw = imageData({ width, height, bitDepth, colorType, interlaced, samples: samples(width * height * channels, 1, n) });
      for (let k = rnd(3); k > 0; k--) raw[rnd(raw.length)] = rnd(256);
      const compressed = deflateSync(raw), split = rnd(compressed.length);
      const bytes = pngFile([
        ihdr(rnd(4) === 0 ? 1 + rnd(12) : width, rnd(4) === 0 ? 1 + rnd(12) : height, rnd(8) === 0 ? rnd(20) : bitDepth,
          rnd(8) === 0 ? rnd(8) : colorType, rnd(4) === 0 ? !interlaced : interlaced),
        ...(colorType === 3 || rnd(4) === 0 ? [chunk("PLTE", Uint8Array.from(samples(3 * rnd(260), 255, n)))] : []),
        ...(rnd(3) === 0 ? [chunk("tRNS", Uint8Array.from(samples(rnd(10), 255, n)))] : []),
        chunk("IDAT", compressed.subarray(0, split)), chunk("IDAT", compressed.subarray(split)),
      ]);
      expect(typeof decodePng(bytes).ok).toBe("boolean");
    }
  });

  test("our own PNGs decode back (palette and true colour)", () => {
    const flat = new Pixmap(30, 20);
    flat.fill(rgba(40, 50, 60));
    const many = Pixmap.fromStraightRgba(20, 20, samples(20 * 20 * 4, 255, 3));
    for (const image of [flat, many]) {
      const back = decoded(encodePng(image));
      // Straight values survive; premultiplied ones then match after the same conversion.
      expect([...back.data]).toEqual([...Pixmap.fromStraightRgba(image.width, image.height, image.toStraightRgba()).data]);
    }
  });
});
