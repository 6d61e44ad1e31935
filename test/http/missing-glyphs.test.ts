// Characters no shipped face has (Cuneiform, Egyptian hieroglyphs, Tangut,
// most CJK Extension B ideographs, private use), drawn over real HTTP on a
// badge label (DejaVu Sans and its fallbacks) and a banner name (Pennant
// Pixel and its fallbacks), decoded with pngjs: each is a box holding its
// code point in hex, as docs/drawing.md says, never an empty box that
// looks the same for every character nor nothing at all.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodeImage, type DecodedImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let plugin: string;
beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
  plugin = newUuid();
  const call = { path: `/api/plugins/${plugin}/data`, token: server.token(), body: { plugin: { version: "1.0.0" } }, tokenHeader: "X-Plugin-Token" as const };
  expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function get(path: string): Promise<DecodedImage> {
  const response = await fetch(server.url + path, { headers: { Accept: "image/png" } });
  expect(response.status).toBe(200);
  return decodeImage(response);
}

/** A flat-square badge at scale 2 (22 px text) whose label is `label`: white text on #555. */
const badge = (label: string) => get(`/shields/plugins/${plugin}/version.png?style=flat-square&scale=2&label=${encodeURIComponent(label)}`);

/** Whether a pixel of a badge's label segment is text: brighter than the #555 ground. */
const isInk = (image: DecodedImage, x: number, y: number) => image.data[(y * image.width + x) * 4]! > 0x90;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The bounds of the text ink left of `before` (the label segment). */
function inkBounds(image: DecodedImage, before: number): Box {
  const box = { left: Infinity, top: Infinity, right: -1, bottom: -1 };
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < before; x++) {
      if (!isInk(image, x, y)) continue;
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return box;
}

/** Where the grey label segment ends: the first column of the message's blue, along the top row (above any text). */
function labelEnd(image: DecodedImage): number {
  let x = 0;
  while (x < image.width && image.data[(image.width + x) * 4 + 2]! < 0xb0) x++;
  return x;
}

function inkCount(image: DecodedImage, box: Box): number {
  let count = 0;
  for (let y = box.top; y <= box.bottom; y++) for (let x = box.left; x <= box.right; x++) if (isInk(image, x, y)) count++;
  return count;
}

describe("a badge label in a script no shipped font has", () => {
  test("𒀀 (U+12000, Cuneiform) is a framed box with its hex digits inside, not an empty one", async () => {
    const image = await badge("\u{12000}");
    const box = inkBounds(image, labelEnd(image));
    const width = box.right - box.left + 1, height = box.bottom - box.top + 1;
    // A box a little less than the 22 px em on each side.
    expect(height).toBeGreaterThanOrEqual(18);
    expect(height).toBeLessThanOrEqual(24);
    expect(width).toBeGreaterThanOrEqual(16);
    expect(width).toBeLessThanOrEqual(24);
    // Its frame: the outer rows and columns are ink almost all along.
    const frame = [
      inkCount(image, { ...box, bottom: box.top }) / width, inkCount(image, { ...box, top: box.bottom }) / width,
      inkCount(image, { ...box, right: box.left }) / height, inkCount(image, { ...box, left: box.right }) / height,
    ];
    for (const side of frame) expect(side).toBeGreaterThan(0.8);
    // Inside the frame (two pixels in from it), two rows of digits: ink in the upper and in the lower half.
    const inside = { left: box.left + 3, right: box.right - 3, top: box.top + 3, bottom: box.bottom - 3 };
    const middle = Math.floor((inside.top + inside.bottom) / 2);
    expect(inkCount(image, { ...inside, bottom: middle - 1 })).toBeGreaterThan(15);
    expect(inkCount(image, { ...inside, top: middle + 1 })).toBeGreaterThan(15);
  });

  test("each code point draws its own digits: U+12000 and U+12001 differ only in the last digit, bottom right", async () => {
    const first = await badge("\u{12000}");
    const second = await badge("\u{12001}");
    expect(second.width).toBe(first.width);
    const box = inkBounds(first, labelEnd(first));
    const centreX = (box.left + box.right) / 2, centreY = (box.top + box.bottom) / 2;
    const differing: Array<[number, number]> = [];
    for (let y = 0; y < first.height; y++) {
      for (let x = 0; x < first.width; x++) {
        const i = (y * first.width + x) * 4;
        if (first.data[i] !== second.data[i] || first.data[i + 1] !== second.data[i + 1] || first.data[i + 2] !== second.data[i + 2]) differing.push([x, y]);
      }
    }
    expect(differing.length).toBeGreaterThan(5);
    for (const [x, y] of differing) expect({ x: x > centreX, y: y > centreY }).toEqual({ x: true, y: true });
  });

  test("a basic-plane code point no face has (U+E000, private use) gets a narrower box of four digits", async () => {
    const cuneiform = await badge("\u{12000}");
    const wide = inkBounds(cuneiform, labelEnd(cuneiform));
    const privateUse = await badge("\ue000");
    const narrow = inkBounds(privateUse, labelEnd(privateUse));
    expect(narrow.right - narrow.left).toBeLessThan(wide.right - wide.left - 3);
    expect(narrow.bottom - narrow.top).toBe(wide.bottom - wide.top);
  });
});

describe("a banner name in a script no shipped font has", () => {
  /** The classic template draws the name in Pennant Pixel, whose missing glyph is nothing at all. */
  const banner = (name: string) => get(`/api/banner?template_key=classic&size=468x60&server_name=${encodeURIComponent(name)}`);

  test("the name's cuneiform is drawn, each character as its own box", async () => {
    const plain = await banner("Skyblock");
    const withCuneiform = await banner("Skyblock \u{12000}");
    const other = await banner("Skyblock \u{12001}");
    expect(withCuneiform.data).not.toEqual(plain.data);
    expect(withCuneiform.data).not.toEqual(other.data);
  });
});
