// The name nearest a mistyped one, for "did you mean" hints on the command
// line and in the environment.

/**
 * Single-character insertions, deletions and substitutions, and swaps of two
 * neighbours, that turn `a` into `b` (optimal string alignment): a swapped pair
 * ("PROT" for "PORT") is the one slip of a finger, not two.
 */
export function editDistance(a: string, b: string): number {
  // Rows i-2, i-1 and i of the classic table: row[j] is the distance from a[0..i) to b[0..j).
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate at the smallest edit distance from `word` (the first of equals), or undefined when there is none. */
export function closest(word: string, candidates: readonly string[]): { name: string; distance: number } | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word, name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best;
}
