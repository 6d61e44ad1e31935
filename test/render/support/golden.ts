// The gallery test's check: a drawing must match its committed golden image
// (image-diff.ts says how closely). This never writes a golden: on a mismatch
// it leaves the actual drawing and a diff image in test-output/gallery/ and
// fails; `npm run gallery:update` (update-goldens.ts) is what rewrites goldens.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { encodePng, type Pixmap } from "../../../src/render/index.ts";
import { compareImages, describeComparison, matches, readGolden, written } from "./image-diff.ts";

const ROOT = join(import.meta.dir, "../../..");
/** Where failed comparisons leave their images for inspection (gitignored). */
const INSPECTION_DIR = join(ROOT, "test-output/gallery");
const UPDATE_HINT = "if the change is intended, run `npm run gallery:update` and look at the images before committing";

export function expectGolden(file: string, pixmap: Pixmap): void {
  const name = relative(ROOT, file);
  const base = basename(file, ".png");
  const actualFile = join(INSPECTION_DIR, `${base}.actual.png`), diffFile = join(INSPECTION_DIR, `${base}.diff.png`);
  rmSync(actualFile, { force: true });
  rmSync(diffFile, { force: true });
  const golden = readGolden(file);
  if (!golden) throw new Error(`${name} does not exist: create it with \`npm run gallery:update\` and look at it`);
  const actual = written(pixmap);
  if (golden.width !== pixmap.width || golden.height !== pixmap.height) {
    throw new Error(`${name} is ${golden.width}x${golden.height}, the drawing ${pixmap.width}x${pixmap.height}; ${UPDATE_HINT}`);
  }
  const comparison = compareImages(golden, actual.pixels);
  if (matches(comparison)) return;
  mkdirSync(INSPECTION_DIR, { recursive: true });
  writeFileSync(actualFile, actual.png);
  writeFileSync(diffFile, encodePng(comparison.diff));
  throw new Error(`${name} does not match the drawing: ${describeComparison(comparison)}. ` +
    `See ${relative(ROOT, actualFile)} and ${relative(ROOT, diffFile)}; ${UPDATE_HINT}.`);
}
