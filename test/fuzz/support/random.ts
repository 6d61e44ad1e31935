// The fuzzers' source of chance: one seeded generator per campaign, so that a
// failure replays exactly with the seed it prints. PENNANT_FUZZ_SEED sets the
// seed (a fresh one per run otherwise, so each CI run tries new cases), and
// PENNANT_FUZZ_CASES scales every campaign's number of cases.

/** sfc32: small, fast, and good enough to pick test cases. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(readonly seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(choices: ReadonlyArray<readonly [number, T]>): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [weight, value] of choices) {
      at -= weight;
      if (at < 0) return value;
    }
    return choices[choices.length - 1]![1];
  }

  /** A length that is usually small and now and then large (log-uniform up to max). */
  length(max: number): number {
    return Math.floor(Math.exp(this.next() * Math.log(max + 1)));
  }
}

function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return Number(raw.trim());
}

/** PENNANT_FUZZ_SEED, or a new seed for this run. */
export function fuzzSeed(env: Record<string, string | undefined> = process.env): number {
  return wholeNumber("PENNANT_FUZZ_SEED", env.PENNANT_FUZZ_SEED) ?? Math.floor(Math.random() * 2 ** 32);
}

/** PENNANT_FUZZ_CASES, or the campaign's own default. */
export function fuzzCases(fallback: number, env: Record<string, string | undefined> = process.env): number {
  return wholeNumber("PENNANT_FUZZ_CASES", env.PENNANT_FUZZ_CASES) ?? fallback;
}
