// How a banner's cost grows with its size: the same new (uncached) banner at
// each of the four sizes, drawn and encoded in this process, then through
// HTTP one request at a time (its latency) and 32 at a time (the rate the
// server sustains).

import { BANNER_SIZES, type ServerBannerData } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { encodePng } from "../../src/render/index.ts";
import type { RunningServer } from "../../test/support/process.ts";
import { count, micros, ms, table } from "../report/markdown.ts";
import { spread } from "../report/stats.ts";
import { runLoad, type LoadResult } from "./load.ts";
import { SERVER_TEMPLATES } from "./scenarios.mjs";

export interface SizeFigures {
  size: string;
  /** Draw + PNG in this process, ms. */
  drawn: { median: number; p95: number };
  bytes: number;
  one: LoadResult;
  many: LoadResult;
}

const TEMPLATE = SERVER_TEMPLATES[0]!;

/** What distinctBannerPath(run, n) asks for, as the template receives it. */
function bannerData(n: number): ServerBannerData {
  return {
    name: `Bench in-process-${n}`, status: "online", players: { online: n % 1000, max: 1000 }, motd: ["§aHello", ""],
    version: null, latencyMs: null, favicon: null, history: [],
  };
}

function drawTimes(size: { width: number; height: number }, samples: number): { median: number; p95: number; bytes: number } {
  const theme = templates.get(TEMPLATE)!.defaultTheme;
  const draw = (n: number) => encodePng(renderBanner(TEMPLATE, bannerData(n), { size, theme, scale: 1 }));
  for (let n = 0; n < samples; n++) draw(n); // warm-up: as many draws as are timed
  const times: number[] = [];
  let bytes = 0;
  for (let n = 0; n < samples; n++) {
    const started = performance.now();
    bytes = draw(1_000 + n).length;
    times.push(performance.now() - started);
  }
  return { ...spread(times), bytes };
}

export async function measureSizes(pennant: RunningServer, run: string, options: { seconds: number; samples: number }): Promise<SizeFigures[]> {
  const figures: SizeFigures[] = [];
  for (const size of BANNER_SIZES) {
    const name = `${size.width}x${size.height}`;
    const { median, p95, bytes } = drawTimes(size, options.samples);
    const load = (connections: number) =>
      runLoad({ url: pennant.url, connections, duration: options.seconds, scenario: "distinct banner", params: { run: `${run}.${name}.${connections}`, sizes: [name] } }, pennant.pid);
    figures.push({ size: name, drawn: { median, p95 }, bytes, one: await load(1), many: await load(32) });
  }
  return figures;
}

export function formatSizes(figures: SizeFigures[], options: { seconds: number; samples: number }): string {
  return [
    `Template ${TEMPLATE}, a new banner every request (nothing from a cache). Drawing + PNG: ${options.samples} samples in the bench's own process. ` +
      `Through HTTP: ${options.seconds} s with one connection (each request waits for the previous answer), then with 32.`,
    "",
    table(
      ["size", "draw + PNG median ms", "p95 ms", "PNG bytes", "HTTP, 1 connection: p50 ms", "p99 ms", "requests/s", "HTTP, 32 connections: requests/s", "p99 ms", "server CPU per request (µs)", "errors"],
      figures.map((f) => [
        f.size, ms(f.drawn.median), ms(f.drawn.p95), count(f.bytes), ms(f.one.p50), ms(f.one.p99), count(f.one.rps), count(f.many.rps), ms(f.many.p99),
        micros(f.many.serverCpuMicros), count(f.one.errors + f.many.errors),
      ]),
    ),
  ].join("\n");
}
