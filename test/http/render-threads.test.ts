// Render threads (src/serve/drawing): the pool draws exactly what the
// answering thread would (byte for byte, every template, size, format and
// scale, badges in every style), keeps going when a drawing fails, reports
// its threads' caches, and stops. Over HTTP: the answering thread stays free
// while large banners are drawn.

import { afterAll, describe, expect, test } from "bun:test";
import http from "node:http";
import { badgeColor } from "../../src/badge/colors.ts";
import { badgeImage } from "../../src/badge/images.ts";
import { STYLE_NAMES } from "../../src/badge/styles.ts";
import type { BannerJob } from "../../src/banner/banner-jobs.ts";
import { BannerService, type PreparedBanner } from "../../src/banner/banner-service.ts";
import { BANNER_SIZES } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { CACHE_SHARES, DRAWING_CACHES } from "../../src/config.ts";
import { parseBannerQuery } from "../../src/http/banner-query.ts";
import { DRAWING_MEMORY_BYTES } from "../../src/serve/drawing/draw-memory.ts";
import type { Drawing } from "../../src/http/drawing/drawer.ts";
import { InThreadDrawer } from "../../src/serve/drawing/in-thread-drawer.ts";
import { RenderPool, WORKER_URL, type RenderPoolSettings } from "../../src/serve/drawing/render-pool.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { encodePng, encodeWebp, Pixmap, rgba } from "../../src/render/index.ts";
import type { MarketProject, MarketService } from "../../src/market/market-project.ts";
import { projectIcon } from "../support/banner-samples.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import { tempDir } from "../support/cleanup.ts";
import { startTestServer } from "../support/server.ts";

const store = openSqliteStore(`${tempDir("pennant-threads-")}/pennant.db`);
/** One project for every marketplace banner, its icon a WebP: the threads decode it as the answering thread does. */
const PROJECT: MarketProject = {
  site: "modrinth", id: "AANobbMI", slug: "sodium", name: "Sodium", author: "jellysquid3", iconUrl: "https://cdn.modrinth.com/icon.webp",
  downloads: 51_234_567, rating: null, followers: 25_400, latestVersion: "mc1.21.4-0.6.5", gameVersions: "1.16.5-1.21.4", updatedAt: null,
};
const market: MarketService = {
  project: async () => ({ status: "found", value: PROJECT, fetchedAt: 0, stale: false }),
  author: async () => ({ status: "not_found" }),
};
const iconBytes = encodeWebp(projectIcon(), { lossless: false });
const icons = { icon: async () => iconBytes };
const banners = new BannerService({ store, lookup: new LookupService({ allowPrivate: false }), now: Date.now, staleAfterMs: 900_000, market: { service: market, icons } });
afterAll(() => store.close());

const MANUAL = "server_name=Skyblock%20%C2%A76Network&online_players=12&max_players=100&motd_line_1=%C2%A7aWelcome%20%C2%A7lhome&motd_line_2=%C2%A7x%C2%A7f%C2%A7f%C2%A70%C2%A70%C2%A70%C2%A70red&version=1.21.4";

function bannerPlan(query: string): Promise<PreparedBanner> {
  return banners.prepare(parseBannerQuery(Object.fromEntries(new URLSearchParams(query))));
}

/** Every template at every size in both formats, and each at scale 2; badges in every style at both scales. */
async function everyDrawing(): Promise<Array<[string, Drawing]>> {
  const jobs: Array<[string, Drawing]> = [];
  for (const { key, kind } of templates.values()) {
    // A plugin template draws a plugin record (this one was never pushed: "unknown plugin"); a market one a project.
    const template = kind === "plugin" ? `${key}&plugin_uuid=${crypto.randomUUID()}` : kind === "market" ? `${key}&site=modrinth&project=sodium` : key;
    for (const size of BANNER_SIZES) {
      for (const format of ["png", "webp"]) {
        const query = `template_key=${template}&size=${size.width}x${size.height}&format=${format}&${MANUAL}`;
        jobs.push([query, await bannerPlan(query)]);
      }
    }
    const query = `template_key=${template}&size=468x60&scale=2&theme=light&accent=%23ff8800&${MANUAL}`;
    jobs.push([query, await bannerPlan(query)]);
  }
  // A favicon travels as PNG bytes and is decoded where the banner is drawn.
  const icon = new Pixmap(64, 64);
  icon.fill(rgba(40, 160, 90));
  const withIcon = await bannerPlan(`template_key=classic&size=728x90&${MANUAL}`);
  const { job } = withIcon;
  if (job.kind === "banner" && !("counters" in job.data)) {
    jobs.push(["classic with a favicon", { ...withIcon, job: { ...job, data: { ...job.data, favicon: await encodePng(icon) } } }]);
  }
  jobs.push(["an error image", banners.errorImage("bad size", BANNER_SIZES[1])]);
  for (const style of STYLE_NAMES) {
    for (const scale of [1, 2] as const) {
      const content = { label: "players", message: "12/100 §x", color: badgeColor("brightgreen"), style };
      jobs.push([`badge ${style} x${scale}`, badgeImage(content, scale)]);
    }
  }
  return jobs;
}

/** A pool of `settings` (the default cache shares unless given) for `use`, closed after it however it ends. */
async function withPool(settings: Omit<RenderPoolSettings, "cacheBytes">, use: (pool: RenderPool) => Promise<void>): Promise<void> {
  const pool = new RenderPool({ cacheBytes: CACHE_SHARES, ...settings });
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
}

describe("the pool of render threads", () => {
  test("threads and the answering thread give the same bytes for every template, size, format, scale and badge style", async () => {
    const jobs = await everyDrawing();
    const here = new InThreadDrawer(CACHE_SHARES);
    await withPool({ threads: 2 }, async (pool) => {
      // All at once: both threads draw, each from its own caches.
      const [drawnHere, drawnThere] = await Promise.all([
        Promise.all(jobs.map(([, job]) => here.draw(job))),
        Promise.all(jobs.map(([, job]) => pool.draw(job))),
      ]);
      const differing = jobs.filter((_, i) => !Buffer.from(drawnHere[i]!).equals(Buffer.from(drawnThere[i]!))).map(([name]) => name);
      expect(differing).toEqual([]);
      expect(jobs.length).toBeGreaterThan(60);
    });
  }, 120_000);

  test("a busy thread is handed the next job ahead, so that it starts it at once; it answers its jobs in the order they came", async () => {
    await withPool({ threads: 1 }, async (pool) => {
      expect(new RenderPool({ threads: 3, cacheBytes: CACHE_SHARES }).slots).toBe(6);
      // A WebP first: on a new thread it waits for its encoder to start, and the PNG after it must not overtake it.
      const jobs = [`format=webp&${MANUAL}`, MANUAL, `size=728x90&${MANUAL}`];
      const plans = await Promise.all(jobs.map(bannerPlan));
      const drawn = plans.map((plan) => pool.draw(plan));
      expect(pool.inFlight().drawings).toBe(2);
      const here = new InThreadDrawer(CACHE_SHARES);
      const expected = await Promise.all(plans.map((plan) => here.draw(plan)));
      const got = await Promise.all(drawn);
      expect(got.map((bytes, i) => Buffer.from(bytes).equals(Buffer.from(expected[i]!)))).toEqual([true, true, true]);
      expect(pool.inFlight()).toEqual({ drawings: 0, memory: 0 });
    });
  });

  test("a thread that dies fails only the drawing it was on: the job handed to it ahead is drawn by the next thread", async () => {
    await withPool({ threads: 1 }, async (pool) => {
      const plan = await bannerPlan(MANUAL);
      const drawn = [pool.draw(plan), pool.draw(plan)];
      expect(pool.inFlight().drawings).toBe(2);
      // As a crash would: the thread ends while on its first job (a new thread takes tens of ms to load its fonts).
      (pool as unknown as { threads: Array<{ worker: Worker }> }).threads[0]!.worker.terminate();
      const [first, second] = await Promise.allSettled(drawn);
      expect(first!.status).toBe("rejected");
      expect(String((first as PromiseRejectedResult).reason)).toContain("render thread failed");
      expect(second!.status).toBe("fulfilled");
      expect(pool.inFlight()).toEqual({ drawings: 0, memory: 0 });
    });
  });

  test("a render thread's failure outside a drawing is the thread's error, which the pool hears (it then replaces the thread)", async () => {
    const worker = new Worker(WORKER_URL);
    try {
      const failed = new Promise<string>((resolve) => worker.addEventListener("error", (event) => resolve(event.message)));
      // A job before the "start" message that gives the thread its caches: it has nothing to draw with.
      worker.postMessage({ type: "draw", id: 1, job: (await bannerPlan(MANUAL)).job, collect: null });
      expect(await failed).toMatch(/undefined|not an object/);
    } finally {
      worker.terminate();
    }
  });

  test("a drawing that fails fails alone: its caller gets the error, the thread draws the next job", async () => {
    await withPool({ threads: 1 }, async (pool) => {
      const good = await bannerPlan(MANUAL);
      const bad = { ...good, job: { ...good.job, template: "no-such-template" } as BannerJob };
      const results = await Promise.allSettled([pool.draw(bad), pool.draw(good)]);
      expect(results[0]!.status).toBe("rejected");
      expect(String((results[0] as PromiseRejectedResult).reason)).toContain("no-such-template");
      expect(results[1]!.status).toBe("fulfilled");
    });
  });

  test("reports every drawing cache, summed over its threads, bounded by the threads' parts of each share", async () => {
    await withPool({ threads: 2 }, async (pool) => {
      const before = new Map(pool.usage());
      expect([...before.keys()].sort()).toEqual([...DRAWING_CACHES].sort());
      expect(before.get("glyph_masks")!.entries).toBe(0);
      await Promise.all([pool.draw(await bannerPlan(MANUAL)), pool.draw(await bannerPlan(`size=728x90&${MANUAL}`))]);
      const after = new Map(pool.usage());
      expect(after.get("glyph_masks")!.entries).toBeGreaterThan(0);
      for (const [name, stats] of after) {
        expect(stats.maxBytes).toBeLessThanOrEqual(CACHE_SHARES[name]);
        expect(stats.maxBytes).toBeGreaterThan(CACHE_SHARES[name] - 2);
      }
    });
  });

  test("drawings start while their memory fits beside those in flight: never two of the largest WebPs at once", async () => {
    await withPool({ threads: 2 }, async (pool) => {
      const large = await bannerPlan(`size=1200x300&scale=2&format=webp&${MANUAL}`);
      const small = await bannerPlan(MANUAL);
      const both = [pool.draw(large), pool.draw(large)];
      expect(pool.inFlight().drawings).toBe(1);
      await Promise.all(both);
      const smalls = [pool.draw(small), pool.draw(small)];
      expect(pool.inFlight().drawings).toBe(2);
      await Promise.all(smalls);
      expect(pool.inFlight()).toEqual({ drawings: 0, memory: 0 });
    });
  });

  test("the largest WebP runs alone, even beside a small drawing; the largest PNG leaves room for a small one; two at scale 1 run together", async () => {
    // Measured (bench/threads.ts's banner storm): drawings beside a large WebP cost far more peak memory than their estimates.
    await withPool({ threads: 2 }, async (pool) => {
      const small = await bannerPlan(MANUAL);
      const webp = [pool.draw(await bannerPlan(`size=1200x300&scale=2&format=webp&${MANUAL}`)), pool.draw(small)];
      expect(pool.inFlight().drawings).toBe(1);
      await Promise.all(webp);
      const png = [pool.draw(await bannerPlan(`size=1200x300&scale=2&format=png&${MANUAL}`)), pool.draw(small)];
      expect(pool.inFlight().drawings).toBe(2);
      await Promise.all(png);
      // Any two banners at scale 1, the largest WebPs among them, are drawn side by side.
      const scaleOne = await bannerPlan(`size=1200x300&format=webp&${MANUAL}`);
      const pair = [pool.draw(scaleOne), pool.draw(scaleOne)];
      expect(pool.inFlight().drawings).toBe(2);
      await Promise.all(pair);
    });
  });

  test("before a drawing that runs alone, every thread is told to collect its garbage in full; before others, none is", async () => {
    const sent: Array<{ worker: Worker; type: string }> = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: { type: string }, ...rest: never[]) {
      sent.push({ worker: this, type: message.type });
      return post.call(this, message, ...rest);
    };
    try {
      await withPool({ threads: 2 }, async (pool) => {
        const small = await bannerPlan(MANUAL);
        await Promise.all([pool.draw(small), pool.draw(small)]);
        const workers = [...new Set(sent.map(({ worker }) => worker))];
        expect(workers).toHaveLength(2);
        expect(sent.filter(({ type }) => type === "collect")).toEqual([]);
        sent.length = 0;
        const large = await bannerPlan(`size=1200x300&scale=2&format=webp&${MANUAL}`);
        expect(await pool.draw(large)).toBeInstanceOf(Uint8Array);
        // Each thread's collection comes before the drawing, whichever thread draws it.
        expect(sent.map(({ type }) => type)).toEqual(["collect", "collect", "draw"]);
        expect(new Set(sent.slice(0, 2).map(({ worker }) => worker)).size).toBe(2);
        await Promise.all([pool.draw(small), pool.draw(small)]);
      });
    } finally {
      Worker.prototype.postMessage = post;
    }
  });

  test("animated drawings in flight never hold more than the bound together: the storm's animated 1200x300 GIF runs alone, a small still beside it", async () => {
    // What one such drawing raised a fresh render thread's peak by (9 frames: 18.3 MiB; docs/performance-notes.md, issue 38).
    const MEASURED_GIF_BYTES = 18 * 1024 * 1024;
    await withPool({ threads: 2 }, async (pool) => {
      const gif = await bannerPlan(`size=1200x300&format=gif&animate=stats&ip_address=play.example.com&${MANUAL}`);
      expect(gif.frames).toBe(9);
      const small = await bannerPlan(MANUAL);
      let mostGifs = 0;
      const look = () => {
        // Every drawing in flight but the smalls is the GIF: the smalls are the last two sent.
        const { drawings } = pool.inFlight();
        mostGifs = Math.max(mostGifs, Math.min(drawings, 4 - done));
      };
      let done = 0;
      const draws = [gif, gif, gif, gif].map((plan) => pool.draw(plan).then(() => (done++, look())));
      look();
      await Promise.all([...draws, pool.draw(small), pool.draw(small)]);
      expect(mostGifs * MEASURED_GIF_BYTES).toBeLessThanOrEqual(DRAWING_MEMORY_BYTES);
      expect(pool.inFlight()).toEqual({ drawings: 0, memory: 0 });
    });
  });

  test("a drawing past its deadline fails and its thread is replaced: the drawings after it still settle", async () => {
    await withPool({ threads: 1, drawDeadlineMs: 1 }, async (pool) => {
      const large = await bannerPlan(`size=1200x300&scale=2&format=webp&${MANUAL}`);
      // A thread that keeps drawing past 1 ms is stopped; each next drawing gets a new thread (and the same fate).
      const results = await Promise.allSettled([pool.draw(large), pool.draw(large), pool.draw(large)]);
      expect(results.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(String((results[2] as PromiseRejectedResult).reason)).toContain("deadline");
      expect(pool.inFlight()).toEqual({ drawings: 0, memory: 0 });
    });
  });

  test("closed, it draws nothing more: waiting and new draws fail", async () => {
    const pool = new RenderPool({ threads: 1, cacheBytes: CACHE_SHARES });
    const job = await bannerPlan(`size=1200x300&scale=2&format=webp&${MANUAL}`);
    const waiting = [pool.draw(job), pool.draw(job)];
    await pool.close();
    expect((await Promise.allSettled(waiting)).map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(pool.draw(job)).rejects.toThrow("closed");
  });
});

/** GET over HTTP from a loopback source address of its own (a client of its own); resolves with the status. */
function get(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { localAddress }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    }).on("error", reject);
  });
}

describe("over HTTP", () => {
  test("/healthz answers while large banners are being drawn: the answering thread does not draw", async () => {
    const server = await startTestServer({ PENNANT_RENDER_THREADS: "1" });
    const order: string[] = [];
    const large = [1, 2, 3].map((i) =>
      get(`${server.url}/api/banner?size=1200x300&scale=2&format=webp&server_name=Big${i}`, `127.0.0.${10 + i}`).then((status) => order.push(`banner ${status}`)),
    );
    // Sent after the banners (each takes tens of ms to draw and encode): answered first all the same.
    await Bun.sleep(5);
    const health = get(`${server.url}/healthz`, "127.0.0.20").then((status) => order.push(`healthz ${status}`));
    await Promise.all([...large, health]);
    expect(order[0]).toBe("healthz 200");
    expect(order.slice(1)).toEqual(["banner 200", "banner 200", "banner 200"]);
  });
});
