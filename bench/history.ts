// The history storm of issue 38 (bench/history/storm.ts): /healthz and a
// cached banner while four addresses ask for large networks' charts and
// yearly histories.
//
// Run: bun bench/history.ts [--quick] [--json FILE]  (part of `npm run bench`)

import { ms } from "./report/markdown.ts";
import { partOptions } from "./report/options.ts";
import { runServerPart, type PartOutput } from "./report/server-part.ts";
import { formatHistoryStorm, measureHistoryStorm } from "./history/storm.ts";

const USAGE = "bun bench/history.ts [--quick] [--json FILE]";
const options = partOptions(process.argv.slice(2), USAGE);
const settings = options.quick ? { members: 25, seconds: 8 } : { members: 100, seconds: 30 };
const progress = (line: string) => console.error(`  ${line}`);

const output: PartOutput = { figures: {}, markdown: {} };
await runServerPart("history", options.json, output, async (dir) => {
  const figures = await measureHistoryStorm(dir, settings, progress);
  output.figures = { ...figures };
  output.markdown.storm = formatHistoryStorm(figures);
  progress(`history storm: /healthz p99 ${ms(figures.healthz.latency?.p99 ?? Number.NaN)} ms, cached banner p99 ${ms(figures.cached.latency?.p99 ?? Number.NaN)} ms`);
});
