// The example gallery in docs/gallery: every scene (support/gallery-scenes.ts)
// is drawn and compared with its committed image (support/golden.ts). Tests
// never write these files: `npm run gallery:update` does.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { GALLERY_DIR, GALLERY_SCENES, sceneNamed } from "./support/gallery-scenes.ts";
import { expectGolden } from "./support/golden.ts";
import { readFileSync } from "node:fs";
import { gifFrames, webpFrames } from "../support/animations.ts";
import { Pixmap } from "../../src/render/index.ts";
import { ANIMATED_SCENES } from "./support/animated-scenes.ts";
import { compareImages, matches } from "./support/image-diff.ts";

describe("gallery", () => {
  for (const scene of GALLERY_SCENES) {
    test(`${scene.file}: ${scene.title}`, () => expectGolden(join(GALLERY_DIR, scene.file), scene.draw()));
  }

  for (const scene of ANIMATED_SCENES) {
    test(`${scene.file}: ${scene.title}, frame by frame`, async () => {
      const framesOf = async (bytes: Uint8Array) => (scene.format === "gif" ? gifFrames(bytes) : (await webpFrames(bytes)).frames);
      const golden = await framesOf(new Uint8Array(readFileSync(join(GALLERY_DIR, scene.file))));
      const drawn = await framesOf(await scene.draw());
      expect(golden.map((f) => f.durationMs)).toEqual(drawn.map((f) => f.durationMs));
      const pixmap = (image: (typeof drawn)[number]["image"]) => Pixmap.fromStraightRgba(image.width, image.height, image.data);
      for (const [i, frame] of drawn.entries()) expect([i, matches(compareImages(pixmap(golden[i]!.image), pixmap(frame.image)))]).toEqual([i, true]);
    });
  }

  test("clip: the rounded corner is transparent, the middle opaque", () => {
    const p = sceneNamed("clip.png").draw();
    expect(p.pixel(0, 0).a).toBe(0);
    expect(p.pixel(234, 30).a).toBe(255);
  });

  test("blur: the shadow shows below the card, fading outwards", () => {
    const p = sceneNamed("blur.png").draw();
    expect(p.pixel(150, 100).r).toBeLessThan(p.pixel(150, 110).r);
  });
});
