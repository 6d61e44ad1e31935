// An animation's states kept at the size of where they differ
// (src/render/encode/state-regions.ts), and the encoders placing frames of
// that region on the canvas: read back by independent decoders, an animation
// made from the regions shows the same frames as one made from the whole
// states. An animated WebP whose whole first frame grew the encoder has it
// collected before it asks for the later frames.

import { describe, expect, test } from "bun:test";
import {
  crossFade, encodeAnimatedWebp, encodeGif, onEncoderDropped, Pixmap, StateRegions, wholeFrames, type Animation, type AnimationFrame,
} from "../../src/render/index.ts";
import { gifFrames, webpFrames } from "../support/animations.ts";

const WIDTH = 61, HEIGHT = 23;
const RED = { r: 220, g: 30, b: 30, a: 255 }, BLUE = { r: 30, g: 60, b: 220, a: 255 };

/** A grey pixmap with `box` of it in `color` (half transparent at its corner pixel, to exercise premultiplied alpha). */
function state(box?: { x: number; y: number; width: number; height: number }, color = RED): Pixmap {
  const pixmap = new Pixmap(WIDTH, HEIGHT);
  pixmap.fill({ r: 90, g: 90, b: 90, a: 255 });
  if (!box) return pixmap;
  const spot = new Pixmap(1, 1);
  spot.fill(color);
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) pixmap.pixels[y * WIDTH + x] = spot.pixels[0]!;
  const half = new Pixmap(1, 1);
  half.fill({ ...color, a: 128 });
  pixmap.pixels[box.y * WIDTH + box.x] = half.pixels[0]!;
  return pixmap;
}

/** The pixels of `box` of `pixmap`, row by row. */
const pixelsOf = (pixmap: Pixmap, box: { x: number; y: number; width: number; height: number }) =>
  Array.from({ length: box.height }, (_, row) => [...pixmap.pixels.subarray((box.y + row) * pixmap.width + box.x, (box.y + row) * pixmap.width + box.x + box.width)]);

describe("StateRegions", () => {
  test("the region is every box where a state differs from the first, from even x and y; each state there is that state's pixels", () => {
    const states = [state(), state({ x: 7, y: 5, width: 4, height: 3 }), state({ x: 21, y: 11, width: 9, height: 6 }, BLUE)];
    const regions = new StateRegions(states[0]!);
    for (const drawn of states.slice(1)) regions.add(drawn);
    const { region, states: parts, fading } = regions.regions();
    expect(region).toEqual({ x: 6, y: 4, width: 24, height: 13 });
    expect(parts.map((part) => pixelsOf(part, { ...region, x: 0, y: 0 }))).toEqual(states.map((drawn) => pixelsOf(drawn, region)));
    expect([fading.width, fading.height]).toEqual([24, 13]);
    regions.end();
    expect(parts[0]!.data.length).toBe(0); // freed at once
  });

  test("states that do not differ: the 2x2 corner", () => {
    const regions = new StateRegions(state());
    regions.add(state());
    const { region, states } = regions.regions();
    expect(region).toEqual({ x: 0, y: 0, width: 2, height: 2 });
    expect(states).toHaveLength(2);
  });

  test("states of another size are refused", () => {
    expect(() => new StateRegions(state()).add(new Pixmap(WIDTH, HEIGHT + 1))).toThrow(RangeError);
  });
});

describe("animations made of regions", () => {
  const states = [state(), state({ x: 7, y: 5, width: 4, height: 3 }), state({ x: 41, y: 13, width: 9, height: 6 }, BLUE)];
  /** Each state held, then faded halfway towards the next: the whole frames, and the same animation from the regions. */
  function animations(): { whole: Animation; regions: Animation } {
    const frames: AnimationFrame[] = [];
    const kept = new StateRegions(states[0]!);
    for (const drawn of states.slice(1)) kept.add(drawn);
    const { region, states: parts, fading } = kept.regions();
    const rest: AnimationFrame[] = [];
    for (const [i, drawn] of states.entries()) {
      const next = (i + 1) % states.length;
      const faded = new Pixmap(WIDTH, HEIGHT);
      crossFade(drawn, states[next]!, 0.5, faded);
      frames.push({ pixmap: drawn, durationMs: 500 }, { pixmap: faded, durationMs: 100 });
      const fadedPart = new Pixmap(fading.width, fading.height);
      crossFade(parts[i]!, parts[next]!, 0.5, fadedPart);
      if (i > 0) rest.push({ pixmap: parts[i]!, durationMs: 500 });
      rest.push({ pixmap: fadedPart, durationMs: 100 });
    }
    return { whole: wholeFrames(frames), regions: { first: frames[0]!, later: () => ({ region, frames: rest }) } };
  }

  test("WebP: the same frames, each later one placed within the region", async () => {
    const { whole, regions } = animations();
    const [expected, got] = [await webpFrames(await encodeAnimatedWebp(whole)), await webpFrames(await encodeAnimatedWebp(regions))];
    expect(got.frames.map(({ durationMs, image }) => ({ durationMs, data: image.data }))).toEqual(expected.frames.map(({ durationMs, image }) => ({ durationMs, data: image.data })));
    expect(got.frames.slice(1).every(({ x, y, width, height }) => x >= 6 && y >= 4 && x + width <= 50 && y + height <= 19)).toBe(true);
  });

  test("GIF: the same frames", async () => {
    const { whole, regions } = animations();
    const frames = (animation: Animation) => gifFrames(encodeGif(animation, [])).map(({ durationMs, image }) => ({ durationMs, data: image.data }));
    expect(frames(regions)).toEqual(frames(whole));
  });

  test("a region at an odd x is refused", () => {
    const { regions } = animations();
    const later = regions.later();
    expect(() => encodeGif({ ...regions, later: () => ({ ...later, region: { ...later.region, x: 7 } }) }, [])).toThrow(RangeError);
  });
});

describe("an animated WebP's first frame", () => {
  /** What happened, in order, while `width` x `height` was encoded with two later frames. */
  async function order(width: number, height: number): Promise<string[]> {
    const seen: string[] = [];
    onEncoderDropped(async () => {
      seen.push("collected");
    });
    try {
      const first = new Pixmap(width, height);
      first.fill(RED);
      const later = () => {
        seen.push("later frames asked for");
        const part = new Pixmap(2, 2);
        return { region: { x: 0, y: 0, width: 2, height: 2 }, frames: [{ pixmap: part, durationMs: 100 }, { pixmap: part, durationMs: 100 }] };
      };
      await encodeAnimatedWebp({ first: { pixmap: first, durationMs: 100 }, later });
      return seen;
    } finally {
      onEncoderDropped(() => Promise.resolve());
    }
  }

  test("larger than the encoder's first memory (1024x520): the grown encoder is collected before the later frames are asked for", async () => {
    expect(await order(1024, 520)).toEqual(["collected", "later frames asked for"]);
  });

  test("within it (1200x300): nothing to collect", async () => {
    expect(await order(1200, 300)).toEqual(["later frames asked for"]);
  });
});
