// `npm run gallery:update`: the only code that writes golden images. Draws
// every gallery scene and rewrites the files in docs/gallery that are missing
// or no longer match (the gallery test's rule, image-diff.ts); files that
// still match are left as they are. Look at every image it names (and at
// `git diff`) before committing.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareImages, describeComparison, matches, readGolden, written } from "./image-diff.ts";
import { GALLERY_DIR, GALLERY_SCENES } from "./gallery-scenes.ts";
import { BADGE_GALLERY_DIR, BADGE_GALLERY_SCENES } from "../../badge/support/badge-gallery.ts";
import { ANIMATED_SCENES } from "./animated-scenes.ts";
import { existsSync, readFileSync } from "node:fs";

let changed = 0;
const scenes = [
  ...GALLERY_SCENES.map((scene) => ({ scene, dir: GALLERY_DIR })),
  ...BADGE_GALLERY_SCENES.map((scene) => ({ scene, dir: BADGE_GALLERY_DIR })),
];
for (const { scene, dir } of scenes) {
  const file = join(dir, scene.file);
  const pixmap = scene.draw();
  const actual = written(pixmap);
  const golden = readGolden(file);
  const sameSize = golden !== null && golden.width === pixmap.width && golden.height === pixmap.height;
  const comparison = sameSize ? compareImages(golden, actual.pixels) : null;
  if (comparison && matches(comparison)) {
    console.log(`unchanged  ${scene.file}`);
    continue;
  }
  writeFileSync(file, actual.png);
  changed++;
  const why = !golden ? "new" : comparison ? describeComparison(comparison) : `size was ${golden.width}x${golden.height}`;
  console.log(`written    ${scene.file} (${why})`);
}
// Animations: written when their bytes differ (the encoders are ours and pinned: the same drawing, the same bytes).
for (const scene of ANIMATED_SCENES) {
  const file = join(GALLERY_DIR, scene.file);
  const bytes = await scene.draw();
  const existed = existsSync(file);
  if (existed && Buffer.compare(readFileSync(file), bytes) === 0) {
    console.log(`unchanged  ${scene.file}`);
    continue;
  }
  writeFileSync(file, bytes);
  changed++;
  console.log(`written    ${scene.file} (${existed ? "changed" : "new"})`);
}
console.log(changed === 0 ? "All goldens match." : `${changed} golden(s) written: look at each before committing.`);
