// Text widths as shields.io sizes its badges. shields measures in Verdana (and
// Helvetica Bold for the social style) without kerning, then stretches the
// text to exactly that width. We draw DejaVu Sans, the free face closest to
// Verdana, so widths come from DejaVu's advances, corrected where Verdana's
// own advances differ: Verdana is a screen face with wide punctuation and a
// wide I and J, so a version like "1.8-1.21.4" would otherwise come out 2-3 px
// narrower than shields' badge. Drawn over that width, DejaVu looks as
// shields' SVG does in a browser without Verdana.

import { measureText, NO_CACHES, sansFamily, type RenderContext } from "../render/index.ts";

export interface BadgeFont {
  /** Pixels per em. */
  size: number;
  bold: boolean;
  /** The face shields measures in. */
  metrics: "verdana" | "helvetica";
}

/**
 * Verdana's advance minus DejaVu Sans's, in em, for the printable ASCII
 * characters where they differ by 0.003 em or more (font metrics of the two
 * faces, as shields measures Verdana; the others agree to a thirtieth of a
 * pixel at badge sizes). Small as they are, they matter: shields rounds each text
 * up to an odd width, so 0.4 px too much can make a segment 2 px wider.
 */
const VERDANA_REGULAR: Record<string, number> = {
  " ": 0.034, "!": -0.007, "#": -0.02, "%": 0.126, "&": -0.053, "'": -0.007, "(": 0.064, ")": 0.064, "*": 0.135,
  "+": -0.02, ",": 0.046, "-": 0.094, ".": 0.046, "/": 0.118, ":": 0.118, ";": 0.118, "<": -0.02, "=": -0.02,
  ">": -0.02, "?": 0.015, I: 0.126, J: 0.16, K: 0.037, M: -0.02, S: 0.049, T: 0.006, Y: 0.005, "[": 0.064,
  "\\": 0.118, "]": 0.064, "^": -0.02, _: 0.135, "`": 0.135, a: -0.012, b: -0.012, c: -0.029, d: -0.012, e: -0.02,
  g: -0.012, i: -0.003, j: 0.067, k: 0.013, l: -0.003, o: -0.005, p: -0.012, q: -0.012, r: 0.015, "|": 0.118,
  "~": -0.02,
};
const VERDANA_BOLD: Record<string, number> = {
  " ": -0.006, "!": -0.054, "\"": 0.066, "#": 0.029, "$": 0.015, "%": 0.27, "&": -0.01, "'": 0.026, "(": 0.086,
  ")": 0.086, "*": 0.188, "+": 0.029, ",": -0.019, "-": 0.065, ".": -0.019, "/": 0.324, "0": 0.015, "1": 0.015,
  "2": 0.015, "3": 0.015, "4": 0.015, "5": 0.015, "6": 0.015, "7": 0.015, "8": 0.015, "9": 0.015, "<": 0.029,
  "=": 0.029, ">": 0.029, "?": 0.037, "@": -0.036, C: -0.01, F: -0.033, G: -0.01, I: 0.174, J: 0.183, K: -0.004,
  M: -0.047, N: 0.01, R: 0.012, S: -0.01, V: -0.01, W: 0.025, X: -0.007, Y: 0.013, Z: -0.033, "[": 0.086,
  "\\": 0.324, "]": 0.086, "^": 0.029, _: 0.211, "`": 0.211, a: -0.007, b: -0.017, c: -0.005, d: -0.017, e: -0.014,
  f: -0.013, g: -0.017, j: 0.06, k: 0.006, m: 0.016, p: -0.017, q: -0.017, r: 0.004, t: -0.022, w: 0.055, x: 0.024,
  z: 0.015, "|": 0.178, "~": 0.029,
};
/**
 * Helvetica Bold's advances in em for printable ASCII (32..126), which the
 * social style is measured in: no free face we ship comes close per
 * character, so its metrics are listed whole.
 */
const HELVETICA_BOLD_ASCII = [
  0.278, 0.278, 0.463, 0.556, 0.556, 1, 0.685, 0.278, 0.296, 0.296, 0.407, 0.6, 0.278, 0.407, 0.278, 0.371, 0.556,
  0.556, 0.556, 0.556, 0.556, 0.556, 0.556, 0.556, 0.556, 0.556, 0.278, 0.278, 0.6, 0.6, 0.6, 0.556, 0.8, 0.685,
  0.704, 0.741, 0.741, 0.648, 0.593, 0.759, 0.741, 0.295, 0.556, 0.722, 0.593, 0.907, 0.741, 0.778, 0.667, 0.778,
  0.722, 0.649, 0.611, 0.741, 0.63, 0.944, 0.667, 0.667, 0.648, 0.333, 0.371, 0.333, 0.6, 0.5, 0.259, 0.574, 0.611,
  0.574, 0.611, 0.574, 0.333, 0.611, 0.593, 0.258, 0.278, 0.574, 0.258, 0.906, 0.593, 0.611, 0.611, 0.611, 0.389,
  0.537, 0.352, 0.593, 0.52, 0.814, 0.537, 0.519, 0.519, 0.333, 0.223, 0.333, 0.6,
];
/** Beyond ASCII, Helvetica Bold is taken as DejaVu Sans Bold narrowed to 0.832 (their ratio over printable ASCII). */
const HELVETICA_BOLD_SCALE = 0.832;

const FIRST_ASCII = 32, LAST_ASCII = 126;
/**
 * Per-em advances of printable ASCII, per face variant (metrics and weight, as
 * a number), measured once. Left at module level: a pure function of constant
 * data (the shipped DejaVu faces and the tables above), four tables at most.
 */
const asciiTables = new Map<number, Float64Array>();

function asciiTable(font: BadgeFont): Float64Array {
  const key = (font.metrics === "helvetica" ? 2 : 0) + (font.bold ? 1 : 0);
  let table = asciiTables.get(key);
  if (table) return table;
  if (font.metrics === "helvetica") {
    table = Float64Array.from(HELVETICA_BOLD_ASCII);
  } else {
    table = new Float64Array(LAST_ASCII - FIRST_ASCII + 1);
    const corrections = font.bold ? VERDANA_BOLD : VERDANA_REGULAR;
    for (let code = FIRST_ASCII; code <= LAST_ASCII; code++) {
      const char = String.fromCharCode(code);
      table[code - FIRST_ASCII] = emAdvance(char, font, NO_CACHES) + (corrections[char] ?? 0);
    }
  }
  asciiTables.set(key, table);
  return table;
}

/** A character's advance in em in DejaVu Sans, alone (no kerning, as shields measures), scaled for Helvetica. */
function emAdvance(char: string, font: BadgeFont, render: RenderContext): number {
  const size = 64;
  const dejavu = measureText(char, { family: sansFamily(), size, bold: font.bold }, render) / size;
  return font.metrics === "helvetica" ? dejavu * HELVETICA_BOLD_SCALE : dejavu;
}

/** The width shields would measure for `text`, in pixels, before rounding; `render` keeps the shapes of characters beyond ASCII. */
export function textWidth(text: string, font: BadgeFont, render: RenderContext = NO_CACHES): number {
  const table = asciiTable(font);
  let ems = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    ems += code >= FIRST_ASCII && code <= LAST_ASCII ? table[code - FIRST_ASCII]! : emAdvance(char, font, render);
  }
  return ems * font.size;
}

/** shields' rounding of a text width: whole pixels (truncated), then up to odd "for pixel grid alignment". */
export function preferredWidth(text: string, font: BadgeFont, render: RenderContext = NO_CACHES): number {
  const whole = Math.trunc(textWidth(text, font, render));
  return whole % 2 === 0 ? whole + 1 : whole;
}
