// Golden images: a drawing is compared with its committed PNG, then written
// back so that the folder always shows what the code draws now (a changed
// image then shows up in `git diff`). PENNANT_UPDATE_GALLERY=1 accepts changes.
//
// "Close enough" is a mean difference under 1/255 per channel and at most
// 0.5% of pixels off by more than 32/255: anti-aliasing noise passes, a
// moved or missing glyph does not.

import { expect } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { decodePng, encodePng, type Pixmap } from "../../../src/render/index.ts";

export function matchGolden(file: string, pixmap: Pixmap): void {
  const update = process.env.PENNANT_UPDATE_GALLERY === "1";
  if (!update) {
    expect(existsSync(file)).toBe(true);
    const old = decodePng(new Uint8Array(readFileSync(file)));
    expect(old.ok).toBe(true);
    if (!old.ok) return;
    expect([old.image.width, old.image.height]).toEqual([pixmap.width, pixmap.height]);
    let sum = 0, far = 0;
    const a = pixmap.data, b = old.image.data;
    for (let i = 0; i < a.length; i += 4) {
      let worst = 0;
      for (let c = 0; c < 4; c++) {
        const d = Math.abs(a[i + c]! - b[i + c]!);
        sum += d;
        if (d > worst) worst = d;
      }
      if (worst > 32) far++;
    }
    expect(sum / a.length).toBeLessThan(1);
    expect(far).toBeLessThanOrEqual(Math.floor((a.length / 4) * 0.005));
  }
  writeFileSync(file, encodePng(pixmap));
}
