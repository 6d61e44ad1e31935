// Animated banners (a measurement, not a test), two parts:
// 1. The GIF writers installed to choose from: gifenc, omggif and
//    gif-encoder-2, bytes and ms for the 12 frames of a 468x60 and a 728x90
//    animation (animate=stats of card: four states). gifenc and omggif are
//    handed the same indexed whole frames (our palettes, gif-palette.ts,
//    made before the clock starts: their times are their writing alone);
//    gif-encoder-2 takes RGBA only and quantizes itself (NeuQuant), so its
//    time includes that. Then what the server does (src/render/encode/gif.ts):
//    omggif writing only each frame's changed rectangle, indexing included.
// 2. Issue 24's target: an animated 468x60 drawn and encoded cold (a new
//    player count each draw, as draw-cost.ts) within 10 times a still one.
// Run: npm run bench:animated [-- --quick] [--json FILE]

import GIFEncoder2 from "gif-encoder-2";
import { GIFEncoder } from "gifenc";
import { GifWriter } from "omggif";
import { animationStates, frameSteps, stateData } from "../src/banner/animation.ts";
import { BannerService } from "../src/banner/banner-service.ts";
import type { ServerBannerData } from "../src/banner/model.ts";
import { renderBanner } from "../src/banner/templates/index.ts";
import { CACHE_SHARES } from "../src/config.ts";
import { parseBannerQuery } from "../src/http/banner-query.ts";
import { InThreadDrawer } from "../src/serve/drawing/in-thread-drawer.ts";
import { indexFrame, type IndexedFrame } from "../src/render/encode/gif-palette.ts";
import { crossFade, encodeGif, Pixmap, wholeFrames } from "../src/render/index.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { partOptions } from "./report/options.ts";
import { spread } from "./report/stats.ts";
import { writeFileSync } from "node:fs";

const options = partOptions(process.argv.slice(2), "bun bench/animated.ts [--quick] [--json FILE]");
const SAMPLE_MS = options.quick ? 300 : 1_500;

/** What this part measures (its --json figures): each animation's cold draw against the stills. */
export interface AnimatedFigures {
  animations: Array<{ name: string; frames: number; ms: number; timesPng: number; timesOwnFormat: number }>;
}

/** Median ms of `run` over SAMPLE_MS (at least 5 runs), after one unmeasured. */
async function median(run: () => unknown): Promise<number> {
  await run();
  const times: number[] = [];
  const stopAt = performance.now() + SAMPLE_MS;
  while (times.length < 5 || performance.now() < stopAt) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return spread(times).median;
}

const DATA: ServerBannerData = {
  name: "Skyblock Realm", status: "online", players: { online: 128, max: 500 }, motd: ["§6§lSKYBLOCK §7» §aNew islands", "§bSummer event §f- §ddouble drops"],
  version: "1.21.4", latencyMs: null, favicon: null, history: [], address: "play.example.com",
};

/** The frames of animate=stats for `DATA`, as straight RGBA, with their durations. */
function frames(width: number, height: number): Array<{ rgba: Uint8Array; durationMs: number }> {
  const options = { size: { width, height }, theme: "dark" as const, scale: 1 as const };
  const drawings = animationStates("stats", DATA).map((state) => renderBanner("card", stateData(DATA, state, "motd"), options));
  return frameSteps(drawings.length).map(({ from, to, mix, durationMs }) => {
    const frame = new Pixmap(width, height);
    crossFade(drawings[from]!, drawings[to]!, mix, frame);
    return { rgba: frame.toStraightRgba(), durationMs };
  });
}

type Frames = ReturnType<typeof frames>;
const indexed = new Map<Frames, IndexedFrame[]>();
/** The frames' palettes and indices, made once. */
const indexOf = (list: Frames) => indexed.get(list) ?? (indexed.set(list, list.map(({ rgba }) => indexFrame(rgba, []))), indexed.get(list)!);

const writers: Record<string, (width: number, height: number, list: Frames) => Uint8Array> = {
  gifenc(width, height, list) {
    const gif = GIFEncoder();
    for (const [i, { durationMs }] of list.entries()) {
      const { palette, index, transparentIndex } = indexOf(list)[i]!;
      gif.writeFrame(index, width, height, { palette, delay: durationMs, repeat: 0, ...(transparentIndex === null ? {} : { transparent: true, transparentIndex }) });
    }
    gif.finish();
    return gif.bytes();
  },
  omggif(width, height, list) {
    const out = new Uint8Array(width * height * list.length * 2 + 4096);
    const writer = new GifWriter(out, width, height, { loop: 0 });
    for (const [i, { durationMs }] of list.entries()) {
      const { palette, index, transparentIndex } = indexOf(list)[i]!;
      // omggif takes a power-of-two palette of 0xRRGGBB numbers.
      const size = 2 ** Math.max(1, Math.ceil(Math.log2(palette.length)));
      const entries = Array.from({ length: size }, (_, i) => (palette[i] ? (palette[i]![0] << 16) | (palette[i]![1] << 8) | palette[i]![2] : 0));
      writer.addFrame(0, 0, width, height, index, { palette: entries, delay: Math.round(durationMs / 10), ...(transparentIndex === null ? {} : { transparent: transparentIndex }) });
    }
    return out.subarray(0, writer.end());
  },
  "gif-encoder-2 (own NeuQuant)"(width, height, list) {
    const encoder = new GIFEncoder2(width, height);
    encoder.setRepeat(0);
    encoder.start();
    for (const { rgba, durationMs } of list) {
      encoder.setDelay(durationMs);
      encoder.addFrame(rgba);
    }
    encoder.finish();
    return new Uint8Array(encoder.out.getData());
  },
  "omggif, changed rectangles, indexing included (served)"(width, height, list) {
    return encodeGif(wholeFrames(list.map(({ rgba, durationMs }) => ({ pixmap: Pixmap.fromStraightRgba(width, height, rgba), durationMs }))), []);
  },
};

const writerRows = ["| GIF writer | 468x60 bytes | 468x60 ms | 728x90 bytes | 728x90 ms |", "|---|---:|---:|---:|---:|"];
const small = frames(468, 60), large = frames(728, 90);
for (const [name, write] of Object.entries(writers)) {
  const cells = [];
  for (const [width, height, list] of [[468, 60, small], [728, 90, large]] as const) {
    cells.push(String(write(width, height, list).length), (await median(() => write(width, height, list))).toFixed(1));
  }
  writerRows.push(`| ${name} | ${cells.join(" | ")} |`);
}
console.log(writerRows.join("\n"));

// Part 2: drawn and encoded cold, through the drawer the server uses.
const drawer = new InThreadDrawer(CACHE_SHARES);
const service = new BannerService({ store: openSqliteStore(":memory:"), lookup: { lookup: () => { throw new Error("no lookups here"); } } as never, now: Date.now, staleAfterMs: 900_000 });
let players = 0;
const QUERY = { template_key: "card", server_name: "Skyblock Realm", motd_line_1: DATA.motd[0], motd_line_2: DATA.motd[1], ip_address: "play.example.com", max_players: "500" };
const cold = (extra: Record<string, string>) => async () => drawer.draw(await service.prepare(parseBannerQuery({ ...QUERY, ...extra, online_players: String(players++) })));
const stills = { png: await median(cold({ format: "png" })), gif: await median(cold({ format: "gif" })), webp: await median(cold({ format: "webp" })) };
const costRows = ["| 468x60, card, cold | frames | ms (median) | x the still PNG | x the still in its format |", "|---|---:|---:|---:|---:|"];
for (const [format, ms] of Object.entries(stills)) costRows.push(`| still ${format} | 1 | ${ms.toFixed(2)} | ${(ms / stills.png).toFixed(1)} | 1.0 |`);
const animations: AnimatedFigures["animations"] = [];
for (const [animate, format] of [["motd", "gif"], ["stats", "gif"], ["motd", "webp"], ["stats", "webp"]] as const) {
  const plan = await service.prepare(parseBannerQuery({ ...QUERY, animate, format, online_players: "1" }));
  const ms = await median(cold({ animate, format }));
  const row = { name: `animate=${animate} ${format}`, frames: plan.frames ?? 1, ms, timesPng: ms / stills.png, timesOwnFormat: ms / stills[format] };
  animations.push(row);
  costRows.push(`| ${row.name} | ${row.frames} | ${ms.toFixed(2)} | ${row.timesPng.toFixed(1)} | ${row.timesOwnFormat.toFixed(1)} |`);
}
console.log(`\n${costRows.join("\n")}`);
if (options.json) {
  const figures: AnimatedFigures = { animations };
  writeFileSync(options.json, JSON.stringify({ figures, markdown: { writers: writerRows.join("\n"), cost: costRows.join("\n") } }));
}
