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
import { BACKGROUND_PRESETS } from "../../src/banner/backgrounds.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { PALETTES, THEMES } from "../../src/banner/theme.ts";
import { BANNER_PARAMETERS } from "../../src/http/banner-parameters.ts";
import { TEMPLATE_LIST } from "../../src/http/template-list.ts";
import { launchChromium } from "../support/browser.ts";
import { SKIP_BROWSER_TESTS } from "../support/debian.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startMarketPeers, type MarketPeers } from "../support/market-peers.ts";
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
let peers: MarketPeers;
const serverUuid = newUuid();
const pluginUuid = newUuid();

beforeAll(async () => {
  if (SKIP_BROWSER_TESTS) return;
  // The preview requests images as the owner types; the limit has tests of its own.
  // The marketplaces' stand-ins, for the resource template's previews.
  peers = startMarketPeers();
  server = await startTestServer({ ...peers.env, PENNANT_RATE_LIMIT: "100000/60" });
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
  await peers?.close();
});

interface Opened {
  page: Page;
  /** Script errors and console errors (a CSP violation is one). */
  problems: string[];
}

/** The page's own data block of banner choices, as JSON. */
type BannerChoices = { templates: typeof TEMPLATE_LIST } & Record<string, unknown>;

/** The designer page; `editChoices` changes only the page's own data (its banner choices), never what the server answers. */
async function openDesigner(options: BrowserContextOptions, editChoices?: (choices: BannerChoices) => BannerChoices): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  if (editChoices) {
    await page.route(`${server.url}/`, async (route) => {
      const response = await route.fetch();
      const block = /(<script type="application\/json" id="banner-choices">)(.*?)(<\/script>)/s;
      const body = (await response.text()).replace(block, (_, open, json, close) => open + JSON.stringify(editChoices(JSON.parse(json))) + close);
      await route.fulfill({ response, body });
    });
  }
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

/** A field of the tab shown (both tabs have a Scale). */
const field = (page: Page, label: string) => page.getByRole("tabpanel").getByLabel(label, { exact: true });

/** The banner URL the page offers now (its URL snippet follows every change at once). */
async function offered(page: Page): Promise<URLSearchParams> {
  return new URL(await page.locator("#banner-url").inputValue()).searchParams;
}

const hexOf = ({ r, g, b }: { r: number; g: number; b: number }) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/**
 * Whether this server draws the background presets (its parser takes
 * background=NAME). Until it does, a preset's thumbnail and
 * preview are refusals (400): the picker's URLs are checked, not their images.
 */
const SERVER_DRAWS_PRESETS = (() => {
  try {
    BANNER_PARAMETERS.background.type.read("stone", "background");
    return true;
  } catch {
    return false;
  }
})();
/** The problems seen, less those refusals (each 400 is also seen with its URL, so no other refusal goes unseen). */
const beyondPresets = (problems: string[]) =>
  SERVER_DRAWS_PRESETS ? problems : problems.filter((problem) => !/^400 .*[?&]background=[a-z]|^Failed to load resource: .* 400/.test(problem));

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
    // Typed data has an address too: the join address the banner shows.
    await field(page, "Address").fill("play.skyblock.example");
    await field(page, "MOTD line 1").fill("§aWelcome §lhome");
    // No § key on most keyboards: the button puts one at the caret.
    await field(page, "MOTD line 2").click();
    await page.getByRole("button", { name: "Insert §" }).click();
    await page.keyboard.type("6Gold rush");
    await field(page, "Players online").fill("12");
    await field(page, "Player slots").fill("100");
    const typed = {
      template_key: "classic",
      size: "728x90",
      theme: "light",
      server_name: "Skyblock & Friends (EU)",
      ip_address: "play.skyblock.example",
      motd_line_1: "§aWelcome §lhome",
      motd_line_2: "§6Gold rush",
      online_players: "12",
      max_players: "100",
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

    // A Hytale server's banner: the game goes in (its icon and default port are its own); Java, what leaving it out means, stays out.
    const games = await field(page, "Game").locator("option").evaluateAll((options) => options.map((option: any) => [option.value, option.textContent]));
    expect(games).toEqual([["java", "Minecraft Java"], ["bedrock", "Minecraft Bedrock"], ["hytale", "Hytale"]]);
    await field(page, "Game").selectOption("hytale");
    const hytale = await preview(page, "banner-preview", { params: { ...typed, edition: "hytale" } });
    await expectServed(hytale.src, "image/png");
    const bytes = async (src: string) => new Uint8Array(await (await fetch(src)).arrayBuffer());
    expect(await bytes(hytale.src)).not.toEqual(await bytes(banner.src));
    await field(page, "Game").selectOption("java");
    expect((await preview(page, "banner-preview", { params: { ...typed, edition: null } })).src).toBe(banner.src);

    // Hi-DPI WebP: twice the pixels, shown at the banner's size.
    await field(page, "Format").selectOption("webp");
    await field(page, "Scale").selectOption("2");
    const sharp = await preview(page, "banner-preview", { params: { ...typed, format: "webp", scale: "2" } });
    expect([sharp.width, sharp.height]).toEqual([1456, 180]);
    expect(await page.locator("#banner-preview").getAttribute("width")).toBe("728");
    await expectServed(sharp.src, "image/webp");

    // An animation keeps the WebP; on PNG it asks for GIF or WebP; chosen on PNG, it makes the PNG a GIF.
    await field(page, "Animation").selectOption("motd");
    const animated = await preview(page, "banner-preview", { params: { ...typed, format: "webp", scale: "2", animate: "motd" } });
    await expectServed(animated.src, "image/webp");
    await field(page, "Format").selectOption("png");
    await page.getByText("An animation is a GIF or a WebP").waitFor();
    await field(page, "Animation").selectOption("");
    await field(page, "Animation").selectOption("stats");
    const gif = await preview(page, "banner-preview", { params: { ...typed, format: "gif", scale: "2", animate: "stats" } });
    await expectServed(gif.src, "image/gif");
    await field(page, "Animation").selectOption("");
    await field(page, "Format").selectOption("webp");

    // A live lookup: the address and edition go in; the typed MOTD and player counts stay out (they would cover the live ones).
    await field(page, "Data").selectOption("query");
    await expect(field(page, "Players online").isVisible()).resolves.toBe(false);
    await expect(field(page, "MOTD line 1").isVisible()).resolves.toBe(false);
    await page.getByText("The MOTD, player counts and status are the server's own, live").waitFor();
    // The address typed for the manual banner is the one looked up; without one there is nothing to look up.
    expect((await offered(page)).get("ip_address")).toBe("play.skyblock.example");
    await field(page, "Address").fill("");
    await page.getByText("Type the server's address to see its banner.").waitFor();
    await expect(page.locator("#banner-url").inputValue()).resolves.toBe("");
    await field(page, "Address").fill("127.0.0.1");
    await field(page, "Game").selectOption("bedrock");
    const lookup = await preview(page, "banner-preview", {
      params: { data_mode: "query", ip_address: "127.0.0.1", edition: "bedrock", online_players: null, server_uuid: null, motd_line_1: null, motd_line_2: null },
    });
    await expectServed(lookup.src, "image/webp");

    // The record the server's plugin pushed: its MOTD shows, not the lines typed in manual mode; the typed name still names it.
    await field(page, "Data").selectOption("plugin");
    await field(page, "Server UUID").fill(serverUuid);
    await expect(field(page, "Server name").getAttribute("placeholder")).resolves.toBe("the pushed name, unless typed here");
    const pushed = await preview(page, "banner-preview", {
      params: { data_mode: "plugin", server_uuid: serverUuid, ip_address: null, edition: null, motd_line_1: null, motd_line_2: null, server_name: typed.server_name },
    });
    await expectServed(pushed.src, "image/webp");

    // A network's servers, summed: its slug goes in, nothing of the other modes.
    await field(page, "Data").selectOption("network");
    await page.getByText("Type the network's slug").waitFor();
    await field(page, "Network slug").fill("blocky");
    await expect(field(page, "Server name").getAttribute("placeholder")).resolves.toBe("the network's name, unless typed here");
    const summed = await preview(page, "banner-preview", {
      params: { data_mode: "network", network: "blocky", server_uuid: null, ip_address: null, edition: null, motd_line_1: null, server_name: typed.server_name },
    });
    await expectServed(summed.src, "image/webp");

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
    await expect(page.getByText("A 2× badge is shown at half its pixels").isVisible()).resolves.toBe(false);

    // A Hi-DPI badge: twice the pixels, shown (and embedded by the HTML) at the style's height.
    await field(page, "Scale").selectOption("2");
    const sharpBadge = await preview(page, "badge-preview", { params: { style: "for-the-badge", scale: "2" } });
    expect(sharpBadge.height).toBe(56);
    await expectServed(sharpBadge.src, "image/png");
    const shownBadge = await page.locator("#badge-preview").evaluate((image: any) => [image.getAttribute("width"), image.getAttribute("height")]);
    expect(shownBadge).toEqual([String(sharpBadge.width / 2), "28"]);
    expect(await copied(page, "HTML")).toBe(`<img src="${sharpBadge.src.replaceAll("&", "&amp;")}" height="28" alt="ticks">`);
    await page.getByText("A 2× badge is shown at half its pixels").waitFor();

    // A Range only for the metrics read over the server's history; the default (7 days) left out of the URL.
    await expect(field(page, "Range").isVisible()).resolves.toBe(false);
    await field(page, "Metric").selectOption("uptime");
    await expect(field(page, "Range").isVisible()).resolves.toBe(true);
    await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/uptime.png`, params: { range: null } });
    await field(page, "Range").selectOption("30d");
    const ranged = await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/uptime.png`, params: { range: "30d", style: "for-the-badge" } });
    await expectServed(ranged.src, "image/png");
    expect(await copied(page, "URL")).toBe(ranged.src);
    await field(page, "Metric").selectOption("players");
    await expect(field(page, "Range").isVisible()).resolves.toBe(false);
    await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/players.png`, params: { range: null } });

    // SVG: sharp at any size, so no Scale (a 2x chosen before is left out); shown at the style's own size.
    await field(page, "Format").selectOption("svg");
    await expect(field(page, "Scale").isVisible()).resolves.toBe(false);
    const vector = await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/players.svg`, params: { scale: null, style: "for-the-badge" } });
    expect(vector.height).toBe(28);
    await expectServed(vector.src, "image/svg+xml");
    expect(await copied(page, "HTML")).toBe(`<img src="${vector.src.replaceAll("&", "&amp;")}" alt="ticks">`);
    await expect(page.getByText("A 2× badge is shown at half its pixels").isVisible()).resolves.toBe(false);
    await field(page, "Format").selectOption("png");
    await preview(page, "badge-preview", { pathname: `/shields/servers/${serverUuid}/players.png`, params: { scale: "2" } });

    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the look: each theme's own colours stand in empty fields, a chosen theme outlives a template change, accent only where read, parts left out", async () => {
    // The page's own data says one template reads no accent (what the server lists where a template ignores it).
    const withoutAccent = "minimal-status";
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } }, (choices) => ({
      ...choices,
      templates: {
        ...choices.templates,
        templates: choices.templates.templates.map((t) => (t.key === withoutAccent ? { ...t, parameters: t.parameters.filter((name) => name !== "accent") } : t)),
      },
    }));
    const accented = TEMPLATE_LIST.templates.find((t) => t.kind === "server" && t.key !== withoutAccent && t.parameters.includes("accent"))!;

    // Untouched, the theme is each template's own.
    for (const t of TEMPLATE_LIST.templates) {
      await field(page, "Template").selectOption(t.key);
      expect([t.key, await field(page, "Theme").inputValue()]).toEqual([t.key, t.default_theme]);
    }
    // Each theme's own accent and background are what an empty field means.
    await field(page, "Template").selectOption(accented.key);
    await page.getByText("Background: the theme's").click();
    await page.getByRole("radio", { name: "A colour" }).check();
    for (const theme of THEMES) {
      await field(page, "Theme").selectOption(theme);
      const shown = [await field(page, "Accent").getAttribute("placeholder"), await field(page, "Background colour").getAttribute("placeholder")];
      expect([theme, ...shown]).toEqual([theme, hexOf(PALETTES[theme].accent), hexOf(PALETTES[theme].background[0])]);
      await expect(page.getByLabel("Pick the accent colour").inputValue()).resolves.toBe(hexOf(PALETTES[theme].accent));
    }
    await page.getByRole("radio", { name: "The theme's" }).check();
    await expect(field(page, "Background colour").isVisible()).resolves.toBe(false);

    // A theme chosen stays chosen, whatever the next template's own.
    for (const t of TEMPLATE_LIST.templates) {
      const other = THEMES.find((theme) => theme !== t.default_theme)!;
      await field(page, "Theme").selectOption(other);
      await field(page, "Template").selectOption(t.key);
      expect([t.key, await field(page, "Theme").inputValue()]).toEqual([t.key, other]);
    }

    // Accent: offered and sent where the template reads it, hidden and left out where not (the typed value kept for later).
    await field(page, "Template").selectOption(accented.key);
    await field(page, "Accent").fill("#ff8800");
    await expect(page.getByLabel("Pick the accent colour").inputValue()).resolves.toBe("#ff8800");
    expect((await offered(page)).get("accent")).toBe("ff8800");
    await field(page, "Template").selectOption(withoutAccent);
    await expect(field(page, "Accent").isVisible()).resolves.toBe(false);
    expect((await offered(page)).get("accent")).toBeNull();
    await field(page, "Template").selectOption(accented.key);
    expect((await offered(page)).get("accent")).toBe("ff8800");

    // Parts left out: hide=, in the documented order; a plugin template offers only the parts it draws.
    await page.getByRole("checkbox", { name: "Leave out: Version" }).check();
    await page.getByRole("checkbox", { name: "Leave out: Address" }).check();
    const preview1 = await preview(page, "banner-preview", { params: { template_key: accented.key, hide: "address,version", accent: "ff8800" } });
    await expectServed(preview1.src, "image/png");
    const plugin = TEMPLATE_LIST.templates.find((t) => t.kind === "plugin")!;
    await field(page, "Template").selectOption(plugin.key);
    await field(page, "Plugin UUID").fill(pluginUuid);
    const offeredParts = await page.locator("#hide-choices input:visible").evaluateAll((boxes) => boxes.map((box: any) => box.value));
    expect(offeredParts).toEqual(["version", "icon", "status"]);
    expect((await offered(page)).get("hide")).toBe("version");

    expect(beyondPresets(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("a marketplace banner: the site, then a project or an author's totals, previewed as the server draws them", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } });
    await field(page, "Template").selectOption("resource");
    const sites = await field(page, "Site").locator("option").evaluateAll((options) => options.map((option: any) => [option.value, option.textContent]));
    expect(sites.map(([value]) => value)).toEqual(["modrinth", "spigot", "hangar", "curseforge", "polymart"]);
    expect(sites[0]![1]).toBe("Modrinth");
    // Nothing typed yet: a hint, not a refused image.
    await expect(page.locator("#banner-status").textContent()).resolves.toContain("Type the project");
    await field(page, "Project").fill("sodium");
    const project = await preview(page, "banner-preview", { params: { template_key: "resource", site: "modrinth", project: "sodium", author: null } });
    // Drawn, not an "unavailable" image (which is never kept).
    const served = await fetch(project.src, { headers: { Accept: "image/*" } });
    expect([served.status, served.headers.get("cache-control")]).toEqual([200, "public, max-age=60"]);
    // The parts it can leave out: the version and the icon.
    const offeredParts = await page.locator("#hide-choices input:visible").evaluateAll((boxes) => boxes.map((box: any) => box.value));
    expect(offeredParts).toEqual(["version", "icon"]);
    // An author instead: the field is named so, and the URL says author=, not project=.
    await field(page, "Banner of").selectOption("author");
    await field(page, "Author").fill("jellysquid3");
    const author = await preview(page, "banner-preview", { params: { template_key: "resource", site: "modrinth", author: "jellysquid3", project: null } });
    const authorServed = await fetch(author.src, { headers: { Accept: "image/*" } });
    expect([authorServed.status, authorServed.headers.get("cache-control")]).toEqual([200, "public, max-age=60"]);
    await field(page, "Site").selectOption("spigot");
    expect((await offered(page)).get("site")).toBe("spigot");
    expect(beyondPresets(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the chart range: offered for the sparkline drawn from pushed history (a plugin's server, a network), sent unless 24 hours, hidden elsewhere", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } });
    await field(page, "Template").selectOption("sparkline");
    // Typed-in data has no history to chart over a range.
    await expect(field(page, "Chart range").isVisible()).resolves.toBe(false);
    await field(page, "Data").selectOption("plugin");
    await field(page, "Server UUID").fill(serverUuid);
    await expect(field(page, "Chart range").isVisible()).resolves.toBe(true);
    const ranges = await field(page, "Chart range").locator("option").evaluateAll((options) => options.map((option: any) => option.value));
    expect(ranges).toEqual(["24h", "7d", "30d"]);
    expect((await offered(page)).get("range")).toBeNull();
    await field(page, "Chart range").selectOption("7d");
    const week = await preview(page, "banner-preview", { params: { template_key: "sparkline", data_mode: "plugin", server_uuid: serverUuid, range: "7d" } });
    await expectServed(week.src, "image/png");
    await field(page, "Data").selectOption("network");
    await field(page, "Network slug").fill("blocky");
    expect((await offered(page)).get("range")).toBe("7d");
    // A template that draws no chart reads no range: hidden, and left out of the URL.
    await field(page, "Template").selectOption("card");
    await expect(field(page, "Chart range").isVisible()).resolves.toBe(false);
    expect((await offered(page)).get("range")).toBeNull();
    expect(beyondPresets(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the background picker: the theme's, a colour of one's own, or a preset shown as this server draws it", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } });
    const thumbnails = page.locator("#background-tiles img");
    // Nothing is fetched for the picker until it is opened.
    await expect(thumbnails.evaluateAll((images) => images.filter((image: any) => image.hasAttribute("src")).length)).resolves.toBe(0);
    await page.getByText("Background: the theme's").click();
    // The picker fills its thumbnails on the details' "toggle" event, a task queued after the click.
    await page.waitForFunction(() => [...document.querySelectorAll("#background-tiles img")].every((image) => image.getAttribute("src")));
    const sources = await thumbnails.evaluateAll((images) => images.map((image: any) => image.src));
    expect(sources.map((src) => new URL(src).searchParams.get("background"))).toEqual(BACKGROUND_PRESETS.map((preset) => preset.name));
    expect(sources.every((src) => src.startsWith(`${server.url}/api/banner?`))).toBe(true);

    await page.getByRole("radio", { name: "Stone" }).check();
    await page.getByText("Background: Stone").waitFor();
    expect((await offered(page)).get("background")).toBe("stone");
    await page.getByRole("radio", { name: "A colour" }).check();
    await field(page, "Background colour").fill("#123456");
    await expect(page.getByLabel("Pick the background colour").inputValue()).resolves.toBe("#123456");
    const own = await preview(page, "banner-preview", { params: { background: "123456" } });
    await expectServed(own.src, "image/png");
    await page.getByRole("radio", { name: "The theme's" }).check();
    await preview(page, "banner-preview", { params: { background: null } });

    if (SERVER_DRAWS_PRESETS) {
      await page.getByRole("radio", { name: "Night sky" }).check();
      const drawn = await preview(page, "banner-preview", { params: { background: "night" } });
      await expectServed(drawn.src, "image/png");
      await page.waitForFunction(() => [...document.querySelectorAll("#background-tiles img")].every((image: any) => image.complete && image.naturalWidth === 468));
    }
    expect(beyondPresets(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("the banner form offers the parameter table's choices, its defaults chosen, and its length limits", async () => {
    const { page, problems } = await openDesigner({ viewport: { width: 1280, height: 860 } });
    const selects: Array<[label: string, name: keyof typeof BANNER_PARAMETERS]> = [
      ["Template", "template_key"], ["Size", "size"], ["Theme", "theme"], ["Format", "format"], ["Scale", "scale"], ["Data", "data_mode"], ["Game", "edition"],
    ];
    const defaultTemplate = templates.get(BANNER_PARAMETERS.template_key.default)!;
    for (const [label, name] of selects) {
      const { enum: choices } = BANNER_PARAMETERS[name].type.schema;
      const preset: string | undefined = name === "theme" ? defaultTemplate.defaultTheme : (BANNER_PARAMETERS[name] as { default?: string }).default;
      const select = field(page, label);
      const offered = await select.locator("option").evaluateAll((options) => options.map((option: any) => option.value));
      expect([label, offered, await select.inputValue()]).toEqual([label, [...choices!], preset ?? choices![0]!]);
    }
    // No animation unless one is chosen: a still.
    const animation = field(page, "Animation");
    const animations = await animation.locator("option").evaluateAll((options) => options.map((option: any) => option.value));
    expect([animations, await animation.inputValue()]).toEqual([["", ...BANNER_PARAMETERS.animate.type.schema.enum!], ""]);
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
