// Outline faces: TrueType, OpenType (CFF) and WOFF2 files read with fontkit.
// Shaping uses fontkit's layout (kerning, ligatures, mark positioning). A
// shipped face comes with its tables (face-tables.ts), which answer for text
// of the table alphabet as fontkit would; fontkit itself is loaded, and the
// file opened, only for what they do not hold.

import { readFileSync } from "node:fs";
import type * as fontkit from "fontkit";
import type { Path } from "../path.ts";
import { allocateFaceId, type Face, type FaceMetrics, type ShapedRun } from "./face.ts";
import { TableShaper, type FaceTables } from "./face-tables.ts";
import { metricsOf, nameOf, outlineOf, shapeOf } from "./fontkit-font.ts";

export interface OutlineFaceOptions {
  bold?: boolean;
  italic?: boolean;
  /** The face's tables, learned ahead of time from this very file. */
  tables?: FaceTables;
}

// fontkit keeps every glyph object it ever made, parsed outline included, in
// font._glyphs, without bound: a stream of distinct CJK characters would grow
// it by hundreds of MB. Pennant's own caches bound what is worth keeping, so
// fontkit's is emptied once it holds more than this many glyphs.
const FONTKIT_GLYPH_LIMIT = 1024;
/** How often (in calls) the size of fontkit's glyph cache is checked. */
const TRIM_EVERY = 64;

interface FontkitInternals {
  _glyphs?: Record<number, unknown>;
}

/**
 * fontkit, loaded on first use. Required, not imported: loading it is synchronous (drawing is) and
 * happens only in a thread that draws something the tables do not hold.
 */
function fontkitModule(): typeof fontkit {
  return require("fontkit") as typeof fontkit;
}

export class OutlineFace implements Face {
  readonly id = allocateFaceId();
  readonly name: string;
  readonly metrics: FaceMetrics;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly pixelAligned = false;
  readonly fauxBoldEm = 1 / 16;
  /** The answers of the face's tables, if it has them. */
  readonly tables: TableShaper | undefined;
  private calls = 0;
  private opened: fontkit.Font | undefined;

  constructor(private readonly file: string, options: OutlineFaceOptions = {}) {
    this.bold = options.bold ?? false;
    this.italic = options.italic ?? false;
    this.tables = options.tables && new TableShaper(options.tables);
    this.name = options.tables?.name ?? nameOf(this.font());
    this.metrics = options.tables?.metrics ?? metricsOf(this.font());
  }

  /** Whether fontkit has opened the face's file (for tests). */
  get fontkitOpened(): boolean {
    return this.opened !== undefined;
  }

  private font(): fontkit.Font {
    if (!this.opened) {
      const font = fontkitModule().create(readFileSync(this.file));
      if (!("unitsPerEm" in font)) throw new Error(`${this.file} is a font collection; name one face`);
      this.opened = font;
    }
    return this.opened;
  }

  covers(codePoint: number): boolean {
    return this.tables?.covers(codePoint) ?? this.font().hasGlyphForCodePoint(codePoint);
  }

  shape(text: string): ShapedRun {
    return this.tables?.shape(text) ?? this.shapeWithFontkit(text);
  }

  /** fontkit's own layout of `text` (the reference the tables are learned from and tested against). */
  shapeWithFontkit(text: string): ShapedRun {
    this.trimFontkitCache();
    return shapeOf(this.font(), text);
  }

  outline(glyphId: number): Path {
    const stored = this.tables?.outline(glyphId);
    if (stored) return stored;
    this.trimFontkitCache();
    return outlineOf(this.font(), glyphId);
  }

  /** The number of glyph objects fontkit holds for this face (bounded by FONTKIT_GLYPH_LIMIT + TRIM_EVERY per call kind). */
  fontkitGlyphCount(): number {
    return Object.keys((this.opened as unknown as FontkitInternals | undefined)?._glyphs ?? {}).length;
  }

  private trimFontkitCache(): void {
    if (++this.calls % TRIM_EVERY !== 0 || !this.opened) return;
    if (this.fontkitGlyphCount() > FONTKIT_GLYPH_LIMIT) (this.opened as unknown as FontkitInternals)._glyphs = {};
  }
}

/** A face of a font file (a path, which may point into the compiled binary's embedded files). */
export function openOutlineFace(file: string, options: OutlineFaceOptions = {}): OutlineFace {
  return new OutlineFace(file, options);
}
