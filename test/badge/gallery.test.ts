// Badge goldens in docs/gallery (support/badge-gallery.ts): each drawing must
// match its committed image. Tests never write them: `npm run gallery:update` does.

import { describe, test } from "bun:test";
import { join } from "node:path";
import { expectGolden } from "../render/support/golden.ts";
import { BADGE_GALLERY_DIR, BADGE_GALLERY_SCENES } from "./support/badge-gallery.ts";

describe("badge gallery", () => {
  for (const scene of BADGE_GALLERY_SCENES) {
    test(`${scene.file}: ${scene.title}`, () => expectGolden(join(BADGE_GALLERY_DIR, scene.file), scene.draw()));
  }
});
