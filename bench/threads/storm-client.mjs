// The clients of the draw storm (bench/threads/storm.ts), run under Node as
// processes of their own, each address a loopback address of its own
// (127.0.0.x: Pennant counts budgets per client address).
//
//   node storm-client.mjs storm URL ADDRESSES PER_ADDRESS RUN
//     ADDRESSES clients (127.0.0.2, .3, ...) each send PER_ADDRESS large WebP
//     banners at once, each new (RUN makes them unique to the run). Prints
//     JSON: the count of each status ("error" for a failed request) and the
//     seconds until the last answer.
//
//   node storm-client.mjs probe URL CACHED_PATH
//     Asks for /healthz and for the cached banner CACHED_PATH, each one
//     request at a time with a 2 ms pause, until stdin ends; records what
//     comes after a "start" line on stdin. The cached banner is asked from
//     127.0.1.x, another address every 50 requests, so that the banner
//     request budget (120 a minute per address by default) refuses none of
//     them. Prints JSON: the latencies (ms) and statuses of each.

import { request } from "node:http";

const TIMEOUT_MS = 120_000;

/** One GET from `localAddress`: its status ("error" on failure) and ms until its body ended. */
function get(url, localAddress, headers = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status) => resolve({ status: String(status), ms: performance.now() - started });
    const req = request(url, { localAddress, headers, timeout: TIMEOUT_MS }, (res) => {
      res.on("data", () => {});
      res.on("end", () => done(res.statusCode));
      res.on("error", () => done("error"));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => done("error"));
    req.end();
  });
}

function tally(results) {
  const statuses = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  return statuses;
}

async function storm(base, addresses, perAddress, run) {
  const started = performance.now();
  const all = [];
  for (let a = 0; a < addresses; a++) {
    for (let n = 0; n < perAddress; n++) {
      const path = `/api/banner?size=1200x300&scale=2&format=webp&server_name=Storm%20${run}-${a}-${n}&online_players=${n}&max_players=500`;
      all.push(get(base + path, `127.0.0.${2 + a}`, { Accept: "image/webp,*/*" }));
    }
  }
  const results = await Promise.all(all);
  return { statuses: tally(results), seconds: (performance.now() - started) / 1000 };
}

async function probe(base, cachedPath) {
  let recording = false;
  let running = true;
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (text) => { if (text.includes("start")) recording = true; });
  process.stdin.on("end", () => { running = false; });
  const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
  const loop = async (next) => {
    const results = [];
    while (running) {
      const result = await next();
      if (recording) results.push(result);
      await pause();
    }
    return results;
  };
  let cached = 0;
  const [healthz, banner] = await Promise.all([
    loop(() => get(`${base}/healthz`, "127.0.0.1")),
    loop(() => get(base + cachedPath, `127.0.1.${1 + (Math.floor(cached++ / 50) % 250)}`, { Accept: "image/png" })),
  ]);
  const summary = (results) => ({ latencies: results.map((r) => r.ms), statuses: tally(results) });
  return { healthz: summary(healthz), cached: summary(banner) };
}

const [mode, url, ...rest] = process.argv.slice(2);
let result;
if (mode === "storm") result = await storm(url, Number(rest[0]), Number(rest[1]), rest[2]);
else if (mode === "probe") result = await probe(url, rest[0]);
else {
  console.error("usage: node storm-client.mjs storm URL ADDRESSES PER_ADDRESS RUN | probe URL CACHED_PATH");
  process.exit(2);
}
process.stdout.write(JSON.stringify(result));
