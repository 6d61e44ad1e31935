// Banner bench (numbers, not tests):
// 1. cold drawing + PNG encoding of every template at every size (median, p95);
// 2. a cold 468x60 PNG through HTTP (a new banner each request);
// 3. requests per second of one cached banner URL through the whole app,
//    against a plain Bun.serve answering the same bytes, in the same run and
//    with the same client (bench/http-load.ts in a second Bun process);
// 4. 1,000 distinct banner URLs at once, eight times over, and the RSS after each.
//
// Run: npm run bench:banner [-- --quick]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BANNER_SIZES, type ServerBannerData } from "../src/banner/model.ts";
import { renderBanner, templates } from "../src/banner/templates/index.ts";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { listen } from "../src/http/listen.ts";
import { encodePng } from "../src/render/index.ts";
import { openDatabase } from "../src/store/database.ts";

const quick = process.argv.includes("--quick");
const SAMPLES = quick ? 30 : 150;
const LOAD_SECONDS = quick ? 3 : 8;
const CONNECTIONS = 32;
const MIB = 1024 * 1024;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function stats(times: number[]): { median: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2));
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
const rssMiB = () => (process.memoryUsage().rss / MIB).toFixed(0);

/** A day of history at the resolver's resolution (one point per 5 minutes). */
const HISTORY = Array.from({ length: 288 }, (_, k) => ({ at: k * 300_000, online: 800 + ((k * 37) % 400) }));

function serverData(i: number): ServerBannerData {
  return {
    name: `Skyblock Network ${i}`, status: "online", players: { online: 1_000 + i, max: 5_000 },
    motd: ["§6§lSKYBLOCK §7- §aNew season!", "§bJoin now §7at §eplay.example.com"], version: "1.21.4", latencyMs: 35, favicon: null,
    history: HISTORY,
  };
}

const plugin = { name: "EzShops", version: "3.2.1", counters: [["servers", 1_234], ["players", 56_789], ["shops", 4_321]] as Array<[string, number]>, active: true };

// 1. Cold drawing: no render cache involved; each call draws and encodes.
// One pass over everything first, so no template is timed while the JIT warms up.
for (const info of templates.values()) {
  for (const size of BANNER_SIZES) {
    for (let i = 0; i < 10; i++) encodePng(renderBanner(info.key, info.kind === "plugin" ? plugin : serverData(i), { size, theme: info.defaultTheme, scale: 1 }));
  }
}
console.log(`## Cold drawing + PNG, ${SAMPLES} samples each (ms)\n`);
console.log(row(["template", ...BANNER_SIZES.map((s) => `${s.width}x${s.height} median / p95`)]));
console.log(row(["---", ...BANNER_SIZES.map(() => "---")]));
for (const info of templates.values()) {
  const cells: string[] = [];
  for (const size of BANNER_SIZES) {
    const times: number[] = [];
    for (let i = -5; i < SAMPLES; i++) {
      const data = info.kind === "plugin" ? { ...plugin, counters: [...plugin.counters, ["i", i] as [string, number]] } : serverData(i);
      const started = performance.now();
      encodePng(renderBanner(info.key, data, { size, theme: info.defaultTheme, scale: 1 }));
      if (i >= 0) times.push(performance.now() - started);
    }
    const { median, p95 } = stats(times);
    cells.push(`${ms(median)} / ${ms(p95)}`);
  }
  console.log(row([info.key, ...cells]));
}

// The app as `serve` runs it, with a budget no bench client exhausts.
const dir = mkdtempSync(join(tmpdir(), "pennant-bench-"));
const config = loadConfig({ PENNANT_DB: join(dir, "pennant.db"), PENNANT_RATE_LIMIT: "1000000/1" });
const db = openDatabase(config.dbPath);
const app = createApp({ config, db, now: Date.now });
const port = listen(app, "127.0.0.1", 0);
const base = `http://127.0.0.1:${port}`;

/**
 * The client's requests per second, and this process's CPU time per request
 * while serving them (both servers live here; the client runs apart). On a
 * shared machine the CPU figure moves less than the rate does.
 */
async function load(url: string): Promise<{ rps: number; cpuMicros: number; statuses: Record<string, number> }> {
  const client = Bun.spawn([process.execPath, join(import.meta.dir, "http-load.ts"), url, String(CONNECTIONS), String(LOAD_SECONDS)], { stdout: "pipe", stderr: "inherit" });
  try {
    const cpu = process.cpuUsage();
    const out = await new Response(client.stdout).text();
    const used = process.cpuUsage(cpu);
    if ((await client.exited) !== 0) throw new Error("load client failed");
    const result = JSON.parse(out);
    return { ...result, cpuMicros: (used.user + used.system) / result.requests };
  } finally {
    client.kill();
  }
}

try {
  // 2. Cold 468x60 PNGs through HTTP: every request a new banner, so each is drawn.
  const times: number[] = [];
  for (let i = -20; i < SAMPLES * 2; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/api/banner?server_name=Cold%20${i}&online_players=${i + 20}&max_players=100&motd_line_1=%C2%A7aHello`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`cold banner: ${response.status}`);
    if (i >= 0) times.push(performance.now() - started);
  }
  const cold = stats(times);
  // The same banners drawn and encoded directly: what the HTTP path adds is the difference.
  const direct: number[] = [];
  for (let i = 0; i < SAMPLES * 2; i++) {
    const data: ServerBannerData = {
      name: `Direct ${i}`, status: "online", players: { online: i + 20, max: 100 }, motd: ["§aHello", ""], version: null, latencyMs: null, favicon: null, history: [],
    };
    const started = performance.now();
    encodePng(renderBanner("minimal-status", data, { size: BANNER_SIZES[0], theme: "dark", scale: 1 }));
    direct.push(performance.now() - started);
  }
  const drawn = stats(direct);
  console.log(`\n## Cold 468x60 PNG through HTTP (${times.length} requests, one at a time, fetch in the same process)\n`);
  console.log(`median ${ms(cold.median)} ms, p95 ${ms(cold.p95)} ms (target: median <= 1.5 ms); drawing and encoding alone: median ${ms(drawn.median)} ms, p95 ${ms(drawn.p95)} ms`);

  // 3. One cached banner URL against a plain server answering its bytes.
  const cachedUrl = `${base}/api/banner?server_name=Skyblock&online_players=1234&max_players=5000&motd_line_1=%C2%A7aWelcome`;
  const bytes = new Uint8Array(await (await fetch(cachedUrl)).arrayBuffer());
  const plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(bytes, { headers: { "Content-Type": "image/png" } }) });
  console.log(`\n## Cached banner through HTTP (${CONNECTIONS} keep-alive connections, ${LOAD_SECONDS} s each, client: bench/http-load.ts in a second Bun process)\n`);
  console.log(row(["round", "plain Bun.serve req/s", "GET /api/banner req/s", "ratio", "server CPU per request, plain / banner (µs)"]));
  console.log(row(["---", "---", "---", "---", "---"]));
  // Alternating rounds: a neighbour's load on a shared machine hits both sides alike.
  try {
    for (let round = 1; round <= (quick ? 1 : 3); round++) {
      const fixed = await load(`http://127.0.0.1:${plain.port}/`);
      const banner = await load(cachedUrl);
      if (Object.keys(banner.statuses).some((status) => status !== "200")) throw new Error(`banner answers: ${JSON.stringify(banner.statuses)}`);
      console.log(row([round, fixed.rps.toFixed(0), banner.rps.toFixed(0), (banner.rps / fixed.rps).toFixed(2), `${fixed.cpuMicros.toFixed(1)} / ${banner.cpuMicros.toFixed(1)}`]));
    }
  } finally {
    plain.stop(true);
  }
  console.log(`\n(${bytes.length}-byte banner, the same bytes from the plain server; target: ratio >= 0.7)`);

  // 4. Bursts of 1,000 distinct URLs at once, all sizes mixed.
  console.log(`\n## 1,000 distinct banner URLs at once, eight bursts (render cache bound: 64 MiB)\n`);
  console.log(row(["after burst", "wall time (s)", "RSS (MiB)"]));
  console.log(row(["---", "---", "---"]));
  console.log(row(["before", "-", rssMiB()]));
  for (let burst = 1; burst <= 8; burst++) {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 1_000 }, async (_, i) => {
      const size = BANNER_SIZES[i % BANNER_SIZES.length]!;
      const key = [...templates.keys()].filter((name) => templates.get(name)!.kind === "server")[i % 5];
      const response = await fetch(`${base}/api/banner?template_key=${key}&size=${size.width}x${size.height}&server_name=Burst%20${burst}-${i}&online_players=${i}`);
      await response.arrayBuffer();
      return response.status;
    }));
    if (answers.some((status) => status !== 200)) throw new Error(`burst ${burst}: ${answers.filter((s) => s !== 200).length} failed`);
    Bun.gc(true);
    console.log(row([burst, ((performance.now() - started) / 1000).toFixed(1), rssMiB()]));
  }
} finally {
  await app.stop(true);
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
