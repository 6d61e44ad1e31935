// The designer page in a real browser (Debian's Chromium, test/support/browser.ts)
// against a real server: fields are found by their labels and typed into, the
// preview must load the real image with the typed values, the copy buttons must
// put the right snippets on the clipboard, and a phone-sized screen must not
// scroll sideways.
//
// PENNANT_UPDATE_SCREENSHOTS=1 also writes docs/designer.png and
// docs/designer-phone.png (npm run screenshots:update); a plain run writes nothing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { templates } from "../../src/banner/templates/index.ts";
import { BANNER_PARAMETERS } from "../../src/http/banner-parameters.ts";
import { launchChromium, SKIP_BROWSER_TESTS } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

// What the callbacks given to page.evaluate use in the page: the project is typed
// for Bun, without the DOM library (which would change Bun's own types).
declare const document: any;
declare const window: any;
declare const navigator: any;
declare function getComputedStyle(element: unknown): { backgroundColor: string };

const UPDATE_SCREENSHOTS = process.env.PENNANT_UPDATE_SCREENSHOTS === "1";
const DOCS = join(import.meta.dir, "..", "..", "docs");

let browser: Browser;
let server: TestServer;
const serverUuid = newUuid();
const pluginUuid = newUuid();

beforeAll(async () => {
  if (SKIP_BROWSER_TESTS) return;
  // The preview requests images as the owner types; the limit has tests of its own.
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
  const update = { name: "Paper", status: "online", stats: { players: { online: 7, max: 50 }, tps: 19.9, motd: "§bPushed", version: "1.21.4" } };
  const token = server.token();
  const pushes = [
    { path: "/api/server/update", token, serverUuid, body: update },
    { path: `/api/plugins/${pluginUuid}/data`, token, tokenHeader: "X-Plugin-Token" as const, body: { plugin: { name: "EzShops", version: "3.2.1" } } },
  ];
  for (const call of pushes) expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  page: Page;
  /** Script errors and console errors (a CSP violation is one). */
  problems: string[];
}

async function openDesigner(options: BrowserContextOptions): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
  await page.goto(`${server.url}/`);
  await page.locator("#template option").first().waitFor({ state: "attached" });
  return { page, problems };
}

interface Expected {
  pathname?: string;
  /** Query parameters that must read so; null: must be absent. */
  params?: Record<string, string | null>;
}

interface Preview {
  src: string;
  width: number;
  height: number;
}

/** Waits until the preview image has loaded a URL with the expected path and parameters. */
async function preview(page: Page, id: string, expected: Expected): Promise<Preview> {
  const found = await page.waitForFunction(
    ({ id, expected }) => {
      const image = document.getElementById(id);
      if (!image.getAttribute("src") || !image.complete || image.naturalWidth === 0) return null;
      const url = new URL(image.src);
      if (expected.pathname !== undefined && url.pathname !== expected.pathname) return null;
      const params = Object.entries(expected.params ?? {});
      if (!params.every(([name, value]) => url.searchParams.get(name) === value)) return null;
      return { src: image.src, width: image.naturalWidth, height: image.naturalHeight };
    },
    { id, expected },
    { timeout: 15_000 },
  );
  return (await found.jsonValue()) as Preview;
}

/** The preview's URL really answers with an image (an error image would be drawn at the same size). */
async function expectServed(src: string, contentType: string): Promise<void> {
  const response = await fetch(src, { headers: { Accept: "image/*" } });
  expect([response.status, response.headers.get("content-type")]).toEqual([200, contentType]);
}

async function copied(page: Page, title: string): Promise<string> {
  await page.getByRole("button", { name: `Copy the ${title}`, exact: true }).click();
  await page.getByRole("status").getByText(`${title} copied.`).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function screenshot(page: Page, file: string): Promise<void> {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: join(DOCS, file) });
}

const PHONE = { width: 390, height: 844 };

/**
 * Against the phone's width, not innerWidth: a mobile browser zooms out to fit
 * a page wider than the screen, and innerWidth grows with it.
 */
async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect([scrollWidth <= PHONE.width, innerWidth]).toEqual([true, PHONE.width]);
}

describe.skipIf(SKIP_BROWSER_TESTS)("designer page in Chromium", () => {
  test("desktop: a banner typed in, previewed, and its four snippets copied; then a badge", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 }, colorScheme: "light" });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });

    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(245, 246, 248)"); // light

    // The defaults load first.
    const first = await preview(page, "banner-preview", { pathname: "/api/banner", params: { template_key: "minimal-status", size: "468x60" } });
    expect([first.width, first.height]).toEqual([468, 60]);

    await field(page, "Template").selectOption("classic");
    await field(page, "Size").selectOption("728x90");
    await field(page, "Theme").selectOption("light");
    await field(page, "Server name").fill("Skyblock & Friends (EU)");
    await field(page, "MOTD line 1").fill("§aWelcome §lhome");
    // No § key on most keyboards: the button puts one at the caret.
    await field(page, "MOTD line 2").click();
    await page.getByRole("button", { name: "Insert §" }).click();
    await page.keyboard.type("6Gold rush");
    await field(page, "Players online").fill("12");
    await field(page, "Player slots").fill("100");
    await field(page, "Accent").fill("#ff8800");
    await expect(page.getByLabel("Pick the accent colour").inputValue()).resolves.toBe("#ff8800");
    const typed = {
      template_key: "classic",
      size: "728x90",
      theme: "light",
      server_name: "Skyblock & Friends (EU)",
      motd_line_1: "§aWelcome §lhome",
      motd_line_2: "§6Gold rush",
      online_players: "12",
      max_players: "100",
      accent: "ff8800",
      data_mode: null,
    };
    const banner = await preview(page, "banner-preview", { pathname: "/api/banner", params: typed });
    expect([banner.width, banner.height]).toEqual([728, 90]);
    await expectServed(banner.src, "image/png");
    if (UPDATE_SCREENSHOTS) await screenshot(page, "designer.png");

    // Absolute URLs from the page's own origin, nothing that ends a Markdown link early.
    expect(banner.src.startsWith(`${server.url}/api/banner?`)).toBe(true);
    expect(banner.src).not.toMatch(/[\s()[\]]/);
    expect(await copied(page, "URL")).toBe(banner.src);
    expect(await copied(page, "HTML")).toBe(`<img src="${banner.src.replaceAll("&", "&amp;")}" width="728" height="90" alt="Skyblock &amp; Friends (EU)">`);
    expect(await copied(page, "Markdown")).toBe(`![Skyblock & Friends (EU)](${banner.src})`);
    expect(await copied(page, "BBCode")).toBe(`[img]${banner.src}[/img]`);
    expect(await page.locator("#banner-bbcode").inputValue()).toBe(`[img]${banner.src}[/img]`);

    // Hi-DPI WebP: twice the pixels, shown at the banner's size.
    await field(page, "Format").selectOption("webp");
    await field(page, "Scale").selectOption("2");
    const sharp = await preview(page, "banner-preview", { params: { ...typed, format: "webp", scale: "2" } });
    expect([sharp.width, sharp.height]).toEqual([1456, 180]);
    expect(await page.locator("#banner-preview").getAttribute("width")).toBe("728");
    await expectServed(sharp.src, "image/webp");

    // A live lookup: the address and edition go in, the typed player counts stay out.
    await field(page, "Data").selectOption("query");
    await expect(field(page, "Players online").isVisible()).resolves.toBe(false);
    await page.getByText("Type the server's address to see its banner.").waitFor();
    await expect(page.locator("#banner-url").inputValue()).resolves.toBe("");
    await field(page, "Address").fill("127.0.0.1");
    await field(page, "Edition").selectOption("bedrock");
    const lookup = await preview(page, "banner-preview", {
      params: { data_mode: "query", ip_address: "127.0.0.1", edition: "bedrock", online_players: null, server_uuid: null },
    });
    await expectServed(lookup.src, "image/webp");

    // The record the server's plugin pushed.
    await field(page, "Data").selectOption("plugin");
    await field(page, "Server UUID").fill(serverUuid);
    const pushed = await preview(page, "banner-preview", { params: { data_mode: "plugin", server_uuid: serverUuid, ip_address: null, edition: null } });
    await expectServed(pushed.src, "image/webp");

    // The badge tab, reached with the keyboard.
    await page.getByRole("tab", { name: "Banner" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Badge" }).getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.locator("#panel-banner").isHidden()).resolves.toBe(true);
    await field(page, "Badge of").selectOption("servers");
    await field(page, "UUID").fill("not-a-uuid");
    await page.getByText("That is not a UUID").waitFor();
    await field(page, "UUID").fill(serverUuid.toUpperCase());
    // The plugin badge's metric, "version", is a server metric too: it stays chosen.
    const badge = await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/version.png` });
    expect(badge.height).toBe(20);
    expect(badge.width).toBeGreaterThan(40);
    await expectServed(badge.src, "image/png");

    await field(page, "Metric").selectOption("tps");
    await field(page, "Style").selectOption("for-the-badge");
    await field(page, "Label").fill("ticks");
    await field(page, "Colour").fill("#ff69b4");
    const styled = await preview(page, "badge-preview", {
      pathname: `/shields/servers/${serverUuid}/tps.png`,
      params: { style: "for-the-badge", label: "ticks", color: "ff69b4" },
    });
    expect(styled.height).toBe(28);
    await expectServed(styled.src, "image/png");
    expect(await copied(page, "Markdown")).toBe(`![ticks](${styled.src})`);
    expect(await copied(page, "HTML")).toBe(`<img src="${styled.src.replaceAll("&", "&amp;")}" alt="ticks">`);

    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the banner form offers the parameter table's choices, its defaults chosen, and its length limits", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } });
    const selects: Array<[label: string, name: keyof typeof BANNER_PARAMETERS]> = [
      ["Template", "template_key"], ["Size", "size"], ["Theme", "theme"], ["Format", "format"], ["Scale", "scale"], ["Data", "data_mode"], ["Edition", "edition"],
    ];
    const defaultTemplate = templates.get(BANNER_PARAMETERS.template_key.default)!;
    for (const [label, name] of selects) {
      const { enum: choices } = BANNER_PARAMETERS[name].type.schema;
      const preset: string | undefined = name === "theme" ? defaultTemplate.defaultTheme : (BANNER_PARAMETERS[name] as { default?: string }).default;
      const select = field(page, label);
      const offered = await select.locator("option").evaluateAll((options) => options.map((option: any) => option.value));
      expect([label, offered, await select.inputValue()]).toEqual([label, [...choices!], preset ?? choices![0]!]);
    }
    const texts: Array<[label: string, name: keyof typeof BANNER_PARAMETERS]> = [
      ["Server name", "server_name"], ["Address", "ip_address"], ["MOTD line 1", "motd_line_1"], ["MOTD line 2", "motd_line_2"],
    ];
    for (const [label, name] of texts) {
      expect([label, await field(page, label).getAttribute("maxlength")]).toEqual([label, String(BANNER_PARAMETERS[name].type.schema.maxLength)]);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("phone (390x844, dark): nothing wider than the screen, on either tab", async () => {
    const { page, problems } = await openDesigner({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: "dark" });
    await field(page, "Template").selectOption("card");
    await field(page, "Size").selectOption("1200x300");
    await field(page, "Server name").fill("Skyblock Network");
    await field(page, "MOTD line 1").fill("§bSeason 4 §7is live — §ejoin now");
    await field(page, "Players online").fill("248");
    await field(page, "Player slots").fill("500");
    const banner = await preview(page, "banner-preview", { params: { template_key: "card", size: "1200x300", server_name: "Skyblock Network" } });
    expect([banner.width, banner.height]).toEqual([1200, 300]);
    const shown = await page.locator("#banner-preview").boundingBox();
    expect(shown!.x + shown!.width).toBeLessThanOrEqual(PHONE.width);
    await noSidewaysScroll(page);
    if (UPDATE_SCREENSHOTS) await screenshot(page, "designer-phone.png");

    // prefers-color-scheme: the dark page is dark.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(21, 23, 27)");

    await page.getByRole("tab", { name: "Badge" }).tap();
    await field(page, "UUID").fill(pluginUuid);
    const badge = await preview(page, "badge-preview", { pathname: `/shields/plugins/${pluginUuid}/version.png` });
    expect(badge.height).toBe(20);
    await noSidewaysScroll(page);

    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
