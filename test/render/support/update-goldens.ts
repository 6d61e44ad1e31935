// `npm run gallery:update`: the only code that writes golden images. Draws
// every gallery scene and rewrites the files in docs/gallery that are missing
// or no longer match (the gallery test's rule, image-diff.ts); files that
// still match are left as they are. Look at every image it names (and at
// `git diff`) before committing.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareImages, describeComparison, matches, readGolden, written } from "./image-diff.ts";
import { GALLERY_DIR, GALLERY_SCENES } from "./gallery-scenes.ts";

let changed = 0;
for (const scene of GALLERY_SCENES) {
  const file = join(GALLERY_DIR, scene.file);
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
console.log(changed === 0 ? "All goldens match." : `${changed} golden(s) written: look at each before committing.`);
