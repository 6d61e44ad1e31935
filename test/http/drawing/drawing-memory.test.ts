// What a drawing holds while it runs (draw-memory.ts's drawingMemory), by
// which the pool admits drawings beside each other: a still by its pixels
// and format, an animation by its states' pixmaps and its frames.

import { describe, expect, test } from "bun:test";
import { drawingMemory } from "../../../src/serve/drawing/draw-memory.ts";

const PIXELS = 1200 * 300;

describe("drawingMemory", () => {
  test("a still: 16 bytes a pixel as PNG, 70 as WebP, 24 as GIF (measured: 1200x300 at scale 2 raised a thread's peak by 24), none as SVG", () => {
    const perPixel = (contentType: "image/png" | "image/webp" | "image/gif" | "image/svg+xml") => drawingMemory({ pixels: PIXELS, contentType }) / PIXELS;
    expect([perPixel("image/png"), perPixel("image/webp"), perPixel("image/gif"), perPixel("image/svg+xml")]).toEqual([16, 70, 24, 0]);
  });

  test("an animated plan's memory is charged by its frames: each frame adds its pixels' worth, each state a pixmap", () => {
    for (const contentType of ["image/gif", "image/webp"] as const) {
      const memory = (frames: number) => drawingMemory({ pixels: PIXELS, contentType, frames });
      // 2, 3 and 5 states (a hold and two fading frames each): 6, 9 and 15 frames.
      const [six, nine, fifteen] = [memory(6), memory(9), memory(15)];
      expect(six).toBeGreaterThan(memory(1));
      expect(nine).toBeGreaterThan(six);
      expect(fifteen).toBeGreaterThan(nine);
      // Three more frames and one more state: at least a byte a pixel a frame (a GIF's indices) and the state's pixmap (4).
      expect(nine - six).toBeGreaterThanOrEqual(PIXELS * (3 * 1 + 4));
      // At least the still's, every state's pixmap and the fading one's, and a byte a pixel a frame.
      expect(fifteen).toBeGreaterThanOrEqual(drawingMemory({ pixels: PIXELS, contentType }) + PIXELS * (4 * (5 + 1) + 15));
    }
    // The animated 1200x300 GIF of 9 frames raised a fresh render thread's peak by 18.3 MiB (53 bytes a pixel): counted no lower.
    expect(drawingMemory({ pixels: PIXELS, contentType: "image/gif", frames: 9 })).toBeGreaterThanOrEqual(PIXELS * 53);
  });
});
