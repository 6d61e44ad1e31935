// Drawing styled text the way the game does: one laid out piece per run of
// one style, the game's drop shadow, and truncation with an ellipsis when a
// line is wider than the room it has. The runs come from whoever parsed the
// text: render knows no text format.

import { parseHexColor, type Color } from "../color.ts";
import { NO_CACHES, type RenderContext } from "../context.ts";
import type { Pixmap } from "../pixmap.ts";
import { drawTextLine, type TextDrawOptions } from "./draw-text.ts";
import { ellipsize, layoutText, type FontFamily, type FontStyle, type TextLine } from "./layout.ts";

/** Text in one style. */
export interface TextRun {
  text: string;
  /** "#rrggbb", or null for the caller's default colour. */
  color: string | null;
  bold: boolean;
  italic: boolean;
  underlined: boolean;
  strikethrough: boolean;
  /** Drawn as a fixed scramble of the same length (the game changes it every frame). */
  obfuscated: boolean;
}

export interface FormattedPiece {
  line: TextLine;
  /** Pen offset from the start of the formatted line. */
  x: number;
  /** null: the caller's default colour (runs without a colour code). */
  color: Color | null;
  underline: boolean;
  strikethrough: boolean;
}

export interface FormattedLine {
  pieces: FormattedPiece[];
  width: number;
}

// Obfuscated text changes every frame in the game; a still image shows a fixed
// scramble drawn from these, chosen by position so that renders are stable.
const SCRAMBLE = "abcdeghknopqsuvxyzABCDEFGHJKLNOPQRSTUVXYZ0234567890#$%&?";

function obfuscate(text: string): string {
  let index = 0;
  return [...text]
    .map((char) => (char === " " ? char : SCRAMBLE[(index++ * 7 + char.codePointAt(0)!) % SCRAMBLE.length]!))
    .join("");
}

/**
 * Lays out one line of runs (no "\n": the caller splits lines). Past `maxWidth`
 * pixels the run that overflows is cut with "…" and later runs are dropped.
 */
export function layoutFormatted(
  runs: readonly TextRun[], family: FontFamily, size: number, maxWidth = Infinity, context: RenderContext = NO_CACHES,
): FormattedLine {
  const pieces: FormattedPiece[] = [];
  let x = 0;
  for (const run of runs) {
    const style: FontStyle = { family, size, bold: run.bold, italic: run.italic };
    const text = run.obfuscated ? obfuscate(run.text) : run.text;
    let line = layoutText(text, style, context);
    const overflows = x + line.width > maxWidth;
    if (overflows) line = layoutText(ellipsize(text, style, maxWidth - x, context), style, context);
    pieces.push({
      line,
      x,
      color: run.color === null ? null : parseHexColor(run.color),
      underline: run.underlined,
      strikethrough: run.strikethrough,
    });
    x += line.width;
    if (overflows) break;
  }
  return { pieces, width: x };
}

/** The game's shadow colour: each channel a quarter of the text's. */
export function shadowColor(color: Color): Color {
  return { r: color.r >> 2, g: color.g >> 2, b: color.b >> 2, a: color.a };
}

export interface FormattedDrawOptions extends Pick<TextDrawOptions, "opacity" | "glyphCache" | "context"> {
  /** Colour of runs that name none. */
  defaultColor: Color;
  /** Draws the game's drop shadow this many pixels right and down first (0: none). */
  shadowOffset?: number;
}

export function drawFormattedLine(pixmap: Pixmap, formatted: FormattedLine, x: number, baseline: number, options: FormattedDrawOptions): void {
  const shadow = options.shadowOffset ?? 0;
  const passes = shadow > 0 ? [shadow, 0] : [0];
  for (const offset of passes) {
    for (const piece of formatted.pieces) {
      const color = piece.color ?? options.defaultColor;
      drawTextLine(pixmap, piece.line, x + piece.x + offset, baseline + offset, offset > 0 ? shadowColor(color) : color, {
        opacity: options.opacity,
        glyphCache: options.glyphCache,
        context: options.context,
        underline: piece.underline,
        strikethrough: piece.strikethrough,
      });
    }
  }
}
