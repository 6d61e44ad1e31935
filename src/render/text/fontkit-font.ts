// What Pennant reads from a font opened with fontkit: its metrics, its name,
// a glyph's outline and a run's shape. Shared by outline faces (for what the
// tables do not hold) and by the learning of those tables (table-learning.ts).

import type * as fontkit from "fontkit";
import { Path } from "../path.ts";
import type { FaceMetrics, ShapedRun } from "./face.ts";

// fontkit's types omit the OS/2 strikeout fields.
interface Os2Strikeout {
  yStrikeoutSize?: number;
  yStrikeoutPosition?: number;
}

export function metricsOf(font: fontkit.Font): FaceMetrics {
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

export function nameOf(font: fontkit.Font): string {
  return font.fullName || font.postscriptName || "font";
}

/** The glyph's outline in font units, y up. */
export function outlineOf(font: fontkit.Font, glyphId: number): Path {
  const path = new Path();
  for (const { command, args } of font.getGlyph(glyphId).path.commands) {
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

/** fontkit's layout of `text` (kerning, ligatures, mark positioning) as a shaped run. */
export function shapeOf(font: fontkit.Font, text: string): ShapedRun {
  const run = font.layout(text);
  const positions = run.positions;
  return {
    glyphIds: run.glyphs.map((glyph) => glyph.id),
    advances: positions.map((p) => p.xAdvance),
    xOffsets: positions.map((p) => p.xOffset),
    yOffsets: positions.map((p) => p.yOffset),
  };
}
