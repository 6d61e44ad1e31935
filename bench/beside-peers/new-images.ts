// New images over HTTP beside Skia drawing and encoding one in this process
// (issue 40, point 9): one connection, a new image each request (a 468x60
// banner of minimal-status; a flat badge whose label no request asked for
// before), the lean socket client (bench/http/socket-load.ts) so that the
// client's own cost counts least; then @napi-rs/canvas drawing the render
// bench's 468x60 banner scene and the flat badge from our layout, in this
// process. Rounds alternate HTTP and Skia, so a neighbour's load on the
// shared cores hits both; each round gives its ratios (HTTP p50 over Skia's
// median), judged by their median over the rounds.

import { join } from "node:path";
import { layoutBadge, type PlateLayout } from "../../src/badge/badge-layout.ts";
import { parseBadgeColor } from "../../src/badge/colors.ts";
import { encodePng, Pixmap } from "../../src/render/index.ts";
import type { RunningServer } from "../../test/support/process.ts";
import { canvasBadgePng, registerCanvasFonts } from "../badge/canvas.ts";
import { runLoad } from "../http/load.ts";
import { canvasPng, loadIcon, registerFonts } from "../render/canvas.ts";
import { BANNER_SMALL, iconRgba } from "../render/scenes.ts";
import { ms, table, times } from "../report/markdown.ts";
import { middle, spread } from "../report/stats.ts";

export interface NewImageRound {
  /** p50 over HTTP and Skia's median in process, ms. */
  banner: { http: number; skia: number };
  badge: { http: number; skia: number };
}

export interface NewImagesFigures {
  rounds: NewImageRound[];
  /** Answers that were not 200 (and socket errors), over every round. */
  errors: number;
}

const fontFile = (name: string) => join(import.meta.dir, "../../glyphs/dejavu", name);

/** Skia's two drawings, each as the render and badge benches draw them. */
function skiaDrawings(): { banner: () => unknown; badge: () => unknown } {
  const fonts = registerFonts(fontFile("DejaVuSans.ttf"), fontFile("DejaVuSans-Bold.ttf"));
  registerCanvasFonts(fontFile("DejaVuSans.ttf"), fontFile("DejaVuSans-Bold.ttf"));
  const icon = loadIcon(encodePng(Pixmap.fromStraightRgba(64, 64, iconRgba())));
  let n = 0;
  const green = parseBadgeColor("brightgreen")!;
  return {
    banner: () => canvasPng(BANNER_SMALL, icon, fonts),
    // A new label each run, as over HTTP.
    badge: () => canvasBadgePng(layoutBadge({ label: `new bench-${n++}`, message: "13k", color: green, style: "flat" }) as PlateLayout, 1),
  };
}

/** The median of single runs of `run` over about `seconds` (at least 20), after a quarter of that unmeasured. */
function medianOf(run: () => unknown, seconds: number): number {
  const warmUntil = performance.now() + (seconds * 1000) / 4;
  while (performance.now() < warmUntil) run();
  const times: number[] = [];
  const stopAt = performance.now() + seconds * 1000;
  while (times.length < 20 || performance.now() < stopAt) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return spread(times).median;
}

export async function measureNewImages(
  pennant: RunningServer, pluginUuid: string, options: { rounds: number; seconds: number }, progress: (line: string) => void,
): Promise<NewImagesFigures> {
  const skia = skiaDrawings();
  let runs = 0, errors = 0;
  const overHttp = async (scenario: "distinct banner" | "badge, new label", seconds: number) => {
    const result = await runLoad(
      { url: pennant.url, connections: 1, duration: seconds, scenario, params: { run: `new${runs++}`, sizes: ["468x60"], pluginUuid }, client: "sockets" },
      pennant.pid,
    );
    errors += result.errors;
    return result.p50;
  };
  // Unmeasured first: connections, the JIT's tiers, the caches of what every image shares.
  await overHttp("distinct banner", 1);
  await overHttp("badge, new label", 1);
  const rounds: NewImageRound[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const banner = { http: await overHttp("distinct banner", options.seconds), skia: medianOf(skia.banner, options.seconds / 2) };
    const badge = { http: await overHttp("badge, new label", options.seconds), skia: medianOf(skia.badge, options.seconds / 2) };
    rounds.push({ banner, badge });
    progress(`round ${round + 1}: banner ${ms(banner.http)} / ${ms(banner.skia)} ms, badge ${ms(badge.http)} / ${ms(badge.skia)} ms`);
  }
  return { rounds, errors };
}

/** The median over the rounds of each image's HTTP p50 over Skia's median. */
export function newImageRatios(figures: NewImagesFigures): { banner: number; badge: number } {
  return {
    banner: middle(figures.rounds.map((r) => r.banner.http / r.banner.skia)),
    badge: middle(figures.rounds.map((r) => r.badge.http / r.badge.skia)),
  };
}

export function formatNewImages(figures: NewImagesFigures, options: { rounds: number; seconds: number }): string {
  const ratios = newImageRatios(figures);
  return [
    `${options.rounds} rounds; each: ${options.seconds} s of new 468x60 banners (minimal-status) over HTTP, Skia drawing the render bench's 468x60 ` +
      `banner scene for ${options.seconds / 2} s, ${options.seconds} s of new flat badges (a label never drawn before) over HTTP, Skia drawing a flat ` +
      `badge with a new label from our layout. HTTP: p50 ms, one connection, the socket client; Skia: median ms in this process. ` +
      `${figures.errors.toLocaleString("en-US")} answers other than 200.`,
    "",
    table(
      ["round", "banner over HTTP", "banner, Skia", "ratio", "badge over HTTP", "badge, Skia", "ratio"],
      [
        ...figures.rounds.map((r, i) => [
          i + 1, ms(r.banner.http), ms(r.banner.skia), times(r.banner.http / r.banner.skia), ms(r.badge.http), ms(r.badge.skia), times(r.badge.http / r.badge.skia),
        ]),
        ["median", "", "", times(ratios.banner), "", "", times(ratios.badge)],
      ],
    ),
  ].join("\n");
}
