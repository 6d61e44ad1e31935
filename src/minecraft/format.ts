// Minecraft formatted text: legacy `§` codes and JSON chat components, parsed
// into styled runs that can be drawn (src/render takes runs), flattened to
// plain text, written as HTML or back as `§` text. Pure; hostile input (deep
// nesting, huge text) is bounded, never thrown.

export interface TextStyle {
  /** "#rrggbb", or null for "the renderer's default colour" (themes differ). */
  color: string | null;
  bold: boolean;
  italic: boolean;
  underlined: boolean;
  strikethrough: boolean;
  obfuscated: boolean;
}

export interface StyledRun extends TextStyle {
  text: string;
}

/** Colours of the sixteen `§0`-`§f` codes (plus Bedrock's `§g`), by code and by JSON name. */
const PALETTE: Array<[code: string, name: string, hex: string]> = [
  ["0", "black", "#000000"],
  ["1", "dark_blue", "#0000aa"],
  ["2", "dark_green", "#00aa00"],
  ["3", "dark_aqua", "#00aaaa"],
  ["4", "dark_red", "#aa0000"],
  ["5", "dark_purple", "#aa00aa"],
  ["6", "gold", "#ffaa00"],
  ["7", "gray", "#aaaaaa"],
  ["8", "dark_gray", "#555555"],
  ["9", "blue", "#5555ff"],
  ["a", "green", "#55ff55"],
  ["b", "aqua", "#55ffff"],
  ["c", "red", "#ff5555"],
  ["d", "light_purple", "#ff55ff"],
  ["e", "yellow", "#ffff55"],
  ["f", "white", "#ffffff"],
  ["g", "minecoin_gold", "#ddd605"],
];
export const COLOR_BY_CODE: ReadonlyMap<string, string> = new Map(PALETTE.map(([code, , hex]) => [code, hex]));
export const COLOR_BY_NAME: ReadonlyMap<string, string> = new Map(PALETTE.map(([, name, hex]) => [name, hex]));

type StyleFlag = keyof Omit<TextStyle, "color">;

/** The style codes, in the order toSectionText writes them (any order reads the same). */
const STYLE_BY_CODE: Record<string, StyleFlag> = {
  l: "bold",
  o: "italic",
  n: "underlined",
  m: "strikethrough",
  k: "obfuscated",
};

export const PLAIN: TextStyle = {
  color: null,
  bold: false,
  italic: false,
  underlined: false,
  strikethrough: false,
  obfuscated: false,
};

/** Plain text as one unstyled run (drawn in the caller's default colour). */
export function plainRun(text: string): StyledRun {
  return { text, ...PLAIN };
}

/** Bounds for hostile input: the game itself caps a status reply at 32 KiB characters. */
export const FORMAT_LIMITS = { depth: 32, characters: 32_768, runs: 4_096 };

/** Collects runs, merging neighbours of equal style and enforcing the limits. */
class RunBuilder {
  readonly runs: StyledRun[] = [];
  private characters = 0;

  add(text: string, style: TextStyle): void {
    if (text === "" || this.full) return;
    const room = FORMAT_LIMITS.characters - this.characters;
    const clipped = text.length > room ? text.slice(0, room) : text;
    this.characters += clipped.length;
    const last = this.runs.at(-1);
    if (last && sameStyle(last, style)) {
      last.text += clipped;
    } else if (this.runs.length < FORMAT_LIMITS.runs) {
      this.runs.push({ ...style, text: clipped });
    }
  }

  get full(): boolean {
    return this.characters >= FORMAT_LIMITS.characters;
  }
}

function sameStyle(a: TextStyle, b: TextStyle): boolean {
  return (
    a.color === b.color &&
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underlined === b.underlined &&
    a.strikethrough === b.strikethrough &&
    a.obfuscated === b.obfuscated
  );
}

/**
 * Applies `§` codes to text that starts in `base`. As in Java Edition, a colour
 * code (and a `§x` hex colour) also clears bold/italic/...; `§r` returns to
 * `base`; an unknown code is dropped together with its `§`.
 */
function addLegacy(builder: RunBuilder, text: string, base: TextStyle): void {
  let style = base;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "§") {
      i++;
      continue;
    }
    builder.add(text.slice(start, i), style);
    const code = (text[i + 1] ?? "").toLowerCase();
    const hex = code === "x" ? hexSequence(text, i + 2) : null;
    if (hex) {
      style = { ...PLAIN, color: hex };
    } else {
      const color = COLOR_BY_CODE.get(code);
      const flag = STYLE_BY_CODE[code];
      if (color) style = { ...PLAIN, color };
      else if (flag) style = { ...style, [flag]: true };
      else if (code === "r") style = base;
    }
    i += codeLength(text, i);
    start = i;
  }
  builder.add(text.slice(start), style);
}

/** UTF-16 units of the code point at `at` (2 for an emoji, so a cut never splits one). */
function codePointLength(text: string, at: number): number {
  return (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
}

/**
 * Characters the `§` code at `at` takes: 14 for a whole `§x` hex colour, 1 for
 * a `§` that ends the text, otherwise the `§` and its code character.
 */
function codeLength(text: string, at: number): number {
  if (at + 1 >= text.length) return 1;
  if (text[at + 1]!.toLowerCase() === "x" && hexSequence(text, at + 2)) return 14;
  return 1 + codePointLength(text, at + 1);
}

/**
 * `§` text cut to at most `maxChars` characters where the game would not read
 * it differently: never between a `§` and its code character or inside a code
 * point, and never after an unfinished `§x` hex colour (`§x` followed by fewer
 * than six `§`-digit pairs). Codes at the end style nothing, so what is drawn
 * is the start of what the whole text draws. Text within the bound is kept as it is.
 */
export function cutFormatted(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = 0;
  /** Where an unfinished `§x` that the kept text ends in begins, or -1. */
  let unfinishedHex = -1;
  while (end < text.length) {
    const length = text[end] === "§" ? codeLength(text, end) : codePointLength(text, end);
    if (end + length > maxChars) break;
    const code = length === 2 && text[end] === "§" ? text[end + 1]!.toLowerCase() : "";
    // "§x§x§1" read to its end is unfinished from the first §x on.
    const inHex = code === "x" || (unfinishedHex >= 0 && /^[0-9a-f]$/.test(code));
    if (!inHex) unfinishedHex = -1;
    else if (unfinishedHex < 0) unfinishedHex = end;
    end += length;
  }
  return text.slice(0, unfinishedHex < 0 ? end : unfinishedHex);
}

/** A `§` and the code after it (or a lone `§` at the end). */
const FORMATTING_CODE = /§[\s\S]?/g;

/** Plain text without `§` codes, for values drawn in one style (names, versions). */
export function stripFormatting(text: string): string {
  return text.replace(FORMATTING_CODE, "");
}

const CODE_BY_COLOR: ReadonlyMap<string, string> = new Map(PALETTE.map(([code, , hex]) => [hex, code]));
const FLAG_CODES = Object.entries(STYLE_BY_CODE);

/** A colour as `§` codes: the palette's code, else `§x` and six `§`-digit pairs; no colour is `§r`. */
function colorCode(color: string | null): string {
  if (color === null) return "§r";
  const code = CODE_BY_COLOR.get(color);
  return code ? `§${code}` : `§x${[...color.slice(1)].map((digit) => `§${digit}`).join("")}`;
}

/**
 * Runs written as `§` text that parses back into the same runs. Each run
 * starts with its colour (`§r` when it has none), since a colour code clears
 * the flags, then its flags. The leading code also keeps text that starts
 * with `[`, `{` or `"` from being read as JSON.
 */
export function toSectionText(runs: readonly StyledRun[]): string {
  return runs
    .map((run) => colorCode(run.color) + FLAG_CODES.map(([code, flag]) => (run[flag] ? `§${code}` : "")).join("") + run.text)
    .join("");
}

/** `§R§R§G§G§B§B` after `§x`, as "#rrggbb", or null. */
function hexSequence(text: string, at: number): string | null {
  let hex = "";
  for (let k = 0; k < 6; k++) {
    const marker = text[at + 2 * k];
    const digit = text[at + 2 * k + 1];
    if (marker !== "§" || digit === undefined || !/[0-9a-f]/i.test(digit)) return null;
    hex += digit.toLowerCase();
  }
  return `#${hex}`;
}

function componentColor(value: unknown, inherited: TextStyle, base: TextStyle): string | null {
  if (typeof value !== "string") return inherited.color;
  if (value === "reset") return base.color;
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  return COLOR_BY_NAME.get(value.toLowerCase()) ?? inherited.color;
}

function flag(value: unknown, inherited: boolean): boolean {
  return typeof value === "boolean" ? value : inherited;
}

/** The visible text of one component object, before its children. */
function componentText(component: Record<string, unknown>): string {
  const { text, translate, fallback, keybind } = component;
  if (typeof text === "string") return text;
  if (typeof text === "number" || typeof text === "boolean") return String(text);
  // Without the game's language files a translation shows its fallback or key.
  if (typeof translate === "string") return typeof fallback === "string" ? fallback : translate;
  if (typeof keybind === "string") return keybind;
  return "";
}

function addComponent(builder: RunBuilder, component: unknown, inherited: TextStyle, base: TextStyle, depth: number): void {
  if (builder.full || depth > FORMAT_LIMITS.depth) return;
  if (typeof component === "string") {
    addLegacy(builder, component, inherited);
  } else if (typeof component === "number" || typeof component === "boolean") {
    builder.add(String(component), inherited);
  } else if (Array.isArray(component)) {
    // The first element is the parent of the others: they inherit its style.
    const [parent, ...children] = component;
    if (parent === undefined) return;
    addComponent(builder, parent, inherited, base, depth + 1);
    const parentStyle = isObject(parent) ? styleOf(parent, inherited, base) : inherited;
    for (const child of children) addComponent(builder, child, parentStyle, base, depth + 1);
  } else if (isObject(component)) {
    const style = styleOf(component, inherited, base);
    addLegacy(builder, componentText(component), style);
    if (Array.isArray(component.extra)) {
      for (const child of component.extra) addComponent(builder, child, style, base, depth + 1);
    }
  }
}

function styleOf(component: Record<string, unknown>, inherited: TextStyle, base: TextStyle): TextStyle {
  return {
    color: componentColor(component.color, inherited, base),
    bold: flag(component.bold, inherited.bold),
    italic: flag(component.italic, inherited.italic),
    underlined: flag(component.underlined, inherited.underlined),
    strikethrough: flag(component.strikethrough, inherited.strikethrough),
    obfuscated: flag(component.obfuscated, inherited.obfuscated),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Parses a MOTD or any formatted text: a JSON chat component (already parsed,
 * or as a JSON string starting with `{`, `[` or `"`), or `§`-coded text.
 */
export function parseFormatted(input: unknown, base: TextStyle = PLAIN): StyledRun[] {
  const builder = new RunBuilder();
  let component = input;
  if (typeof input === "string" && /^\s*[[{"]/.test(input)) {
    try {
      component = JSON.parse(input);
    } catch {
      component = input; // Not JSON after all: plain `§` text that starts with a bracket.
    }
  }
  addComponent(builder, component, base, base, 0);
  return builder.runs;
}

export function toPlainText(runs: readonly StyledRun[]): string {
  return runs.map((run) => run.text).join("");
}

/** Splits runs into lines at "\n" (the server list shows the first two). */
export function splitLines(runs: readonly StyledRun[]): StyledRun[][] {
  const lines: StyledRun[][] = [[]];
  for (const run of runs) {
    run.text.split("\n").forEach((piece, index) => {
      if (index > 0) lines.push([]);
      if (piece !== "") lines.at(-1)!.push({ ...run, text: piece });
    });
  }
  return lines;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Escaped HTML with inline styles; obfuscated text gets the class "mc-obfuscated". */
export function toHtml(runs: readonly StyledRun[]): string {
  return runs
    .map((run) => {
      const css: string[] = [];
      if (run.color) css.push(`color:${run.color}`);
      if (run.bold) css.push("font-weight:bold");
      if (run.italic) css.push("font-style:italic");
      const decorations = [run.underlined && "underline", run.strikethrough && "line-through"].filter(Boolean);
      if (decorations.length > 0) css.push(`text-decoration:${decorations.join(" ")}`);
      const text = escapeHtml(run.text).replaceAll("\n", "<br>");
      const attributes = [
        css.length > 0 ? ` style="${css.join(";")}"` : "",
        run.obfuscated ? ' class="mc-obfuscated"' : "",
      ].join("");
      return attributes ? `<span${attributes}>${text}</span>` : text;
    })
    .join("");
}
