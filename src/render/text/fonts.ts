// The faces shipped in glyphs/, embedded by import so that `bun build
// --compile` carries them inside the binary. Faces are opened on first use:
// reading the 6 MB of Unifont costs ~10 ms that a process serving only JSON
// never pays, nor one whose text DejaVu and Pennant Pixel draw alone (and
// each render thread would keep its own copy: ~6 MiB of RSS a thread).

import dejavuSans from "../../../glyphs/dejavu/DejaVuSans.ttf" with { type: "file" };
import dejavuSansBold from "../../../glyphs/dejavu/DejaVuSans-Bold.ttf" with { type: "file" };
import dejavuSansOblique from "../../../glyphs/dejavu/DejaVuSans-Oblique.ttf" with { type: "file" };
import pennantPixel from "../../../glyphs/pixel/pennant-pixel.txt" with { type: "text" };
import unifont from "../../../glyphs/unifont/unifont.otf" with { type: "file" };
import unifontUpper from "../../../glyphs/unifont/unifont_upper.otf" with { type: "file" };
import type { Face } from "./face.ts";
import type { FontFamily } from "./layout.ts";
import { openOutlineFace } from "./outline-face.ts";
import { PixelFace } from "./pixel-face.ts";

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/**
 * GNU Unifont: the game's own fallback for characters outside its font. The
 * basic plane covers CJK, Hangul and symbols; the upper file, emoji and other
 * supplementary-plane characters (drawn monochrome).
 */
const unifontFaces = once((): Face[] => [openOutlineFace(unifont), openOutlineFace(unifontUpper)]);

/** DejaVu Sans (metrically close to Verdana, which shields-style badges are measured in). */
export const sansFamily = once((): FontFamily => ({
  regular: openOutlineFace(dejavuSans),
  bold: openOutlineFace(dejavuSansBold, { bold: true }),
  italic: openOutlineFace(dejavuSansOblique, { italic: true }),
  // Opened when a character needs them (layout.ts), as most banners and badges never do.
  get fallbacks() {
    return unifontFaces();
  },
}));

/** Pennant Pixel for the Minecraft look: eight pixels to the em, sharp at sizes that are multiples of 8. */
export const pixelFamily = once((): FontFamily => ({
  regular: new PixelFace("Pennant Pixel", pennantPixel),
  get fallbacks() {
    return unifontFaces();
  },
}));
