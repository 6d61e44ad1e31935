// A banner's text weighs in its draw cost (issue 38, point 6): text beyond the
// faces' tables (CJK, accents) is shaped and outlined by fontkit, a glyph at a
// time, where a Latin banner of the same size is drawn from tables and cached
// masks. Seen from outside: the same draw budget pays for fewer CJK banners
// than Latin ones, while Latin banners cost what they did.

import { afterEach, describe, expect, test } from "bun:test";
import { get as httpGet } from "node:http";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** The status of GET `path` from loopback address `from` (another client to the server). */
function statusFrom(from: string, path: string): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    httpGet({ host: "127.0.0.1", port, path, localAddress: from, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    }).on("error", reject);
  });
}

const ideographs = (from: number, count: number) => Array.from({ length: count }, (_, k) => String.fromCodePoint(0x4e00 + from + k)).join("");
const latin = (seed: number, count: number) => `Skyblock Network ${seed} `.repeat(count).slice(0, count);
/** A 468x60 PNG (one unit of pixels) with the longest name and first MOTD line a query may give. */
const banner = (name: string, motd: string) => `/api/banner?server_name=${encodeURIComponent(name)}&motd_line_1=${encodeURIComponent(motd)}`;

describe("the draw budget weighs text beyond the faces' tables", () => {
  test("a client drawing CJK banners is refused before one drawing Latin banners of the same size and length", async () => {
    // 206 units, the smallest budget allowed: CJK of 128 + 512 characters is 80 units more than its pixels' 1.
    server = await startTestServer({ PENNANT_DRAW_BUDGET: "206/60", PENNANT_RENDER_THREADS: "1" });
    const cjk = [0, 1, 2].map((n) => banner(ideographs(n * 640, 128), ideographs(n * 640 + 128, 512)));
    expect(await statusFrom("127.0.0.7", cjk[0]!)).toBe(200);
    expect(await statusFrom("127.0.0.7", cjk[1]!)).toBe(200);
    expect(await statusFrom("127.0.0.7", cjk[2]!)).toBe(429);
    // The same lengths in Latin cost a unit each: another address draws as many as the CJK client did, and far more.
    for (let n = 0; n < 20; n++) expect(await statusFrom("127.0.0.8", banner(latin(n, 128), latin(n, 512)))).toBe(200);
  });
});
