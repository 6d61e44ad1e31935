// The plain server the HTTP benches compare Pennant with: Bun.serve and
// nothing else, as its own process. GET /api/banner... answers the bytes of
// banner.png, GET /shields/... those of badge.png (files in DIR, written by
// the bench from Pennant's own answers); a POST reads its body and answers a
// small JSON, as Pennant answers an update. Started like Pennant (by
// test/support/process.ts's startServe: HOST, PORT, a "serve" argument) and
// prints the same "listening on URL" line.
//
//   PENNANT_BENCH_FILES=DIR HOST=127.0.0.1 PORT=0 bun bench/http/baseline.ts serve

import { readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.PENNANT_BENCH_FILES;
if (!dir) {
  console.error("usage: PENNANT_BENCH_FILES=DIR bun bench/http/baseline.ts serve (DIR holding banner.png and badge.png)");
  process.exit(2);
}
const banner = readFileSync(join(dir, "banner.png"));
const badge = readFileSync(join(dir, "badge.png"));
const png = { "Content-Type": "image/png" };
const updated = JSON.stringify({ message: "Server data updated." });

const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    if (request.method === "POST") {
      await request.arrayBuffer();
      return new Response(updated, { headers: { "Content-Type": "application/json" } });
    }
    return new Response(request.url.includes("/shields/") ? badge : banner, { headers: png });
  },
});
console.log(`listening on http://127.0.0.1:${server.port}`);
