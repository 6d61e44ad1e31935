// `npm run bench`: THE bench command. Runs each part in a process of its own
// (so one part's heap and caches do not skew the next), collects their
// figures and tables, computes every target's verdict and writes
// docs/performance.md. A part that fails fails the command (exit 1) and
// nothing is written.
//
//   npm run bench [-- --quick] [--out FILE] [--mcbanners DIR]
//
// --quick: a short run (~3.5 minutes, for CI): shorter samples and loads,
// 100,000 mixed requests instead of a million, no lookup bench.
// --out FILE: write the report there instead of docs/performance.md.
// --mcbanners DIR (or MCBANNERS_DIR): a checkout of MCBanners, whose cached
// banners are then measured beside ours (docs/banners.md says how to get one);
// without it that target is not measured.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backendTargets, type BackendsFigures } from "./backends/report.ts";
import { backendsSection } from "./backends/section.ts";
import { flatBadge } from "./report/badge-output.ts";
import { renderDocument, type Section } from "./report/document.ts";
import { describeMachine, loadAverage } from "./report/machine.ts";
import { evaluateTargets, type Figures, type HttpFigures, type PeersFigures, type RenderFigures, type ThreadsFigures } from "./report/targets.ts";
import type { AnimatedFigures } from "./animated.ts";
import type { HistoryStormFigures } from "./history/storm.ts";

const ROOT = join(import.meta.dir, "..");

function usage(message: string): never {
  console.error(`error: ${message}\nusage: npm run bench [-- --quick] [--out FILE] [--mcbanners DIR]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let quick = false;
let out = join(ROOT, "docs/performance.md");
let mcbanners: string | undefined;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--quick") quick = true;
  else if (args[i] === "--out") out = args[++i] ?? usage("--out needs a file");
  else if (args[i] === "--mcbanners") mcbanners = args[++i] ?? usage("--mcbanners needs a folder");
  else usage(`unknown option ${args[i]}`);
}

interface PartResult<T> {
  stdout: string;
  /** The part's --json output, for parts that write one. */
  json?: { figures: T; markdown: Record<string, string> };
}

const scratch = mkdtempSync(join(tmpdir(), "pennant-bench-"));
const started = performance.now();

/** Runs bench/<script> as its own process; its progress (stderr) shows as it goes. */
async function part<T>(script: string, withJson: boolean, extra: string[] = []): Promise<PartResult<T>> {
  const json = join(scratch, `${script}.json`);
  const command = [process.execPath, join(import.meta.dir, script), ...extra, ...(withJson ? ["--json", json] : [])];
  const partStarted = performance.now();
  console.error(`bench: ${script}${extra.length > 0 ? ` ${extra.join(" ")}` : ""}`);
  const child = Bun.spawn(command, { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (code !== 0) throw new Error(`bench/${script} failed (exit ${code})${stdout.trim() ? `; the end of its output:\n${stdout.trim().slice(-2_000)}` : ""}`);
  console.error(`bench: ${script} done in ${((performance.now() - partStarted) / 1000).toFixed(0)} s`);
  return { stdout, ...(withJson ? { json: JSON.parse(readFileSync(json, "utf8")) } : {}) };
}

try {
  const loadAtStart = loadAverage();
  const machine = await describeMachine();
  const quickFlag = quick ? ["--quick"] : [];
  const render = await part<RenderFigures>("render.ts", true, quickFlag);
  const badge = await part<never>("badge.ts", false, quickFlag);
  const banner = await part<unknown>("banner.ts", true, quickFlag);
  const http = await part<HttpFigures>("http.ts", true, quickFlag);
  // Beside MCBanners too when a checkout is given (--mcbanners DIR, or MCBANNERS_DIR, which the part reads itself).
  const peers = await part<PeersFigures>("beside-peers.ts", true, [...quickFlag, ...(mcbanners ? ["--mcbanners", mcbanners] : [])]);
  const threads = await part<ThreadsFigures>("threads.ts", true, quickFlag);
  const history = await part<HistoryStormFigures>("history.ts", true, quickFlag);
  const backends = await part<BackendsFigures>("backends.ts", true, quickFlag);
  const animated = await part<AnimatedFigures>("animated.ts", true, quickFlag);
  const lookup = quick ? undefined : await part<never>("lookup.ts", false);

  const figures: Figures = {
    render: render.json!.figures, badge: flatBadge(badge.stdout), http: http.json!.figures, peers: peers.json!.figures, threads: threads.json!.figures,
    history: history.json!.figures, animated: animated.json!.figures,
  };
  const targets = [...evaluateTargets(figures), ...backendTargets(backends.json!.figures)];
  const md = (result: PartResult<unknown>, key: string) => {
    const text = result.json?.markdown[key];
    if (text === undefined) throw new Error(`a bench part wrote no "${key}" table`);
    return text;
  };
  const mixedRequests = http.json!.figures.mixed.requests.toLocaleString("en-US");
  const sections: Section[] = [
    {
      title: "Rendering against peers (`bench/render.ts`)",
      explanation:
        "Each scene drawn and encoded to PNG by our engine (`src/render`), by @napi-rs/canvas (Skia) and by satori + @resvg/resvg-js, " +
        "one after another in one process, all three with the same fonts (DejaVu Sans, from `glyphs/`). Medians over ~1.5 s of runs per " +
        "cell after a warm-up (0.4 s with `--quick`). Then the 1200x300 banner as WebP, and our engine's memory over many renders in a " +
        "process of its own.",
      body: [md(render, "scenes"), md(render, "webp"), md(render, "memory")].join("\n\n"),
    },
    {
      title: "Badges (`bench/badge.ts`)",
      explanation:
        "Each badge drawn and PNG-encoded cold (a new count every run; glyph masks, gradient tables and the label's pixels warm, as on a " +
        "running server that has drawn that label before; \"labels cleared\": the label pixels emptied before every run, the label drawn too) by " +
        "our engine as the server writes it (compact PNG, zlib level 6) and with the engine's fast default encoding, by @napi-rs/canvas " +
        "from the same layout, and by badge-maker + resvg from shields' own SVG; then the cached badge over HTTP with that bench's own " +
        "client (the autocannon figures are below). Medians in ms, as the bench prints them.",
      body: badge.stdout,
    },
    {
      title: "Banners: every template at every size (`bench/banner.ts`)",
      explanation: "Drawing + PNG encoding (`renderBanner`, `encodePng`) with new data every run, so nothing drawn before is reused; medians and p95.",
      body: md(banner, "templates"),
    },
    {
      title: "HTTP load beside a plain Bun.serve (`bench/http.ts`)",
      explanation:
        "Pennant runs as users run it, `bun src/index.ts serve`: a process of its own on loopback, a fresh database (seeded with 1,000 " +
        "server tokens and a plugin record), `PENNANT_LOG_LEVEL=warn`, and `PENNANT_RATE_LIMIT`, `PENNANT_DRAW_BUDGET` and `PENNANT_PUSH_RATE_LIMIT` raised " +
        "to 1000000/1, `PENNANT_DRAW_QUEUE_PER_CLIENT` to 1000 and `PENNANT_DRAW_QUEUE_UNITS` to 1000000, so that the bench, all from one address, is not refused. The per-token budget (600 signed requests a minute) is " +
        "fixed, so signed updates cycle over the 1,000 tokens, each pushing for a server of its own; each is signed as the README's " +
        "\"Signed API\" says and unique, so the replay guard accepts it. The plain server is a `Bun.serve` in a process of its own " +
        "answering the same bytes (the cached banner's or the badge's PNG) or, for the POST, reading the body and answering a small " +
        "JSON. The load is autocannon under Node, a third process, sending the same requests to both; rounds alternate plain and " +
        "Pennant, so a neighbour's load hits both alike.\n\n" +
        "Latency percentiles are exact over every response (autocannon's own per-response times; its summary rounds to whole ms). " +
        "Errors are answers outside 2xx, socket errors and timeouts. Server CPU per request is the server's user + system time " +
        "(`/proc/<pid>/stat`) over the round divided by its answers; the CPU ratio (plain over Pennant) is the rate ratio the two " +
        "would show with a core each, which 2 shared cores, the load client's included, cannot give: when the client is busy near " +
        "100%, it and not the server set the rate, and the rate ratio flatters the slower server. RSS is `VmRSS` from " +
        "`/proc/<pid>/status`.",
      body: md(http, "versus"),
    },
    {
      title: "Beside Skia and MCBanners over HTTP (`bench/beside-peers.ts`)",
      explanation:
        "Pennant's `serve` as in the HTTP load above (budgets raised, counting), with `PENNANT_LOOKUP_PRIVATE=1`. New images over one connection " +
        "(the lean socket client, `bench/http/socket-load.ts`) in rounds alternating with @napi-rs/canvas (Skia) drawing and encoding the same kind " +
        "of image in this process; then the first `data_mode=query` banner of servers that answer the status ping but never UDP Query; then, " +
        "with a checkout of MCBanners (`--mcbanners DIR` or `MCBANNERS_DIR`; docs/banners.md), its cached server banner beside ours of the same " +
        "live server, 32 connections, alternating rounds.",
      body: [md(peers, "newImages"), md(peers, "firstLookups"), md(peers, "cachedVsMcBanners")].join("\n\n"),
    },
    {
      title: "Cost by image size",
      explanation: "How a banner's cost grows from 468x60 to 1200x300: drawing and encoding alone, then through HTTP without a cache.",
      body: md(http, "sizes"),
    },
    {
      title: "1,000 distinct banners at once",
      explanation:
        "Bursts of 1,000 new banner URLs sent at once on a fresh server, and its RSS after each: memory must level off once the render " +
        "cache (64 MiB of encoded images) and the query-string cache (8 MiB) are full. RSS after a burst also holds garbage not yet " +
        "collected (JavaScriptCore collects lazily), so single figures swing by 100 MiB and more; the verdict looks at the bursts " +
        "after the caches' bound (76 MiB with the panels) was sent and compares the lowest figures of their earlier and later " +
        "halves, which a leak would raise.",
      body: md(http, "bursts"),
    },
    {
      title: "Cache-miss storm",
      explanation:
        "The same load over N distinct banner URLs, cycled: while the render cache (64 MiB) holds all N, answers come from it; past " +
        "that, every request draws.",
      body: md(http, "storm"),
    },
    {
      title: `Memory over ${mixedRequests} mixed requests`,
      explanation:
        "A fresh server under a mix of cached banners, new banners, cached badges, 304s, signed updates and bad requests: its RSS " +
        "before (after one unmeasured pass of the mix), at its highest (`VmHWM`), right after and after a pause, and each kind's " +
        "answers against the status it should get.",
      body: md(http, "mixed"),
    },
    {
      title: "Render threads: one against one per core (`bench/threads.ts`)",
      explanation:
        "Two `serve` processes, as in the HTTP load above (fresh databases, budgets and draw queues raised, so that no draw is refused), " +
        "one with `PENNANT_RENDER_THREADS=1` and one with the default (one thread per core), beside each other on the same machine. " +
        "A lean load client (`bench/http/socket-load.ts`: Bun's TCP sockets, keep-alive, each answer read by its Content-Length; a third " +
        "process) sends a new banner every request, in alternating rounds (which server goes first alternates too), after the same load, " +
        "unmeasured, on each (the JIT's optimizing tiers compile the drawing code in the first seconds). Not autocannon, as elsewhere: " +
        "under Node it took 0.5-0.7 ms of CPU per new banner (~20% of a core), on the cores the two-thread server needs, and brought " +
        "its ratio to 1.45x in a run where this client gave 1.70x. " +
        "Server CPU per banner is the server's user + system time (`/proc/<pid>/stat`, every thread) over the round divided by its " +
        "answers. On 2 shared cores the answering thread, the collector's and JIT's threads and the load client take their part of " +
        "the same cores, so the ratio stays below the thread count.",
      body: md(threads, "throughput"),
    },
    {
      title: "Large draws and cheap requests (`bench/threads.ts`)",
      explanation:
        "A fresh server with the default limits (`PENNANT_RATE_LIMIT` 120/60, `PENNANT_DRAW_BUDGET` 6000/60, a draw queue of 16 per " +
        "client and 4,096 units). Four clients, each from a loopback address of its own (127.0.0.2-5, Node's `localAddress`), send 120 " +
        "new `size=1200x300&scale=2&format=webp` banners each, all at once (206 units each: a client's budget pays for 29 of them; " +
        "the rest are refused with 429, and those the queue cannot hold with 503). Meanwhile another client process (Node) asks for " +
        "`/healthz` and for a banner drawn before the storm, each one request at a time with a 2 ms pause, from the storm's start to " +
        "its last answer; the cached banner from 127.0.1.x, another address every 50 requests, so that its own request budget " +
        "refuses none. Latencies are the client's, to the end of each body. Then the same with `PENNANT_RENDER_THREADS=0`: drawing on " +
        "the answering thread, as before issue 20, for contrast.",
      body: md(threads, "storm"),
    },
    {
      title: "Peak memory under storms (`bench/threads.ts`)",
      explanation:
        "A fresh server with the default render threads and cache budget, then one with a single render thread (`PENNANT_RENDER_THREADS=1`), budgets and queues raised (one address sends everything). " +
        "Autocannon sends distinct banners, then distinct badges, each storm at once over 500 connections; the server's `VmRSS` and " +
        "`VmHWM` (its high-water mark, from `/proc/<pid>/status`) after each. VmHWM counts every peak since the server started, " +
        "garbage not yet collected included.",
      body: md(threads, "peakMemory"),
    },
    {
      title: "History reads and cheap requests (`bench/history.ts`)",
      explanation:
        "A fresh server with the default limits and a SQLite file seeded with four networks of the largest size the limits allow " +
        "(100 servers, 25 with `--quick`), each server with 30 days of 5-minute buckets and a year of hourly ones. Four clients, each " +
        "from a loopback address of its own (127.0.0.2-5) and asking for its own network, send one request at a time for 30 s (8 s " +
        "with `--quick`): the network's sparkline over 30 days, 7 days and 24 hours with a new `server_name` each time, then each " +
        "member's yearly history (`/api/servers/{uuid}/history?range=1y`), round after round; past their request budget (120 a minute) " +
        "they are refused. Meanwhile another client process asks for `/healthz` and a banner drawn before, as in the draw storm above.",
      body: md(history, "storm"),
    },
    {
      title: "Animated banners (`bench/animated.ts`)",
      explanation:
        "The GIF writers compared on the 12 frames of a 468x60 and a 728x90 `animate=stats` card (gifenc and omggif handed the same " +
        "indexed whole frames, their writing alone timed; gif-encoder-2 quantizing itself), then omggif as the server uses it, only " +
        "each frame's changed rectangle, indexing included. Then each animation of the 468x60 card drawn and encoded cold (a new " +
        "player count each draw, on this thread) against the still banner as PNG, GIF and WebP. Medians in ms.",
      body: [md(animated, "writers"), md(animated, "cost")].join("\n\n"),
    },
    backendsSection(backends.json!.markdown),
    lookup
      ? {
          title: "Live lookups (`bench/lookup.ts`)",
          explanation: "A lookup of a local minecraft-protocol server, the result cache filled with near-maximal replies, and a storm of 1,000 addresses that never answer; loopback only.",
          body: "```\n" + lookup.stdout.trim() + "\n```",
        }
      : { title: "Live lookups (`bench/lookup.ts`)", explanation: "Not run with `--quick`.", body: "" },
  ];

  const wallSeconds = (performance.now() - started) / 1000;
  const document = renderDocument({
    generatedAt: new Date(),
    command: `npm run bench${quick ? " -- --quick" : ""}`,
    wallSeconds,
    machine,
    loadAtStart,
    loadAtEnd: loadAverage(),
    targets,
    sections,
  });
  writeFileSync(out, document);
  for (const t of targets) console.error(`${t.verdict.padEnd(12)} ${t.source}: ${t.target} (${t.measured})`);
  console.log(`bench: wrote ${out} in ${(wallSeconds / 60).toFixed(1)} min`);
} catch (error) {
  console.error(`bench: error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
