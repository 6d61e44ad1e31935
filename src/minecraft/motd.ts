// MOTDs as the server list shows them: two lines of `§`-formatted text.
// Servers send one formatted value (a `§` string joined by "\n", or a JSON
// chat component); owners centre lines in the game's list with leading
// spaces, which only look right in the game's own font and width, so a line
// is drawn with that padding trimmed.

import { parseFormatted, splitLines, toSectionText, type StyledRun } from "./format.ts";

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
