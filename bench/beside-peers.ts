// Pennant's answers over HTTP set beside its peers in the same run (issue 40,
// points 9, 11 and 12):
//
// 1. new images, one connection, a new image each request: a 468x60 banner
//    and a flat badge with a label never drawn before, each beside
//    @napi-rs/canvas (Skia) drawing and encoding one in this process, in
//    alternating rounds (beside-peers/new-images.ts);
// 2. the first data_mode=query banner of servers that answer the status ping
//    but never UDP Query (beside-peers/first-lookup.ts);
// 3. with a checkout of MCBanners (--mcbanners DIR or MCBANNERS_DIR; its code
//    stays outside this repository, docs/banners.md says how to get it): its
//    cached server banner beside ours of the same live server, requests per
//    second in alternating rounds (beside-peers/cached-vs-mcbanners.ts).
//    Without one, that comparison is reported as not measured, and why.
//
// Run: bun bench/beside-peers.ts [--quick] [--mcbanners DIR] [--json FILE]
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { partOptions } from "./report/options.ts";
import { runServerPart, type PartOutput } from "./report/server-part.ts";
import { BENCH_ENV, startPennant } from "./http/servers.ts";
import { formatCachedVsMcBanners, measureCachedVsMcBanners, type CachedVsMcBanners } from "./beside-peers/cached-vs-mcbanners.ts";
import { formatFirstLookups, measureFirstLookups } from "./beside-peers/first-lookup.ts";
import { formatNewImages, measureNewImages } from "./beside-peers/new-images.ts";

const options = partOptions(process.argv.slice(2), "bun bench/beside-peers.ts [--quick] [--mcbanners DIR] [--json FILE]", ["mcbanners"]);
const settings = options.quick
  ? { rounds: 3, seconds: 1, firstLookups: 5, cached: { rounds: 2, seconds: 2, connections: 32 } }
  : { rounds: 5, seconds: 3, firstLookups: 15, cached: { rounds: 3, seconds: 5, connections: 32 } };
const mcbannersDir = options.values.mcbanners ?? process.env.MCBANNERS_DIR;

const progress = (line: string) => console.error(`  ${line}`);
const output: PartOutput = { figures: { settings }, markdown: {} };
const { figures, markdown } = output;
await runServerPart("beside-peers", options.json, output, async (dir) => {
  // Lookups of loopback peers: PENNANT_LOOKUP_PRIVATE.
  const { server: pennant, seeded } = await startPennant(dir, "peers", { ...BENCH_ENV, PENNANT_LOOKUP_PRIVATE: "1" });
  try {
    progress("new images beside Skia");
    const newImages = await measureNewImages(pennant, seeded.pluginUuid, settings, progress);
    figures.newImages = newImages;
    markdown.newImages = formatNewImages(newImages, settings);

    progress("first data_mode=query banners");
    const firstLookups = await measureFirstLookups(pennant, settings.firstLookups);
    figures.firstLookups = firstLookups;
    markdown.firstLookups = formatFirstLookups(firstLookups);

    progress("cached banners beside MCBanners");
    const cached: CachedVsMcBanners = await measureCachedVsMcBanners(pennant, mcbannersDir, settings.cached, progress);
    figures.cachedVsMcBanners = cached;
    markdown.cachedVsMcBanners = formatCachedVsMcBanners(cached, settings.cached);
  } finally {
    await pennant.kill();
  }
});
