// The speed targets of issues 4 (render engine), 10 (banners), 11 (badges),
// 13 (proof), 19 (one image pipeline), 20 (render threads), 38 (history reads) and 40 (beside Skia and MCBanners), each checked against this run's
// figures: the report's "met" and "missed" are computed here, never written
// by hand.

import type { AnimatedFigures } from "../animated.ts";
import { cachedRatios, type CachedVsMcBanners } from "../beside-peers/cached-vs-mcbanners.ts";
import type { FirstLookupFigures } from "../beside-peers/first-lookup.ts";
import { newImageRatios, type NewImagesFigures } from "../beside-peers/new-images.ts";
import { HISTORY_ADDRESSES, type HistoryStormFigures } from "../history/storm.ts";
import type { MixedFigures } from "../http/mixed.ts";
import type { SizeFigures } from "../http/sizes.ts";
import { LEVELLED_GROWTH_BYTES, settledGrowth, type BurstFigures, type StormFigures } from "../http/storm.ts";
import { cpuRatio, rateRatio, type VersusKind } from "../http/versus.ts";
import { PEAK_ALLOWANCE_MIB, peakOf, type PeakMemoryFigures } from "../threads/peak-memory.ts";
import { refused, STORM_ADDRESSES, STORM_P99_MS, STORM_PER_ADDRESS, type ProbeFigures, type StormRun } from "../threads/storm.ts";
import { medianThroughputRatio, throughputErrors, type ThroughputFigures } from "../threads/throughput.ts";
import type { FlatBadge } from "./badge-output.ts";
import { mib, ms, times } from "./markdown.ts";
import { middle, spread } from "./stats.ts";

/** What bench/render.ts measures (its --json figures). */
export interface RenderFigures {
  scenes: Array<{ name: string; ours: { median: number }; canvas: { median: number }; bytes: [ours: number, canvas: number, resvg: number] }>;
  webp: Array<{ label: string; stats: { median: number }; bytes: number }>;
}

/** What bench/http.ts measures (its --json figures). */
export interface HttpFigures {
  versus: VersusKind[];
  sizes: SizeFigures[];
  bursts: { before: number; bursts: BurstFigures[] };
  storm: StormFigures[];
  mixed: MixedFigures;
}

/** What bench/threads.ts measures (its --json figures). */
export interface ThreadsFigures {
  throughput: ThroughputFigures;
  /** The default thread count's run first, then PENNANT_RENDER_THREADS=0's. */
  storm: StormRun[];
  peakMemory: PeakMemoryFigures;
}

/** What bench/beside-peers.ts measures (its --json figures). */
export interface PeersFigures {
  newImages: NewImagesFigures;
  firstLookups: FirstLookupFigures;
  cachedVsMcBanners: CachedVsMcBanners;
}

export interface Figures {
  render?: RenderFigures;
  peers?: PeersFigures;
  badge?: FlatBadge;
  http?: HttpFigures;
  threads?: ThreadsFigures;
  history?: HistoryStormFigures;
  animated?: AnimatedFigures;
}

export type Verdict = "met" | "missed" | "not measured";

export interface TargetRow {
  source: string;
  target: string;
  measured: string;
  verdict: Verdict;
}

interface Check {
  measured: string;
  met: boolean;
}

interface Target {
  source: string;
  target: string;
  check: (figures: Figures) => Check | undefined;
}

function scene(render: RenderFigures | undefined, name: string) {
  const found = render?.scenes.find((s) => s.name === name);
  if (render && !found) throw new Error(`the render bench measured no scene "${name}"`);
  return found;
}

const atMost = (value: number | undefined, limit: number, show: (v: number) => string = (v) => `${ms(v)} ms`): Check | undefined =>
  value === undefined ? undefined : { measured: show(value), met: value <= limit };
const atLeast = (value: number | undefined, limit: number): Check | undefined =>
  value === undefined ? undefined : { measured: times(value), met: value >= limit };

function fasterThanCanvas(render: RenderFigures | undefined, name: string): number | undefined {
  const s = scene(render, name);
  return s && s.canvas.median / s.ours.median;
}

/** The median rounds' rate and CPU ratios of one load beside the plain server. */
function versusRatios(f: Figures, scenario: string): { rate: number; cpu: number } | undefined {
  const kind = f.http?.versus.find((k) => k.scenario === scenario);
  return kind && { rate: middle(kind.rounds.map(rateRatio)), cpu: middle(kind.rounds.map(cpuRatio)) };
}

/** Answers of Pennant that should not have come: any status outside what the request should get, any socket error. */
export function unexpectedAnswers(http: HttpFigures): { count: number; of: number } {
  const loads = [
    ...http.versus.flatMap((kind) => kind.rounds.map((round) => round.pennant)),
    ...http.sizes.flatMap((size) => [size.one, size.many]),
    ...http.storm.map((storm) => storm.load),
  ];
  const bursts = http.bursts.bursts;
  const mixedUnexpected = http.mixed.kinds.reduce((sum, kind) => sum + kind.unexpected, 0) + http.mixed.load.socketErrors;
  return {
    count: loads.reduce((sum, load) => sum + load.errors, 0) + bursts.reduce((sum, burst) => sum + burst.errors, 0) + mixedUnexpected,
    of: loads.reduce((sum, load) => sum + load.responses + load.socketErrors, 0) + bursts.length * 1_000 + http.mixed.load.responses + http.mixed.load.socketErrors,
  };
}

/** The cheap requests of a storm (/healthz and a cached banner): their worst p99 under STORM_P99_MS, and none refused. */
function cheapRequestsCheck(healthz: ProbeFigures, cached: ProbeFigures): Check {
  const p99s = [healthz, cached].map((p) => p.latency?.p99 ?? Number.POSITIVE_INFINITY);
  const notServed = refused(healthz) + refused(cached);
  return {
    measured: `/healthz ${ms(p99s[0]!)} ms, cached banner ${ms(p99s[1]!)} ms; ${notServed.toLocaleString("en-US")} of them refused or failed`,
    met: Math.max(...p99s) < STORM_P99_MS && notServed === 0,
  };
}

/** Issue 20's storm, judged on the run with the default render threads. */
function stormCheck(threads: ThreadsFigures | undefined): Check | undefined {
  const run = threads?.storm.find((r) => r.threads === "default");
  if (threads && !run) throw new Error("the threads bench ran no storm with the default render threads");
  return run && cheapRequestsCheck(run.healthz, run.cached);
}

/** Answers other than 200, when there were any. */
const answersNote = (errors: number) => (errors > 0 ? `; ${errors.toLocaleString("en-US")} answers other than 200` : "");

/** The flat badge `downloads | 13k` as served before issue 19 (docs/performance.md of 2026-11-23): its PNG may not grow. */
const FLAT_BADGE_BYTES_BEFORE = 2_482;

export const TARGETS: Target[] = [
  { source: "issue 4", target: "banner 468x60, draw + PNG: median <= 0.6 ms", check: (f) => atMost(scene(f.render, "banner 468x60")?.ours.median, 0.6) },
  { source: "issue 4", target: "banner 468x60: >= 3x faster than @napi-rs/canvas", check: (f) => atLeast(fasterThanCanvas(f.render, "banner 468x60"), 3) },
  { source: "issue 4", target: "banner 1200x300, draw + PNG: median <= 4 ms", check: (f) => atMost(scene(f.render, "banner 1200x300")?.ours.median, 4) },
  { source: "issue 4", target: "banner 1200x300: >= 4x faster than @napi-rs/canvas", check: (f) => atLeast(fasterThanCanvas(f.render, "banner 1200x300"), 4) },
  { source: "issue 4", target: "badge (2 segments), draw + PNG: median <= 0.1 ms", check: (f) => atMost(scene(f.render, "badge 2 segments")?.ours.median, 0.1) },
  {
    source: "issue 4",
    target: "badge PNG no larger than @napi-rs/canvas's",
    check: (f) => {
      const s = scene(f.render, "badge 2 segments");
      return s && { measured: `${s.bytes[0]} / ${s.bytes[1]} bytes`, met: s.bytes[0] <= s.bytes[1] };
    },
  },
  {
    source: "issue 4",
    target: "1200x300 WebP (lossless, default): median <= 10 ms",
    check: (f) => {
      const webp = f.render?.webp.find((w) => w.label.startsWith("ours, lossless"));
      if (f.render && !webp) throw new Error("the render bench measured no lossless WebP of ours");
      return atMost(webp?.stats.median, 10);
    },
  },
  {
    source: "issue 10",
    target: "cached banner >= 0.7x of the plain server's requests per second (median of rounds; met when both the rate ratio and the CPU ratio hold)",
    check: (f) => {
      const ratios = versusRatios(f, "cached banner");
      return ratios && { measured: `rate ${times(ratios.rate)}, CPU ${times(ratios.cpu)}`, met: ratios.rate >= 0.7 && ratios.cpu >= 0.7 };
    },
  },
  {
    source: "issue 10",
    target: "cold 468x60 PNG through HTTP: median <= 1.5 ms (one connection, a new banner each request)",
    check: (f) => atMost(f.http?.sizes.find((s) => s.size === "468x60")?.one.p50, 1.5),
  },
  {
    source: "issue 10",
    target:
      "1,000 distinct URLs at once do not grow memory without bound (among the bursts after the caches' bound was sent, " +
      `the lowest RSS of the later half <= ${mib(LEVELLED_GROWTH_BYTES)} MiB above the lowest of the earlier half)`,
    check: (f) => {
      if (!f.http) return undefined;
      const { before, bursts } = f.http.bursts;
      const settled = settledGrowth(bursts);
      const range = `${mib(before)} MiB before, at most ${mib(Math.max(...bursts.map((b) => b.rss)))} over ${bursts.length} bursts`;
      if (!settled) return { measured: `${range}; fewer than 2 bursts after the caches filled (run without --quick)`, met: false };
      const { growth } = settled;
      return { measured: `${range}; over the last ${settled.settled}: ${growth >= 0 ? "+" : ""}${mib(growth)} MiB`, met: growth <= LEVELLED_GROWTH_BYTES };
    },
  },
  {
    source: "issue 11",
    target: "flat badge, cold draw + PNG (fast encoding; a new message every run, its label's pixels kept as on a running server): median <= 0.1 ms",
    check: (f) => {
      const check = atMost(f.badge?.fast, 0.1);
      // Shown beside it, not judged: the same with nothing of the badge's own kept.
      return check && { ...check, measured: `${check.measured} (label pixels cleared every run: ${ms(f.badge!.fastLabelsCleared)} ms)` };
    },
  },
  { source: "issue 11", target: "flat badge: >= 2x faster than @napi-rs/canvas (fast encoding)", check: (f) => atLeast(f.badge && f.badge.canvas / f.badge.fast, 2) },
  {
    source: "issue 19",
    target: "cached badge >= 0.7x of the plain server's CPU per request (median of rounds), like a cached banner",
    check: (f) => {
      const ratios = versusRatios(f, "badge");
      return ratios && { measured: `CPU ${times(ratios.cpu)} (rate ${times(ratios.rate)})`, met: ratios.cpu >= 0.7 };
    },
  },
  {
    source: "issue 19",
    target: "a new flat badge over HTTP (one connection, a look never asked before each request): median <= 1.5x of @napi-rs/canvas drawing and encoding one in process",
    check: (f) => f.badge && {
      measured: `${times(f.badge.newOverHttp / f.badge.canvas)} (${ms(f.badge.newOverHttp)} / ${ms(f.badge.canvas)} ms)`,
      met: f.badge.newOverHttp <= 1.5 * f.badge.canvas,
    },
  },
  {
    source: "issue 19",
    target: `served flat badge PNG no larger than before (${FLAT_BADGE_BYTES_BEFORE.toLocaleString("en-US")} bytes)`,
    check: (f) => f.badge && { measured: `${f.badge.servedBytes.toLocaleString("en-US")} bytes`, met: f.badge.servedBytes <= FLAT_BADGE_BYTES_BEFORE },
  },
  {
    source: "issue 20",
    target: "new banners per second (every size, PNG and WebP), default render threads >= 1.6x one thread's on 2 cores (median of rounds; none refused)",
    check: (f) => {
      const t = f.threads?.throughput;
      // One core: no second thread to gain from.
      if (!t || t.threads < 2) return undefined;
      const ratio = medianThroughputRatio(t), errors = throughputErrors(t);
      return { measured: `${times(ratio)} (${t.threads} threads)${errors > 0 ? `; ${errors.toLocaleString("en-US")} refused or failed` : ""}`, met: ratio >= 1.6 && errors === 0 };
    },
  },
  {
    source: "issue 20",
    target:
      `/healthz and cached-banner p99 < ${STORM_P99_MS} ms, none refused, while ${STORM_ADDRESSES} addresses each send ${STORM_PER_ADDRESS} new ` +
      "1200x300 WebP banners at scale 2 at once (default limits and render threads)",
    check: (f) => stormCheck(f.threads),
  },
  {
    source: "issue 20",
    target: `peak memory (VmHWM) through a distinct-banner then a distinct-badge storm <= the cache budget + ${PEAK_ALLOWANCE_MIB} MiB (none refused)`,
    check: (f) => {
      const p = f.threads?.peakMemory;
      if (!p) return undefined;
      const { peak, errors } = peakOf(p);
      const limit = (p.cacheMib + PEAK_ALLOWANCE_MIB) * 2 ** 20;
      return {
        measured: `${mib(peak)} MiB of ${mib(limit)}${errors > 0 ? `; ${errors.toLocaleString("en-US")} refused or failed` : ""}`,
        met: peak <= limit && errors === 0,
      };
    },
  },
  {
    source: "issue 38",
    target:
      `history storm: /healthz and cached-banner p99 < ${STORM_P99_MS} ms, none refused, while ${HISTORY_ADDRESSES} addresses ask for the uncached charts and yearly ` +
      "histories of networks of 100 servers (default limits)",
    check: (f) => f.history && cheapRequestsCheck(f.history.healthz, f.history.cached),
  },
  {
    source: "issue 24",
    target: "an animated 468x60 banner (GIF and WebP, motd and stats) drawn and encoded cold within 10x a still one of its format",
    check: (f) => {
      const worst = f.animated?.animations.reduce((a, b) => (b.timesOwnFormat > a.timesOwnFormat ? b : a));
      return worst && { measured: `worst ${times(worst.timesOwnFormat)} (${worst.name}; ${times(worst.timesPng)} a still PNG)`, met: worst.timesOwnFormat <= 10 };
    },
  },
  {
    source: "issue 40",
    target: "a new 468x60 banner over HTTP (one connection, a new banner each request): p50 <= 0.8x of @napi-rs/canvas drawing and encoding one in process (median of alternating rounds)",
    check: (f) => {
      const images = f.peers?.newImages;
      return images && { measured: `${times(newImageRatios(images).banner)}${answersNote(images.errors)}`, met: newImageRatios(images).banner <= 0.8 && images.errors === 0 };
    },
  },
  {
    source: "issue 40",
    target: "a new flat badge with a label never drawn before over HTTP (one connection): p50 <= 1.5x of @napi-rs/canvas drawing and encoding one in process (median of alternating rounds)",
    check: (f) => {
      const images = f.peers?.newImages;
      return images && { measured: `${times(newImageRatios(images).badge)}${answersNote(images.errors)}`, met: newImageRatios(images).badge <= 1.5 && images.errors === 0 };
    },
  },
  {
    source: "issue 40",
    target: "1200x300 WebP, lossless, draw + encode: no slower than @napi-rs/canvas's (q100)",
    check: (f) => {
      const ours = f.render?.webp.find((w) => w.label.startsWith("ours, lossless"));
      const canvas = f.render?.webp.find((w) => w.label.startsWith("canvas"));
      if (f.render && (!ours || !canvas)) throw new Error("the render bench measured no lossless WebP of ours or of canvas");
      return ours && canvas && {
        measured: `${times(ours.stats.median / canvas.stats.median)} of its time (${ms(ours.stats.median)} / ${ms(canvas.stats.median)} ms)`,
        met: ours.stats.median <= canvas.stats.median,
      };
    },
  },
  {
    source: "issue 40",
    target: "the first data_mode=query banner of a server that answers the status ping but never UDP Query: median <= 50 ms on loopback",
    check: (f) => {
      const first = f.peers?.firstLookups;
      if (!first) return undefined;
      const { median } = spread(first.times);
      return { measured: `${ms(median)} ms (highest ${ms(Math.max(...first.times))} of ${first.times.length})`, met: median <= 50 };
    },
  },
  {
    source: "issue 40",
    target: "a cached banner of a looked-up server (data_mode=query) >= MCBanners' cached server banner in requests per second, side by side on Bun (median of alternating rounds)",
    check: (f) => {
      const cached = f.peers?.cachedVsMcBanners;
      if (!cached?.measured) return undefined; // no MCBanners checkout: the section says why
      const ratios = cachedRatios(cached);
      const errors = cached.rounds.reduce((sum, r) => sum + r.query.errors + r.mcbanners.errors, 0);
      return { measured: `rate ${times(ratios.rate)}, CPU ${times(ratios.cpu)}${answersNote(errors)}`, met: ratios.rate >= 1 && errors === 0 };
    },
  },
  {
    source: "issue 13",
    target: "under every load: no 5xx, no socket error, every answer the status its request should get",
    check: (f) => {
      if (!f.http) return undefined;
      const { count, of } = unexpectedAnswers(f.http);
      return { measured: `${count.toLocaleString("en-US")} unexpected of ${of.toLocaleString("en-US")}`, met: count === 0 };
    },
  },
];

export function evaluateTargets(figures: Figures): TargetRow[] {
  return TARGETS.map(({ source, target, check }) => {
    const result = check(figures);
    return result
      ? { source, target, measured: result.measured, verdict: result.met ? "met" : "missed" }
      : { source, target, measured: "-", verdict: "not measured" };
  });
}
