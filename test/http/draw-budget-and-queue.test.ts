// Draws cost units from a per-address budget and wait their turn in a bounded,
// fair queue (src/http/drawing/): seen from outside, over real HTTP, with
// separate loopback source addresses standing for separate clients. Draws are
// held in their queue slot by the app's holdDraws hook, as a busy render
// thread would keep them, so the test decides when each ends.

import { afterEach, describe, expect, test } from "bun:test";
import { get as httpGet } from "node:http";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET `path` from loopback address `from` (127.0.0.x: another client to the server). */
function getFrom(from: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    httpGet({ host: "127.0.0.1", port, path, localAddress: from, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

const banner = (name: string, size = "468x60", extra = "") => `/api/banner?server_name=${encodeURIComponent(name)}&size=${size}${extra}`;
const LARGEST = "1200x300";
const LARGEST_EXTRA = "&scale=2&format=webp";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const IMG = { Accept: "image/avif,image/webp,image/*,*/*;q=0.8" };

/** Draws held until the test lets each go, oldest first. */
function heldDraws() {
  const held: Array<() => void> = [];
  return {
    hold: () => new Promise<void>((resolve) => held.push(resolve)),
    get count() {
      return held.length;
    },
    releaseOne() {
      held.shift()!();
    },
  };
}

async function metric(name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split("\n").find((row) => row.startsWith(`${name}${labels} `));
  return Number(line?.split(" ")[1] ?? NaN);
}

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await Bun.sleep(5);
  }
  throw new Error("timed out waiting");
}

describe("the draw budget counts cost, not requests", () => {
  test("a client over its cost budget gets a 429 while a small-banner client from another address goes on", async () => {
    server = await startTestServer({ PENNANT_DRAW_BUDGET: "300/60", PENNANT_RENDER_THREADS: "1" });
    // 206 units of 300: the same large banner again would cost 206 more.
    expect((await getFrom("127.0.0.7", banner("Large one", LARGEST, LARGEST_EXTRA))).status).toBe(200);
    const refused = await getFrom("127.0.0.7", banner("Large two", LARGEST, LARGEST_EXTRA));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body.toString()).error.code).toBe("rate_limited");
    const asImage = await getFrom("127.0.0.7", banner("Large two", LARGEST, LARGEST_EXTRA), IMG);
    expect([asImage.status, asImage.headers["content-type"]]).toEqual([429, "image/png"]);
    expect(asImage.body.subarray(0, 4)).toEqual(PNG_SIGNATURE);
    // 94 units left: small banners still draw for it, and another address draws what it wants.
    expect((await getFrom("127.0.0.7", banner("Small", "468x60"))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await getFrom("127.0.0.8", banner(`Other ${i}`))).status).toBe(200);
    expect((await getFrom("127.0.0.8", banner("Large two", LARGEST, LARGEST_EXTRA))).status).toBe(200);
    // What is held costs nothing: the refused client gets its first banner again, and its 304.
    const again = await getFrom("127.0.0.7", banner("Large one", LARGEST, LARGEST_EXTRA));
    expect(again.status).toBe(200);
    expect((await getFrom("127.0.0.7", banner("Large one", LARGEST, LARGEST_EXTRA), { "If-None-Match": String(again.headers.etag) })).status).toBe(304);
  });

  test("waiting on an identical draw in flight is free: only the client that started it pays", async () => {
    const draws = heldDraws();
    server = await startTestServer({ PENNANT_DRAW_BUDGET: "300/60", PENNANT_RENDER_THREADS: "1" }, { holdDraws: draws.hold });
    const path = banner("Shared", LARGEST, LARGEST_EXTRA);
    const first = getFrom("127.0.0.7", path);
    await until(() => draws.count === 1);
    const second = getFrom("127.0.0.8", path);
    await Bun.sleep(50);
    draws.releaseOne();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    // The waiting client still has its whole budget for a large banner of its own.
    const own = getFrom("127.0.0.8", banner("Own", LARGEST, LARGEST_EXTRA));
    await until(() => draws.count === 1);
    draws.releaseOne();
    expect((await own).status).toBe(200);
    const third = getFrom("127.0.0.7", banner("Third", LARGEST, LARGEST_EXTRA));
    expect((await third).status).toBe(429);
  });
});

describe("the draw queue is bounded and fair", () => {
  test("beyond a client's waiting draws: 503 draw_queue_full with Retry-After, JSON for a JSON client, a PNG for an <img>", async () => {
    const draws = heldDraws();
    server = await startTestServer({ PENNANT_DRAW_QUEUE_PER_CLIENT: "2", PENNANT_RENDER_THREADS: "1" }, { holdDraws: draws.hold });
    // One render thread takes two draws (the one it draws and the one handed ahead); two more wait.
    const admitted = [0, 1, 2, 3].map((i) => getFrom("127.0.0.7", banner(`Queued ${i}`)));
    await until(async () => (await metric("pennant_draw_queue_waiting")) === 2);
    const json = await getFrom("127.0.0.7", banner("One too many"));
    expect(json.status).toBe(503);
    expect(json.headers["retry-after"]).toBe("2");
    expect(JSON.parse(json.body.toString()).error.code).toBe("draw_queue_full");
    const image = await getFrom("127.0.0.7", banner("One too many"), IMG);
    expect([image.status, image.headers["content-type"], image.headers["retry-after"]]).toEqual([503, "image/png", "2"]);
    expect(image.body.subarray(0, 4)).toEqual(PNG_SIGNATURE);
    expect(await metric("pennant_draw_queue_refused_total", '{reason="client"}')).toBe(2);
    expect(await metric("pennant_draw_queue_waiting_units")).toBe(2);
    for (let i = 0; i < 4; i++) {
      await until(() => draws.count >= 1);
      draws.releaseOne();
    }
    expect((await Promise.all(admitted)).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  test("one client's many waiting draws do not starve another's; cached answers and /healthz answer while draws wait", async () => {
    const draws = heldDraws();
    server = await startTestServer({ PENNANT_RENDER_THREADS: "1" }, { holdDraws: draws.hold });
    const cachedPath = banner("Cached");
    const cached = getFrom("127.0.0.9", cachedPath);
    await until(() => draws.count === 1);
    draws.releaseOne();
    expect((await cached).status).toBe(200);

    const finished: string[] = [];
    const track = (name: string, answer: Promise<Answer>) => answer.then((done) => (finished.push(name), done));
    const busy = [0, 1, 2, 3, 4, 5, 6].map((i) => track(`busy ${i}`, getFrom("127.0.0.7", banner(`Busy ${i}`, LARGEST, LARGEST_EXTRA))));
    await until(async () => (await metric("pennant_draw_queue_waiting")) === 5);
    const quiet = track("quiet", getFrom("127.0.0.8", banner("Quiet")));
    await until(async () => (await metric("pennant_draw_queue_waiting")) === 6);
    expect(await metric("pennant_draw_queue_waiting_units")).toBe(5 * 206 + 1);

    // Draws wait; what needs none does not.
    const started = performance.now();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await getFrom("127.0.0.9", cachedPath)).status).toBe(200);
    expect((await getFrom("127.0.0.7", cachedPath)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);

    while (finished.length < 8) {
      await until(() => draws.count >= 1);
      const before = finished.length;
      draws.releaseOne();
      await until(() => finished.length > before);
    }
    // Busy 0 and 1 had the render thread's two places (drawn, handed ahead); busy 2 was first in line; then it was the quiet client's turn.
    expect(finished.indexOf("quiet")).toBe(3);
    expect((await Promise.all([...busy, quiet])).map((answer) => answer.status)).toEqual(Array(8).fill(200));
  });
});
