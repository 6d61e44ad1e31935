// The attackers of the history storm (bench/history.ts), run under Node as a
// process of their own, each address a loopback address of its own
// (127.0.0.2, .3, ...: Pennant counts budgets per client address).
//
//   node history-client.mjs URL SECONDS NETWORKS_JSON
//     NETWORKS_JSON: [{ "slug": "...", "members": ["uuid", ...] }, ...], one
//     an address. For SECONDS, each address asks, one request at a time, for
//     its network's sparkline over 30 days, 7 days and 24 hours (a new
//     server_name each time: a new banner, so its plan reads the history
//     again) and for each member's yearly history, round after round.
//     Prints JSON: the count of each status ("error" for a failed request).

import { request } from "node:http";

const TIMEOUT_MS = 60_000;

function get(url, localAddress) {
  return new Promise((resolve) => {
    const req = request(url, { localAddress, timeout: TIMEOUT_MS }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(String(res.statusCode)));
      res.on("error", () => resolve("error"));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve("error"));
    req.end();
  });
}

async function attack(base, seconds, networks) {
  const until = performance.now() + seconds * 1000;
  const statuses = {};
  let asked = 0;
  await Promise.all(networks.map(async ({ slug, members }, a) => {
    const from = `127.0.0.${2 + a}`;
    const paths = [
      ...["30d", "7d", "24h"].map((range) => () => `/api/banner?data_mode=network&network=${slug}&template_key=sparkline&range=${range}&server_name=${slug}-${asked++}`),
      ...members.map((uuid) => () => `/api/servers/${uuid}/history?range=1y`),
    ];
    for (let i = 0; performance.now() < until; i = (i + 1) % paths.length) {
      const status = await get(base + paths[i](), from);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }));
  return statuses;
}

const [url, seconds, networks] = process.argv.slice(2);
if (!url || !seconds || !networks) {
  console.error("usage: node history-client.mjs URL SECONDS NETWORKS_JSON");
  process.exit(2);
}
process.stdout.write(JSON.stringify(await attack(url, Number(seconds), JSON.parse(networks))));
