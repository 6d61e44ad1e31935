// The public pages in a real browser (Debian's Chromium, test/support/browser.ts)
// against a real server: a server pushed for a simulated week shows its chart
// with a point of the line wherever the history has players, the page is
// whole without script, its copy buttons copy, a phone reads it without
// scrolling sideways, its policy refuses nothing it needs, and the widget
// loads inside an <iframe> on another origin (where the page itself may not).
//
// PENNANT_UPDATE_SCREENSHOTS=1 also writes docs/page.png, docs/page-phone.png
// and docs/page-dark.png (npm run screenshots:update); a plain run writes nothing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { SKIP_BROWSER_TESTS } from "../support/debian.ts";
import { track } from "../support/cleanup.ts";
import { pushFields, pushWeek, sweepAll, WEEK_START } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid } from "../support/signing.ts";

// What the callbacks given to page.evaluate use in the page: the project is typed
// for Bun, without the DOM library (which would change Bun's own types).
declare const document: any;
declare const window: any;
declare const navigator: any;
declare function getComputedStyle(element: unknown): { backgroundColor: string; display: string };

const UPDATE_SCREENSHOTS = process.env.PENNANT_UPDATE_SCREENSHOTS === "1";
const DOCS = join(import.meta.dir, "..", "..", "docs");
const DAY = 86_400_000;
/** The end of the simulated week, and a little more: the page is read then. */
const NOW = WEEK_START + 7 * DAY + 2 * 60_000;
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let server: TestServer;
const uuid = newUuid();

beforeAll(async () => {
  if (SKIP_BROWSER_TESTS) return;
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" }, { clockStart: NOW });
  // A week of updates every 10 minutes, 10 players (50 once), 3 hours offline on the third day (support/history.ts).
  await pushWeek(server.store, uuid);
  await pushFields(server.store, uuid, NOW - 60_000, {
    name: "Skyblock Central",
    status: "online",
    playersOnline: 12,
    playersMax: 100,
    motd: "§6§lSkyblock Central §7— §aSeason 4\n§bNew islands every week · §cPvP arena",
    version: "Paper 1.21.4",
    extra: { address: "play.skyblock.example" },
  });
  await sweepAll(server.store, NOW);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  page: Page;
  /** Script errors and console errors (a policy violation is one), and failed requests. */
  problems: string[];
}

async function open(path: string, options: BrowserContextOptions): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
  await page.goto(`${server.url}${path}`);
  return { page, problems };
}

async function screenshot(page: Page, file: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(DOCS, file) });
}

/** The vertices of the chart's mean line(s) in the SVG `id`, per line, in its own coordinates. */
async function meanLines(page: Page, id: string): Promise<Array<Array<[number, number]>>> {
  return page.evaluate((id) => [...document.querySelectorAll(`#${id} path.pc-mean`)].map((path: any) =>
    [...path.getAttribute("d").matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((match: string[]) => [Number(match[1]), Number(match[2])])), id);
}

describe.skipIf(SKIP_BROWSER_TESTS)("public pages in Chromium", () => {
  test("a week of history: the chart has a point of its line where the history has players, the offline hours shaded, times in order", async () => {
    const { page, problems } = await open(`/s/${uuid}?range=7d`, { viewport: { width: 1280, height: 1000 }, colorScheme: "light" });
    await page.locator("#chart-wide").waitFor();
    expect(await page.locator("h1").textContent()).toBe("Skyblock Central");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(244, 246, 248)");

    const history = await (await fetch(`${server.url}/api/servers/${uuid}/history?range=7d`)).json() as {
      step_seconds: number; points: Array<{ t: string; avg: number | null }>;
    };
    // Each step's point at the middle of its part of the chart's week (the current step is cut at now).
    const step = history.step_seconds * 1000;
    const middle = (at: number) => (Math.max(at, NOW - 7 * DAY) + Math.min(at + step, NOW)) / 2;
    const withPlayers = history.points.filter((point) => point.avg !== null).map((point) => middle(Date.parse(point.t)));
    const lines = await meanLines(page, "chart-wide");
    // Two lines: the three offline hours break it.
    expect(lines.length).toBe(2);
    const vertices = lines.flat();
    expect(vertices.length).toBe(withPlayers.length);
    // Each vertex sits at its step's time on the axis the grid spans: the week from its left end to its right.
    const [left, right] = await page.evaluate(() => {
      const line = [...document.querySelectorAll("#chart-wide line.pc-grid")].find((grid: any) => grid.getAttribute("y1") === grid.getAttribute("y2"));
      return [Number(line.getAttribute("x1")), Number(line.getAttribute("x2"))];
    });
    const xAt = (at: number) => left! + ((at - (NOW - 7 * DAY)) / (7 * DAY)) * (right! - left!);
    const off = vertices.map(([x], i) => Math.abs(x - xAt(withPlayers[i]!)));
    expect(Math.max(...off)).toBeLessThan(0.2);
    // The shaded stretch lies in the break.
    const shaded = await page.evaluate(() => [...document.querySelectorAll("#chart-wide rect.pc-off")].map((rect: any) => [Number(rect.getAttribute("x")), Number(rect.getAttribute("width"))]));
    expect(shaded.length).toBe(1);
    expect(shaded[0]![0]).toBeGreaterThan(lines[0]!.at(-1)![0]);
    const [x, width] = shaded[0]!;
    expect(x! + width!).toBeLessThan(lines[1]![0]![0]);
    // The 50 players of day 4 are the band's top: the grid reaches 60.
    expect(await page.locator("#chart-wide text").allTextContents()).toEqual(expect.arrayContaining(["0", "20", "40", "60", "UTC", "Thu 8"]));

    // A range link switches the chart.
    await page.getByRole("link", { name: "30 days" }).click();
    await page.waitForURL(/range=30d/);
    expect(await page.locator("#chart-heading").textContent()).toBe("Players, 30 days");
    await page.getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(/range=7d/);
    if (UPDATE_SCREENSHOTS) await screenshot(page, "page.png");
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("without script the content is all there; with it, the copy buttons copy and the snippets name this address", async () => {
    const bare = await open(`/s/${uuid}?range=7d`, { viewport: { width: 1280, height: 1000 }, javaScriptEnabled: false });
    const text = await bare.page.locator("main").innerText();
    for (const shown of ["Skyblock Central", "Online", "Skyblock Central — Season 4", "12 / 100", "Paper 1.21.4", "play.skyblock.example", "Uptime and peak", "Embed and share"]) {
      expect([shown, text.includes(shown)]).toEqual([shown, true]);
    }
    expect((await meanLines(bare.page, "chart-wide")).flat().length).toBeGreaterThan(100);
    expect(await bare.page.locator("button.copy").first().isVisible()).toBe(false);
    expect(await bare.page.locator("#link-md").textContent()).toBe(`[Skyblock Central](/s/${uuid})`);
    expect(bare.problems).toEqual([]);
    await bare.page.context().close();

    const { page, problems } = await open(`/s/${uuid}`, { viewport: { width: 1280, height: 1000 } });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const copy = page.getByRole("button", { name: "Copy the join address" });
    await copy.waitFor({ state: "visible" });
    await copy.click();
    await page.getByRole("button", { name: "Copy the join address" }).getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("play.skyblock.example");
    // Without PENNANT_PUBLIC_URL the page names its links root-relative; the script writes them under the address it was read at.
    expect(await page.locator("#link-md").textContent()).toBe(`[Skyblock Central](${server.url}/s/${uuid})`);
    await page.getByRole("button", { name: "Copy Link to this page, BBCode" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`[url=${server.url}/s/${uuid}]Skyblock Central[/url]`);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("a phone reads it without scrolling sideways, with the chart laid out for it; dark where the reader prefers", async () => {
    const { page, problems } = await open(`/s/${uuid}?range=7d`, { viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: "light" });
    await page.locator("#chart-narrow").waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect([scrollWidth <= PHONE.width, innerWidth]).toEqual([true, PHONE.width]);
    expect(await page.locator("#chart-wide").isVisible()).toBe(false);
    expect(await page.locator("#chart-narrow").isVisible()).toBe(true);
    expect((await meanLines(page, "chart-narrow")).length).toBe(2);
    if (UPDATE_SCREENSHOTS) await screenshot(page, "page-phone.png");
    expect(problems).toEqual([]);
    await page.context().close();

    const dark = await open(`/s/${uuid}?range=7d`, { viewport: { width: 1280, height: 1000 }, colorScheme: "dark" });
    await dark.page.locator("#chart-wide").waitFor();
    expect(await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 17, 20)");
    if (UPDATE_SCREENSHOTS) await screenshot(dark.page, "page-dark.png");
    expect(dark.problems).toEqual([]);
    await dark.page.context().close();
  }, 60_000);

  test("the widget loads inside an <iframe> of another origin; the page itself does not", async () => {
    const embedder = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(
        `<!doctype html><title>Forum</title><iframe id="widget" src="${server.url}/s/${uuid}/widget" width="320" height="150"></iframe>` +
          `<iframe id="page" src="${server.url}/s/${uuid}" width="320" height="150"></iframe>`,
        { headers: { "Content-Type": "text/html" } },
      ),
    });
    track(() => embedder.stop(true));
    const context = await browser.newContext();
    const page = await context.newPage();
    // Another origin: "localhost" is not the server's 127.0.0.1, and the port differs.
    await page.goto(`http://localhost:${embedder.port}/`);
    const widget = page.frameLocator("#widget");
    await widget.locator(".widget-name").waitFor();
    expect(await widget.locator(".widget-name").textContent()).toBe("Skyblock Central");
    expect(await widget.locator(".widget-players").textContent()).toBe("12 / 100 players");
    // frame-ancestors 'none': the page's own frame stays empty of it.
    await page.waitForTimeout(500);
    const framed = page.frames().find((frame) => frame.url().endsWith(`/s/${uuid}`));
    expect(framed ? await framed.locator("h1").count() : 0).toBe(0);
    await context.close();
  }, 60_000);
});
