// Badge colours as shields.io reads them: its own named palette and aliases
// first, then three or six hex digits without "#", then any CSS colour
// (keywords, #hex, rgb(), hsl()). Text is dark or light by the background's
// brightness, with shields' formula and threshold.

import { rgba, type Color } from "../render/basics.ts";

/** A colour as a badge uses it: the text shown in endpoint JSON and the pixels drawn. */
export interface BadgeColor {
  /** shields' normalized form: a palette name, "#" + hex, or the CSS text in lower case. */
  css: string;
  rgba: Color;
}

/** shields' palette (badge-maker 6). */
const PALETTE: Record<string, string> = {
  brightgreen: "#4b0",
  green: "#67ac09",
  yellow: "#d8b800",
  yellowgreen: "#95991a",
  orange: "#ea7233",
  red: "#dd4343",
  blue: "#007ec6",
  grey: "#555",
  lightgrey: "#939393",
};

const ALIASES: Record<string, string> = {
  gray: "grey",
  lightgray: "lightgrey",
  critical: "red",
  important: "orange",
  success: "brightgreen",
  informational: "blue",
  inactive: "lightgrey",
};

/** "a 1 b 2" as a map a -> 1, b -> 2. */
function wordPairs(text: string): Map<string, string> {
  const words = text.split(" ");
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < words.length; i += 2) map.set(words[i]!, words[i + 1]!);
  return map;
}

/** The CSS Color 4 keywords (what browsers accept as named colours). */
const CSS_KEYWORDS = wordPairs(
  "aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 " +
  "black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 " +
  "chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff " +
  "darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 " +
  "darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 " +
  "darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f " +
  "darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 " +
  "dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc " +
  "ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 " +
  "honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa " +
  "lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff " +
  "lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 " +
  "lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899 " +
  "lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff " +
  "maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db " +
  "mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc " +
  "mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 " +
  "navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 " +
  "orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee palevioletred db7093 " +
  "papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 " +
  "rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 " +
  "sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d silver c0c0c0 skyblue 87ceeb " +
  "slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c " +
  "teal 008080 thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff " +
  "whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32",
);

/** Longest colour text looked at; anything longer is not a colour. */
const MAX_COLOR_LENGTH = 64;

function fromHex(hex: string): Color | null {
  if (!/^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) return null;
  const full = hex.length <= 4 ? hex.replace(/./g, (digit) => digit + digit) : hex;
  const byte = (offset: number) => Number.parseInt(full.slice(offset, offset + 2), 16);
  return rgba(byte(0), byte(2), byte(4), full.length === 8 ? byte(6) : 255);
}

/** A number, or a percentage of `percentOf`; NaN when neither. */
function component(text: string, percentOf: number): number {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%?)$/i.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] ? (value / 100) * percentOf : value;
}

/** The arguments of rgb()/hsl() in either syntax: "a, b, c[, alpha]" or "a b c[ / alpha]". */
function functionArguments(body: string): string[] | null {
  const trimmed = body.trim();
  if (trimmed.includes(",")) {
    const parts = trimmed.split(",").map((part) => part.trim());
    return parts.length === 3 || parts.length === 4 ? parts : null;
  }
  const [main, alpha, ...rest] = trimmed.split("/");
  if (rest.length > 0) return null;
  const parts = main!.trim().split(/\s+/);
  if (parts.length !== 3) return null;
  return alpha === undefined ? parts : [...parts, alpha.trim()];
}

function hueToRgb(p: number, q: number, t: number): number {
  const h = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
  if (h < 1 / 6) return p + (q - p) * 6 * h;
  if (h < 1 / 2) return q;
  if (h < 2 / 3) return p + (q - p) * (2 / 3 - h) * 6;
  return p;
}

function fromFunction(name: string, body: string): Color | null {
  const args = functionArguments(body);
  if (!args) return null;
  const alpha = args[3] === undefined ? 1 : component(args[3], 1);
  let color: Color;
  if (name === "rgb" || name === "rgba") {
    const [r, g, b] = args.slice(0, 3).map((arg) => component(arg, 255)) as [number, number, number];
    color = rgba(r, g, b, alpha * 255);
  } else {
    const hue = component(args[0]!.replace(/deg$/i, ""), Number.NaN);
    const saturation = args[1]!.endsWith("%") ? component(args[1]!, 1) : Number.NaN;
    const lightness = args[2]!.endsWith("%") ? component(args[2]!, 1) : Number.NaN;
    const h = (((hue % 360) + 360) % 360) / 360;
    const s = Math.min(Math.max(saturation, 0), 1), l = Math.min(Math.max(lightness, 0), 1);
    const q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
    color = rgba(hueToRgb(p, q, h + 1 / 3) * 255, hueToRgb(p, q, h) * 255, hueToRgb(p, q, h - 1 / 3) * 255, alpha * 255);
  }
  // rgba() clamps, but a NaN (a malformed argument) would slip through as 0.
  return [color.r, color.g, color.b, color.a].some(Number.isNaN) || Number.isNaN(alpha) ? null : color;
}

/** A CSS colour (keyword, #hex, rgb[a](), hsl[a]()), or null. */
export function parseCssColor(text: string): Color | null {
  const value = text.trim().toLowerCase();
  if (value.length === 0 || value.length > MAX_COLOR_LENGTH) return null;
  const keyword = CSS_KEYWORDS.get(value);
  if (keyword) return fromHex(keyword);
  if (value.startsWith("#")) return fromHex(value.slice(1));
  const call = /^(rgba?|hsla?)\(([^()]*)\)$/.exec(value);
  return call ? fromFunction(call[1]!, call[2]!) : null;
}

/**
 * A colour parameter as shields reads it: a palette name or alias, 3 or 6
 * hex digits without "#", or a CSS colour; null for anything else (the
 * caller keeps its default).
 */
export function parseBadgeColor(input: string | undefined): BadgeColor | null {
  if (input === undefined) return null;
  // Own keys only: a query asking for "constructor" must not find Object's.
  const name = Object.hasOwn(ALIASES, input) ? ALIASES[input]! : input;
  if (Object.hasOwn(PALETTE, name)) return { css: name, rgba: fromHex(PALETTE[name]!.slice(1))! };
  if (/^(?:[0-9a-f]{3}){1,2}$/i.test(input)) return { css: `#${input.toLowerCase()}`, rgba: fromHex(input)! };
  const css = parseCssColor(input);
  return css ? { css: input.trim().toLowerCase(), rgba: css } : null;
}

/** The colour as an SVG fill, as shields writes it: a palette name as its hex, anything else as normalized. */
export function svgColor(color: BadgeColor): string {
  return Object.hasOwn(PALETTE, color.css) ? PALETTE[color.css]! : color.css;
}

/** A colour the code itself names (palette names, hex): a mistake there is a bug, not input. */
export function badgeColor(name: string): BadgeColor {
  const color = parseBadgeColor(name);
  if (!color) throw new Error(`not a badge colour: ${name}`);
  return color;
}

/** shields' brightness: (299 R + 587 G + 114 B) / 255000, rounded to two decimals. */
/** A colour's four bytes as one number (0..2^32-1), for cache keys. */
export function colorNumber(c: Color): number {
  return ((c.r << 24) | (c.g << 16) | (c.b << 8) | c.a) >>> 0;
}

export function brightness(color: Color): number {
  return Math.round((color.r * 299 + color.g * 587 + color.b * 114) / 2550) / 100;
}

export interface TextColors {
  text: Color;
  shadow: Color;
}

const LIGHT_TEXT: TextColors = { text: rgba(255, 255, 255), shadow: rgba(1, 1, 1) };
const DARK_TEXT: TextColors = { text: rgba(0x33, 0x33, 0x33), shadow: rgba(0xcc, 0xcc, 0xcc) };

/** Whether text on `background` is light (white over a dark shadow): brightness up to 0.69, as shields. */
export function takesLightText(background: Color): boolean {
  return brightness(background) <= 0.69;
}

/** White text over a dark shadow on backgrounds of brightness up to 0.69; #333 over #ccc above. */
export function textColorsOn(background: Color): TextColors {
  return takesLightText(background) ? LIGHT_TEXT : DARK_TEXT;
}
