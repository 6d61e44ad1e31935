// Outline faces: TrueType, OpenType (CFF) and WOFF2 files read with fontkit.
// Shaping uses fontkit's layout (kerning, ligatures, mark positioning); runs of
// printable ASCII are composed from tables learned from it where that gives
// the same result (ascii-shaper.ts).

import { readFileSync } from "node:fs";
import * as fontkit from "fontkit";
import { Path } from "../path.ts";
import { AsciiShaper } from "./ascii-shaper.ts";
import { allocateFaceId, type Face, type FaceMetrics, type ShapedRun } from "./face.ts";

export interface OutlineFaceOptions {
  bold?: boolean;
  italic?: boolean;
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

// fontkit's types omit the OS/2 strikeout fields.
interface Os2Strikeout {
  yStrikeoutSize?: number;
  yStrikeoutPosition?: number;
}

function metricsOf(font: fontkit.Font): FaceMetrics {
  const os2 = font["OS/2"] as unknown as Os2Strikeout | undefined;
  const unitsPerEm = font.unitsPerEm;
  const fallbackThickness = Math.max(1, Math.round(unitsPerEm / 20));
  return {
    unitsPerEm,
    ascent: font.ascent,
    descent: font.descent,
    lineGap: font.lineGap,
    underlinePosition: font.underlinePosition || -Math.round(unitsPerEm / 10),
    underlineThickness: font.underlineThickness || fallbackThickness,
    strikeoutPosition: os2?.yStrikeoutPosition || Math.round(unitsPerEm * 0.3),
    strikeoutThickness: os2?.yStrikeoutSize || fallbackThickness,
  };
}

export class OutlineFace implements Face {
  readonly id = allocateFaceId();
  readonly name: string;
  readonly metrics: FaceMetrics;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly pixelAligned = false;
  readonly fauxBoldEm = 1 / 16;
  private calls = 0;
  readonly ascii: AsciiShaper;

  constructor(private readonly font: fontkit.Font, options: OutlineFaceOptions = {}) {
    this.ascii = new AsciiShaper(font);
    this.name = font.fullName || font.postscriptName || "font";
    this.metrics = metricsOf(font);
    this.bold = options.bold ?? false;
    this.italic = options.italic ?? false;
  }

  covers(codePoint: number): boolean {
    return this.font.hasGlyphForCodePoint(codePoint);
  }

  shape(text: string): ShapedRun {
    return this.ascii.shape(text) ?? this.shapeWithFontkit(text);
  }

  /** fontkit's own layout of `text` (the reference the ASCII tables are learned from and tested against). */
  shapeWithFontkit(text: string): ShapedRun {
    this.trimFontkitCache();
    const run = this.font.layout(text);
    const positions = run.positions;
    return {
      glyphIds: run.glyphs.map((glyph) => glyph.id),
      advances: positions.map((p) => p.xAdvance),
      xOffsets: positions.map((p) => p.xOffset),
      yOffsets: positions.map((p) => p.yOffset),
    };
  }

  outline(glyphId: number): Path {
    this.trimFontkitCache();
    const path = new Path();
    for (const { command, args } of this.font.getGlyph(glyphId).path.commands) {
      const a = args as number[];
      switch (command) {
        case "moveTo": path.moveTo(a[0]!, a[1]!); break;
        case "lineTo": path.lineTo(a[0]!, a[1]!); break;
        case "quadraticCurveTo": path.quadTo(a[0]!, a[1]!, a[2]!, a[3]!); break;
        case "bezierCurveTo": path.cubicTo(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!); break;
        case "closePath": path.close(); break;
      }
    }
    return path;
  }

  /** The number of glyph objects fontkit holds for this face (bounded by FONTKIT_GLYPH_LIMIT + TRIM_EVERY per call kind). */
  fontkitGlyphCount(): number {
    return Object.keys((this.font as unknown as FontkitInternals)._glyphs ?? {}).length;
  }

  private trimFontkitCache(): void {
    if (++this.calls % TRIM_EVERY !== 0) return;
    if (this.fontkitGlyphCount() > FONTKIT_GLYPH_LIMIT) (this.font as unknown as FontkitInternals)._glyphs = {};
  }
}

/** Opens a font file (a path, which may point into the compiled binary's embedded files). */
export function openOutlineFace(file: string, options: OutlineFaceOptions = {}): OutlineFace {
  const font = fontkit.create(readFileSync(file));
  if (!("unitsPerEm" in font)) throw new Error(`${file} is a font collection; name one face`);
  return new OutlineFace(font, options);
}
