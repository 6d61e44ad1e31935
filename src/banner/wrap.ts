// Word wrapping of one formatted line into at most `maxLines` lines, for the
// box layouts that have height to spare. Breaks go after spaces, also where
// a word's runs change colour mid-word; the last line takes the rest (and is
// cut with an ellipsis when drawn).

import type { StyledRun } from "../minecraft/format.ts";

/** Runs of a word and the spaces after it: the unit that moves to the next line. */
type Segment = StyledRun[];

function segments(runs: readonly StyledRun[]): Segment[] {
  const out: Segment[] = [[]];
  for (const run of runs) {
    // "word   " pieces: a break opportunity follows each whitespace stretch.
    for (const piece of run.text.match(/\S*\s*/g) ?? []) {
      if (piece === "") continue;
      out.at(-1)!.push({ ...run, text: piece });
      if (/\s$/.test(piece)) out.push([]);
    }
  }
  return out.filter((segment) => segment.length > 0);
}

/** Runs without the spaces at their end (they take no room at a line's end). */
function trimEnd(runs: readonly StyledRun[]): StyledRun[] {
  const out = runs.map((run) => ({ ...run }));
  const last = out.at(-1);
  if (last && !last.underlined && !last.strikethrough) last.text = last.text.trimEnd();
  return out.filter((run) => run.text !== "");
}

/**
 * Greedy wrapping: each line takes segments while `measure` (its width) stays
 * within `width`; a segment wider than a line gets a line of its own.
 */
export function wrapRuns(runs: readonly StyledRun[], width: number, maxLines: number, measure: (line: readonly StyledRun[]) => number): StyledRun[][] {
  const lines: StyledRun[][] = [];
  let line: StyledRun[] = [];
  for (const segment of segments(runs)) {
    const candidate = [...line, ...segment];
    if (line.length === 0 || lines.length === maxLines - 1 || measure(trimEnd(candidate)) <= width) {
      line = candidate;
      continue;
    }
    lines.push(trimEnd(line));
    line = segment;
  }
  if (line.length > 0) lines.push(trimEnd(line));
  return lines;
}
