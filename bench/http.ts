// HTTP benches (numbers, not tests): Pennant as users run it (`bun
// src/index.ts serve`, its own process) under load from autocannon (under
// Node, its own process), beside a plain Bun.serve (its own process too):
//
// 1. four loads against the plain server in alternating rounds (http/versus.ts);
// 2. cost by banner size, drawn in process and through HTTP (http/sizes.ts);
// 3. bursts of 1,000 distinct banners at once, and the cache-miss storm (http/storm.ts);
// 4. memory over a million mixed requests (http/mixed.ts).
//
// Run: npm run bench:http [-- --quick] [--json FILE]
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { partOptions } from "./report/options.ts";
import { runServerPart, type PartOutput } from "./report/server-part.ts";
import { formatMixed, measureMixed } from "./http/mixed.ts";
import { badgePath, cachedBannerPath } from "./http/scenarios.mjs";
import { BENCH_ENV, SIGNING_TOKENS, startBaseline, startPennant } from "./http/servers.ts";
import { formatSizes, measureSizes } from "./http/sizes.ts";
import { formatBursts, formatStorm, measureBursts, measureStorm } from "./http/storm.ts";
import { formatVersus, measureVersus } from "./http/versus.ts";

const options = partOptions(process.argv.slice(2), "bun bench/http.ts [--quick] [--json FILE]");
const settings = options.quick
  ? {
      versus: { rounds: 1, seconds: 2, connections: 32 },
      sizes: { seconds: 1, samples: 30 },
      bursts: 6,
      storm: { distinct: [1, 100, 1_000, 10_000], seconds: 2, warmUpTo: 1_000 },
      mixed: { requests: 100_000, restSeconds: 3 },
    }
  : {
      versus: { rounds: 3, seconds: 5, connections: 32 },
      sizes: { seconds: 3, samples: 100 },
      bursts: 20, // 8 against 8 after the caches are full: RSS swings 100-150 MiB from burst to burst (storm.ts)
      storm: { distinct: [1, 100, 1_000, 10_000, 100_000], seconds: 6, warmUpTo: 10_000 },
      mixed: { requests: 1_000_000, restSeconds: 10 },
    };

const progress = (line: string) => console.error(`  ${line}`);
const output: PartOutput = { figures: { settings, env: BENCH_ENV, signingTokens: SIGNING_TOKENS }, markdown: {} };
const { figures, markdown } = output;
await runServerPart("http", options.json, output, async (dir) => {
  const { server: pennant, seeded } = await startPennant(dir, "load");
  try {
    // The plain server answers Pennant's own bytes: the cached banner's and the badge's.
    for (const [file, path] of [["banner.png", cachedBannerPath(0)], ["badge.png", badgePath(seeded.pluginUuid)]] as const) {
      const response = await fetch(pennant.url + path, { headers: { Accept: "image/png" } });
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
      writeFileSync(join(dir, file), new Uint8Array(await response.arrayBuffer()));
    }
    const baseline = await startBaseline(dir);
    try {
      progress("loads beside the plain server");
      const versus = await measureVersus(pennant, baseline, { run: "versus", servers: seeded.servers, pluginUuid: seeded.pluginUuid }, settings.versus, progress);
      figures.versus = versus;
      markdown.versus = formatVersus(versus, settings.versus);
    } finally {
      await baseline.kill();
    }
    progress("cost by size");
    const sizes = await measureSizes(pennant, "sizes", settings.sizes);
    figures.sizes = sizes;
    markdown.sizes = formatSizes(sizes, settings.sizes);
  } finally {
    await pennant.kill();
  }

  progress("bursts of 1,000 new banners");
  const bursts = await measureBursts(dir, settings.bursts);
  figures.bursts = bursts;
  markdown.bursts = formatBursts(bursts);

  progress("cache-miss storm");
  const storm = await measureStorm(dir, settings.storm, progress);
  figures.storm = storm;
  markdown.storm = formatStorm(storm, settings.storm);

  progress(`${settings.mixed.requests.toLocaleString("en-US")} mixed requests`);
  const mixed = await measureMixed(dir, settings.mixed);
  figures.mixed = mixed;
  markdown.mixed = formatMixed(mixed);
});
