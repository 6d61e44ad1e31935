// The faces shipped in glyphs/, embedded by import so that `bun build
// --compile` carries them inside the binary. Faces are opened on first use:
// reading the 6 MB of Unifont costs ~10 ms that a process serving only JSON
// never pays, nor one whose text DejaVu and Pennant Pixel draw alone (and
// each render thread would keep its own copy: ~6 MiB of RSS a thread). The
// DejaVu faces come with their tables (glyphs/dejavu/tables.json, see
// face-tables.ts), so that text of the table alphabet opens no font file and
// loads no fontkit.

import dejavuSans from "../../../glyphs/dejavu/DejaVuSans.ttf" with { type: "file" };
import dejavuSansBold from "../../../glyphs/dejavu/DejaVuSans-Bold.ttf" with { type: "file" };
import dejavuSansOblique from "../../../glyphs/dejavu/DejaVuSans-Oblique.ttf" with { type: "file" };
import dejavuTables from "../../../glyphs/dejavu/tables.json" with { type: "json" };
import pennantPixel from "../../../glyphs/pixel/pennant-pixel.txt" with { type: "text" };
import unifont from "../../../glyphs/unifont/unifont.otf" with { type: "file" };
import unifontUpper from "../../../glyphs/unifont/unifont_upper.otf" with { type: "file" };
import type { Face } from "./face.ts";
import type { FaceTables } from "./face-tables.ts";
import type { FontFamily } from "./layout.ts";
import { openOutlineFace } from "./outline-face.ts";
import { PixelFace } from "./pixel-face.ts";

/** The DejaVu files by name, as glyphs/dejavu/tables.json keys their tables. */
export const DEJAVU_FILES = {
  "DejaVuSans.ttf": dejavuSans,
  "DejaVuSans-Bold.ttf": dejavuSansBold,
  "DejaVuSans-Oblique.ttf": dejavuSansOblique,
};
type DejaVuFile = keyof typeof DEJAVU_FILES;

function dejavu(name: DejaVuFile, style: { bold?: boolean; italic?: boolean } = {}): Face {
  return openOutlineFace(DEJAVU_FILES[name], { ...style, tables: (dejavuTables as unknown as Record<DejaVuFile, FaceTables>)[name] });
}

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
  regular: dejavu("DejaVuSans.ttf"),
  bold: dejavu("DejaVuSans-Bold.ttf", { bold: true }),
  italic: dejavu("DejaVuSans-Oblique.ttf", { italic: true }),
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
