// The owner's console in a real browser (Debian's Chromium, test/support/browser.ts)
// against a real server, the owner's story end to end: enter a token, see the
// server its plugin pushed (and not another token's), add a webhook to a
// local receiver, send a test delivery and see its status, remove it; make a
// network of two servers and see its total; as admin create a token, use
// it, revoke it and see it refused. Throughout, the tokens never reach
// localStorage, a cookie, an address or the server's log, hostile names and
// MOTDs stay text, and the page's policy refuses nothing it needs. Opened
// over plain http under another name than localhost, the page says it needs
// HTTPS and asks for no token.
//
// PENNANT_UPDATE_SCREENSHOTS=1 also writes docs/console.png and
// docs/console-phone.png (npm run screenshots:update); a plain run writes nothing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { SKIP_BROWSER_TESTS } from "../support/debian.ts";
import { track } from "../support/cleanup.ts";
import { sweepAll } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

// What the callbacks given to page.evaluate use in the page: the project is typed
// for Bun, without the DOM library (which would change Bun's own types).
declare const document: any;
declare const window: any;
declare const navigator: any;
declare const localStorage: any;

const UPDATE_SCREENSHOTS = process.env.PENNANT_UPDATE_SCREENSHOTS === "1";
const DOCS = join(import.meta.dir, "..", "..", "docs");
const ADMIN_TOKEN = "console-admin-token-0123456789";
const HOUR = 3_600_000;
/** The browser signs with its own clock: the server's is the real one too, a minute past the last whole one. */
const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 1000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Markup and script where only text belongs: a page that runs or builds it sets window.__pwned. */
const HOSTILE_NAME = `<img src=x onerror="window.__pwned='name'">Evil & Co`;
const HOSTILE_MOTD = `<script>window.__pwned='motd'</script><b>bold</b>`;
const HOSTILE_PLUGIN = `<svg onload="window.__pwned='plugin'">Shop</svg>`;

let browser: Browser;
let server: TestServer;
/** Deliveries the local receiver got: their headers and body. */
const received: Array<{ headers: Record<string, string>; body: string }> = [];
let receiverUrl = "";
const owner = { token: "", skyblock: newUuid(), lobby: newUuid(), hostile: newUuid(), plugin: newUuid() };
const other = { token: "", server: newUuid() };

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

async function pushed(call: SignedCall): Promise<void> {
  const response = await send(call);
  expect([call.path, response.status]).toEqual([call.path, 200]);
}

beforeAll(async () => {
  if (SKIP_BROWSER_TESTS) return;
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      return new Response(null, { status: 204 });
    },
  });
  track(() => receiver.stop(true));
  receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
  server = await startTestServer(
    { PENNANT_ADMIN_TOKEN: ADMIN_TOKEN, PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_RATE_LIMIT: "100000/60", PENNANT_LOG_LEVEL: "debug" },
    { clockStart: NOW - 24 * HOUR },
  );
  owner.token = server.token();
  other.token = server.token();
  // A day of Skyblock Central every 10 minutes (an evening's crowd), and the lobby's last hours.
  for (let at = NOW - 24 * HOUR; at <= NOW - 10 * 60_000; at += 10 * 60_000) {
    server.clock.now = at;
    const hour = new Date(at).getUTCHours();
    const online = 8 + Math.round(20 * Math.max(0, Math.sin(((hour - 12) / 12) * Math.PI)));
    await pushed({
      path: "/api/server/update", token: owner.token, serverUuid: owner.skyblock,
      body: { name: "Skyblock Central", status: "online", address: "play.skyblock.example", stats: { players: { online, max: 100 }, motd: "§6Skyblock Central §7— §aSeason 4", version: "Paper 1.21.4" } },
    });
    if (at >= NOW - 6 * HOUR) {
      await pushed({ path: "/api/server/update", token: owner.token, serverUuid: owner.lobby, body: { name: "Lobby", status: "online", stats: { players: { online: 3, max: 20 }, version: "1.21.4" } } });
    }
  }
  server.clock.now = NOW;
  server.clock.now = NOW - 3 * HOUR;
  await pushed({ path: "/api/server/update", token: owner.token, serverUuid: owner.hostile, body: { name: HOSTILE_NAME, status: "online", stats: { players: { online: 1, max: 5 }, motd: HOSTILE_MOTD } } });
  server.clock.now = NOW;
  await pushed({ path: `/api/plugins/${owner.plugin}/data`, token: owner.token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: HOSTILE_PLUGIN, version: "2.0.1" }, stats: { servers: 42 }, meta: { beta: { downloads: 1234 } } } });
  await pushed({ path: "/api/server/update", token: other.token, serverUuid: other.server, body: { name: "Other token's server", status: "online" } });
  // The owner's plugin pushes for the other token's server: refused, and counted (flushed within 5 s).
  expect((await send({ path: "/api/server/update", token: owner.token, serverUuid: other.server, body: { name: "Mine?" } })).status).toBe(403);
  await sweepAll(server.store, NOW);
  // From here on the server's clock is the browser's: real time.
  Object.defineProperty(server.clock, "now", { get: () => Date.now() });
  browser = await launchChromium();
  for (let waited = 0; (await server.store.refusals.list(0)).length === 0 && waited < 100; waited++) await Bun.sleep(100);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Script errors, console errors (a policy violation is one) and failed requests. */
  problems: string[];
  /** Every address the page requested. */
  urls: string[];
}

/** The console in a new context; `skewMs`: the browser's clock that far off the server's. */
async function open(viewport = DESKTOP, phone = false, skewMs = 0): Promise<Opened> {
  const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
  if (skewMs !== 0) await context.addInitScript(`{ const real = Date.now; Date.now = () => real() + ${skewMs}; }`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  const problems: string[] = [];
  const urls: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("request", (request) => urls.push(request.url()));
  await page.goto(`${server.url}/console`);
  return { context, page, problems, urls };
}

async function enterToken(page: Page, label: "API token" | "Admin token", token: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(token);
  await page.getByRole("button", { name: "Open" }).click();
}

/** What the browser keeps where a token must never be: localStorage, cookies, and what sessionStorage holds. */
async function stored(opened: Opened) {
  const inPage = await opened.page.evaluate(() => ({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...window.sessionStorage }) }));
  return { ...inPage, cookies: JSON.stringify(await opened.context.cookies()) };
}

function expectNowhere(opened: Opened, secrets: readonly string[], where: { local: string; cookies: string }): void {
  for (const secret of secrets) {
    expect(where.local.includes(secret)).toBe(false);
    expect(where.cookies.includes(secret)).toBe(false);
    expect(opened.urls.filter((url) => url.includes(secret))).toEqual([]);
  }
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function chartShown(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((selector) => {
    const img = document.querySelector(selector);
    return img && img.complete && img.naturalWidth > 0 && img.src.startsWith("blob:");
  }, selector);
}

async function screenshot(page: Page, file: string, fullPage = false): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(DOCS, file), fullPage });
}

describe.skipIf(SKIP_BROWSER_TESTS)("the owner's console in Chromium", () => {
  test("the owner's story: servers, a webhook tested and removed, a network and its total; tokens kept in the tab only, hostile text shown as text", async () => {
    const opened = await open();
    const { page, problems } = opened;
    await enterToken(page, "API token", owner.token);

    // Its servers, and not the other token's.
    const cards = page.locator("article.server-card");
    await expect(cards.count()).resolves.toBeGreaterThanOrEqual(0);
    await page.locator(`[data-uuid="${owner.skyblock}"]`).waitFor();
    expect(await cards.count()).toBe(3);
    const listed = await page.locator(".servers").innerText();
    expect(listed).toContain("Skyblock Central");
    expect(listed).toContain(owner.skyblock);
    expect(listed).not.toContain("Other token's server");
    expect(listed).not.toContain(other.server);
    const skyblock = page.locator(`[data-uuid="${owner.skyblock}"]`);
    expect(await skyblock.innerText()).toContain("Paper 1.21.4");
    await chartShown(page, `[data-uuid="${owner.skyblock}"] img.chart-img`);
    // The refused push for the other token's server says why, without naming that server's name.
    const refused = await page.getByText("Pushes refused for servers not listed").locator("..").innerText();
    expect(refused).toContain(other.server);
    expect(refused).toContain("not_owner");
    expect(refused).toContain("this token");

    // Hostile text is text: shown as typed, never run or built.
    const hostile = page.locator(`[data-uuid="${owner.hostile}"]`);
    expect(await hostile.locator("h3").innerText()).toBe(HOSTILE_NAME);
    expect(await hostile.locator(".motd-text").innerText()).toBe(HOSTILE_MOTD);
    expect(await page.evaluate(() => [window.__pwned, document.querySelectorAll("main img[src='x'], main script, main b, main svg[onload]").length])).toEqual([undefined, 0]);
    if (UPDATE_SCREENSHOTS) await screenshot(page, "console.png");

    // A server's detail: the chart and its ranges, uptime and peak, the page switch, snippets and the designer filled in.
    await skyblock.getByRole("button", { name: "Skyblock Central" }).click();
    await page.getByRole("heading", { name: "Skyblock Central", level: 2 }).waitFor();
    await chartShown(page, "main section img.chart-img");
    await page.getByRole("button", { name: "7 days" }).click();
    expect(await page.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");
    await chartShown(page, "main section img.chart-img");
    expect(await page.locator("table.record").innerText()).toMatch(/24 h\s+100\.0 %\s+28/);
    const designer = await page.getByRole("link", { name: "Open in the designer" }).getAttribute("href");
    expect(designer).toBe(`/#server_uuid=${owner.skyblock}`);
    expect(await page.locator(".snippets").innerText()).toContain(`${server.url}/api/banner?data_mode=plugin&server_uuid=${owner.skyblock}`);

    // The page switch: off, and the public page answers 404; on again.
    await page.getByLabel(/Page shown/).uncheck();
    await page.getByText("Page switched off.").waitFor();
    expect((await fetch(`${server.url}/s/${owner.skyblock}`)).status).toBe(404);
    await page.getByLabel(/Page shown/).check();
    await page.getByText("Page shown.").waitFor();
    expect((await fetch(`${server.url}/s/${owner.skyblock}`)).status).toBe(200);

    // A webhook to the local receiver: added, tested (its status shown, the delivery signed with its secret), removed.
    await page.getByLabel("Webhook URL").fill(receiverUrl);
    await page.getByRole("button", { name: "Add the webhook" }).click();
    const row = page.locator("tr[data-webhook]");
    await row.waitFor();
    const secret = await page.locator(".secret code").innerText();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await row.getByRole("button", { name: "Send a test delivery" }).click();
    await row.getByText("Answered 204").waitFor();
    if (UPDATE_SCREENSHOTS) await screenshot(page, "console-server.png", true);
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(JSON.parse(delivery.body)).toMatchObject({ event: "test", server_uuid: owner.skyblock, name: "Skyblock Central", status: "online" });
    const signature = createHmac("sha256", secret).update(`${delivery.headers["x-pennant-timestamp"]}.${delivery.body}`).digest("hex");
    expect(delivery.headers["x-pennant-signature"]).toBe(signature);
    await row.getByRole("button", { name: "Remove" }).click();
    await page.getByText("Webhook removed.").waitFor();
    await page.getByText("No webhook yet").waitFor();
    expect(await page.locator("tr[data-webhook]").count()).toBe(0);

    // A network of two servers, and its total.
    await page.getByRole("tab", { name: "Networks" }).click();
    await page.getByLabel("Slug", { exact: true }).fill("survival");
    await page.getByLabel("Name", { exact: true }).fill("Survival network");
    await page.getByRole("checkbox", { name: "Skyblock Central", exact: true }).check();
    await page.getByRole("checkbox", { name: "Lobby", exact: true }).check();
    await page.getByRole("button", { name: "Save the network" }).click();
    const network = page.locator('[data-network="survival"]');
    await network.waitFor();
    const skyblockNow = (await (await send({ method: "GET", path: `/api/token/servers/${owner.skyblock}`, token: owner.token })).json()) as { players: { online: number } };
    expect(await network.locator(".total").innerText()).toBe(`Players: ${skyblockNow.players.online + 3} / 120`);
    expect(await network.innerText()).toContain("2/2 online");

    // Plugins: the hostile name as text, the badges' values and snippets.
    await page.getByRole("tab", { name: "Plugins" }).click();
    const plugin = page.locator(`[data-plugin="${owner.plugin}"]`);
    await plugin.waitFor();
    expect(await plugin.locator("h3").innerText()).toBe(HOSTILE_PLUGIN);
    expect(await plugin.innerText()).toContain("beta-downloads: 1.2k");
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();

    // The designer opens filled in with the server.
    const designerPage = await opened.context.newPage();
    await designerPage.goto(`${server.url}${designer}`);
    await designerPage.locator("#banner-preview[src]").waitFor({ state: "attached" });
    expect(await designerPage.locator("#server-uuid").inputValue()).toBe(owner.skyblock);
    expect(await designerPage.locator("#data-mode").inputValue()).toBe("plugin");
    expect(await designerPage.locator("#badge-uuid").inputValue()).toBe(owner.skyblock);
    await designerPage.close();

    const kept = await stored(opened);
    expect(kept.session).toContain(owner.token);
    expectNowhere(opened, [owner.token], kept);
    expect(problems).toEqual([]);
    await opened.context.close();
  }, 90_000);

  test("as admin: create a token (shown once, copied), use it, revoke it and see it refused; the admin token is never sent", async () => {
    const admin = await open();
    await admin.page.getByRole("tab", { name: "Admin" }).click();
    await enterToken(admin.page, "Admin token", ADMIN_TOKEN);
    await admin.page.locator("table.tokens").waitFor();
    expect(await admin.page.locator("table.tokens tbody tr").count()).toBe(2);
    await admin.page.getByLabel("Label").fill("<i>new</i> server");
    await admin.page.getByLabel("Scope").selectOption("server");
    await admin.page.getByRole("button", { name: "Create a token" }).click();
    const made = admin.page.locator("#new-token");
    await made.waitFor();
    const token = await made.innerText();
    expect(token).toMatch(/^pn_[A-Za-z0-9_-]{43}$/);
    await admin.page.getByRole("button", { name: "Copy the new token" }).click();
    expect(await admin.page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect(await admin.page.locator("table.tokens").innerText()).toContain("<i>new</i> server");

    // The new token opens an empty console.
    const user = await open();
    await enterToken(user.page, "API token", token);
    await user.page.getByText("No server has pushed with this token yet").waitFor();

    // Revoked, it is refused: the console forgets it and asks again.
    const id = await admin.page.locator("table.tokens tbody tr").last().getAttribute("data-token");
    await admin.page.getByRole("button", { name: `Revoke token ${id}` }).click();
    await admin.page.getByText(`Token ${id} revoked.`).waitFor();
    expect(await admin.page.locator(`tr[data-token="${id}"]`).innerText()).toContain("revoked");
    await user.page.getByRole("button", { name: "Refresh" }).click();
    await user.page.getByText("That token was refused: unknown or revoked token.").waitFor();
    await user.page.getByLabel("API token", { exact: true }).waitFor();
    expect(await user.page.evaluate(() => window.sessionStorage.getItem("pennant.console.token"))).toBeNull();

    // A wrong admin token is refused and forgotten.
    const wrong = await open();
    await wrong.page.getByRole("tab", { name: "Admin" }).click();
    await enterToken(wrong.page, "Admin token", "not-the-admin-token-at-all");
    await wrong.page.getByText("That admin token is not PENNANT_ADMIN_TOKEN.").waitFor();

    for (const opened of [admin, user, wrong]) {
      expectNowhere(opened, [ADMIN_TOKEN, token, owner.token], await stored(opened));
      expect(opened.problems.filter((problem) => !problem.includes("401"))).toEqual([]);
      await opened.context.close();
    }
    // Nothing the server logged holds a token: the admin's is never sent, the others only in headers.
    const logged = JSON.stringify(server.logs());
    expect(logged).toContain("admin POST /api/admin/tokens 201");
    for (const secret of [ADMIN_TOKEN, token, owner.token, other.token]) expect(logged.includes(secret)).toBe(false);
  }, 90_000);

  test("a phone reads the list and a server without scrolling sideways; a phone's clock an hour off is set right by the server's", async () => {
    const opened = await open(PHONE, true, HOUR);
    await enterToken(opened.page, "API token", owner.token);
    await opened.page.locator(`[data-uuid="${owner.skyblock}"]`).waitFor();
    await chartShown(opened.page, `[data-uuid="${owner.skyblock}"] img.chart-img`);
    await noSidewaysScroll(opened.page);
    if (UPDATE_SCREENSHOTS) await screenshot(opened.page, "console-phone.png");
    await opened.page.locator(`[data-uuid="${owner.skyblock}"]`).getByRole("button", { name: "Skyblock Central" }).click();
    await chartShown(opened.page, "main section img.chart-img");
    await opened.page.locator("tr[data-webhook], .empty").first().waitFor();
    await noSidewaysScroll(opened.page);
    expect(await opened.page.locator("main section img.chart-img").getAttribute("width")).toBe("340");
    // One request refused as stale_timestamp, then every one signed with the server's time.
    expect(opened.problems).toEqual(["Failed to load resource: the server responded with a status of 401 (Unauthorized)"]);
    await opened.context.close();
  }, 60_000);

  test("over plain http under another name than localhost, the page says it needs HTTPS and asks for no token", async () => {
    const mapped = await launchChromium(["--host-resolver-rules=MAP pennant.test 127.0.0.1"]);
    try {
      const page = await mapped.newPage();
      await page.goto(`${server.url.replace("127.0.0.1", "pennant.test")}/console`);
      await page.getByRole("heading", { name: "This page needs HTTPS" }).waitFor();
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      expect(await page.locator("#insecure").innerText()).toContain("reverse_proxy 127.0.0.1:8080");
      expect(await page.getByLabel("API token").count()).toBe(0);
      expect(await page.locator("#console").isVisible()).toBe(false);
    } finally {
      await mapped.close();
    }
  }, 60_000);
});
