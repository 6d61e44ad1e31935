// MOTDs as banners take them: two lines of `§`-formatted text. Servers send
// one formatted value (a `§` string joined by "\n", or a JSON chat
// component); owners centre lines in the game's list with leading spaces,
// which only look right in the game's own font and width, so banners trim them.

import { COLOR_BY_CODE, parseFormatted, splitLines, type StyledRun } from "./format.ts";

const CODE_BY_COLOR = new Map([...COLOR_BY_CODE].reverse().map(([code, hex]) => [hex, code]));

/** Style codes in the order the game applies them after a colour. */
const FLAG_CODES: ReadonlyArray<readonly [keyof StyledRun, string]> = [
  ["obfuscated", "k"],
  ["bold", "l"],
  ["strikethrough", "m"],
  ["underlined", "n"],
  ["italic", "o"],
];

function colorCode(hex: string): string {
  const code = CODE_BY_COLOR.get(hex);
  return code ? `§${code}` : `§x${[...hex.slice(1)].map((digit) => `§${digit}`).join("")}`;
}

/** Runs written back as `§` text that parses to the same runs (each run restarts from §r). */
export function toSectionText(runs: readonly StyledRun[]): string {
  return runs
    .map((run) => {
      const color = run.color === null ? "" : colorCode(run.color);
      const flags = FLAG_CODES.filter(([flag]) => run[flag] === true).map(([, code]) => `§${code}`).join("");
      return `§r${color}${flags}${run.text}`;
    })
    .join("")
    .replace(/^§r/, "");
}

/**
 * The first two lines of a MOTD in any form the game uses (a `§` string with
 * "\n" between lines, a JSON chat component or its JSON text), each as `§`
 * text that keeps the styles carried over the line break.
 */
export function splitMotd(motd: unknown): [string, string] {
  const [first = [], second = []] = splitLines(parseFormatted(motd));
  return [toSectionText(first), toSectionText(second)];
}

/** Whitespace that draws nothing: not underlined or struck through (those draw a line). */
function isBlankRun(run: StyledRun, text: string): boolean {
  return !run.underlined && !run.strikethrough && /^\s*$/.test(text);
}

/**
 * Runs without the leading and trailing spaces that fake centring. Spaces
 * that draw (underlined or struck through, a common separator trick) stay.
 */
export function trimPadding(runs: readonly StyledRun[]): StyledRun[] {
  const out = runs.map((run) => ({ ...run }));
  while (out.length > 0 && isBlankRun(out[0]!, out[0]!.text)) out.shift();
  while (out.length > 0 && isBlankRun(out.at(-1)!, out.at(-1)!.text)) out.pop();
  const first = out[0], last = out.at(-1);
  if (first && !first.underlined && !first.strikethrough) first.text = first.text.trimStart();
  if (last && !last.underlined && !last.strikethrough) last.text = last.text.trimEnd();
  return out;
}

/** One `§` line ready to lay out: parsed, padding trimmed. */
export function motdLineRuns(line: string): StyledRun[] {
  // The leading §r (a no-op) keeps a line such as `"quoted"` or `[1]` from being read as JSON.
  return trimPadding(splitLines(parseFormatted(`§r${line}`))[0] ?? []);
}

/** Plain text as one unstyled run (drawn in the caller's default colour). */
export function plainRun(text: string): StyledRun {
  return { text, color: null, bold: false, italic: false, underlined: false, strikethrough: false, obfuscated: false };
}
