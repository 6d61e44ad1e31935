// The public pages (issue 42) from outside, over HTTP against a real server
// and SQLite file: a pushed server's page and what it shows, the same 404 for
// every page that is not there, ETags, escaping of hostile names and MOTDs,
// the link preview's tags naming a 1200x630 PNG, the charts, the widget's
// headers, the owner's signed switch, and the budgets pages spend.

import { afterEach, describe, expect, test } from "bun:test";
import { pushWeek, seedNetworkHistory, sweepAll, WEEK_START } from "../support/history.ts";
import type { SqliteStore } from "../../src/store/sqlite-store.ts";
import { decodeImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const DAY = 86_400_000;

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

const UPDATE = {
  name: "Skyblock Central",
  status: "online",
  address: "Play.Skyblock.example:25565",
  stats: { players: { online: 7, max: 50 }, motd: "§aWelcome to §x§1§2§3§4§5§6Skyblock\n§7§lFresh season", version: "Paper 1.21.4" },
};

/** A server pushed once by a token of its own: its uuid and token. */
async function pushed(body: object = UPDATE): Promise<{ uuid: string; token: string }> {
  const uuid = newUuid();
  const token = server.token("server");
  const response = await send({ path: "/api/server/update", token, serverUuid: uuid, body });
  expect(response.status).toBe(200);
  return { uuid, token };
}

/** Switches the page of `uuid` with `token`. */
function switchPage(uuid: string, token: string, enabled: unknown, timestamp?: number): Promise<Response> {
  return send({ method: "PUT", path: "/api/server/page", token, serverUuid: uuid, body: { enabled }, ...(timestamp === undefined ? {} : { timestamp }) });
}

interface Element {
  tag: string;
  attributes: Record<string, string>;
}

/** Every element of `html` with its attributes as a browser reads them, and the text of the elements named in `textOf`. */
async function parsed(html: string, textOf: string[] = []): Promise<{ elements: Element[]; text: Record<string, string> }> {
  const elements: Element[] = [];
  const text: Record<string, string> = {};
  let rewriter = new HTMLRewriter().on("*", {
    element(element) {
      elements.push({ tag: element.tagName, attributes: Object.fromEntries([...element.attributes].map(([name, value]) => [name, value])) });
    },
  });
  for (const selector of textOf) {
    rewriter = rewriter.on(selector, { text(chunk) { text[selector] = (text[selector] ?? "") + chunk.text; } });
  }
  await rewriter.transform(new Response(html)).text();
  return { elements, text };
}

/** HTML text as read: the five escapes undone. */
const unescaped = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** A meta tag's content as read (HTMLRewriter hands attribute values as written). */
function meta(elements: Element[], key: string): string | undefined {
  const content = elements.find((element) => element.tag === "meta" && (element.attributes.property === key || element.attributes.name === key))?.attributes.content;
  return content === undefined ? undefined : unescaped(content);
}

describe("a pushed server's page", () => {
  test("gives the join address as its game writes it: a Hytale server's without 5520, a Java server's without 25565", async () => {
    server = await startTestServer();
    const joinOf = async (body: object) => (await parsed(await (await get(`/s/${(await pushed(body)).uuid}`)).text(), [".join code"])).text[".join code"];
    expect(await joinOf({ ...UPDATE, edition: "hytale", address: "play.orbis.example:5520" })).toBe("play.orbis.example");
    expect(await joinOf({ ...UPDATE, address: "play.orbis.example:5520" })).toBe("play.orbis.example:5520");
  });

  test("shows its name, state, MOTD in its colours, players, version, join address, chart, uptime and peak, under a strict policy", async () => {
    server = await startTestServer();
    const { uuid } = await pushed();
    const response = await get(`/s/${uuid}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    const { elements, text } = await parsed(html, ["h1", ".motd", ".facts", ".join code", ".record"]);
    expect(text.h1).toBe("Skyblock Central");
    expect(text[".motd"]).toBe("Welcome to SkyblockFresh season");
    expect(elements.filter((element) => element.attributes.class?.startsWith("mc-")).map((element) => element.attributes.class)).toEqual(["mc-55ff55", "mc-123456", "mc-aaaaaa mc-bold"]);
    // Each colour's rule is in the page's one <style>, which the policy names by hash.
    const style = /<style>(.*?)<\/style>/.exec(html)![1]!;
    expect(style).toBe(".mc-123456{color:#123456}.mc-55ff55{color:#55ff55}.mc-aaaaaa{color:#aaaaaa}");
    expect(policy).toContain(`'sha256-${new Bun.CryptoHasher("sha256").update(style).digest("base64")}'`);
    expect(text[".facts"]).toContain("7 / 50");
    expect(text[".facts"]).toContain("Paper 1.21.4");
    expect(text[".join code"]).toBe("play.skyblock.example");
    expect(text[".record"]).toContain("Uptime");
    expect(elements.filter((element) => element.tag === "svg").length).toBe(2);
    expect(elements.filter((element) => element.tag === "script").map((element) => element.attributes.src)).toEqual([expect.stringMatching(/^\/page\/page\.js\?v=/)]);
    // The stylesheet and script it names are served.
    for (const element of elements.filter((element) => (element.tag === "link" && element.attributes.rel === "stylesheet") || element.tag === "script")) {
      const asset = await get(element.attributes.href ?? element.attributes.src!);
      expect(asset.status).toBe(200);
    }
  });

  test("an ETag of what it shows: a 304 while it holds, a new one once a push changes it", async () => {
    server = await startTestServer();
    const { uuid, token } = await pushed();
    const first = await get(`/s/${uuid}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const held = await get(`/s/${uuid}`, { "If-None-Match": etag });
    expect([held.status, await held.text()]).toEqual([304, ""]);
    server.clock.now += 1000;
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: { stats: { players: { online: 9 } } } })).status).toBe(200);
    const changed = await get(`/s/${uuid}`, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.text()).toContain("9 / 50");
  });

  test("the range links switch the chart; a range it does not know is a 400 naming the choices", async () => {
    server = await startTestServer();
    const { uuid } = await pushed();
    const week = await (await get(`/s/${uuid}?range=7d`)).text();
    expect(week).toContain("Players, 7 days");
    expect(week).toContain(`href="/s/${uuid}?range=30d"`);
    const refused = await get(`/s/${uuid}?range=2w`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { code: "invalid_range", message: '"range" must be one of 24h, 7d, 30d, 1y' } });
  });
});

describe("hostile names and MOTDs are text, never markup", () => {
  const HOSTILE_NAME = `</title><script>alert(1)</script>"'><img src=x onerror=alert(2)>&amp;`;
  const HOSTILE_MOTD = `§c<script>alert(3)</script>§r" onmouseover="alert(4)\n§x§1§2§3§4§5§6<b>x</b>'><svg onload=alert(5)>`;
  const HOSTILE_COMPONENT = JSON.stringify({ text: "</style><script>alert(6)</script>", color: "#ff0000;}</style><script>alert(7)</script>", extra: [{ text: "ok", color: "red" }] });

  for (const [label, motd] of [["a § MOTD", HOSTILE_MOTD], ["a JSON chat MOTD", HOSTILE_COMPONENT]] as const) {
    test(`a name and ${label} of script, markup and attribute breakers: the page, its preview tags and the widget`, async () => {
      server = await startTestServer({ PENNANT_PUBLIC_URL: "https://status.example.net" });
      const { uuid } = await pushed({ name: HOSTILE_NAME, status: "online", address: `"><script>alert(8)</script>`, stats: { motd } });
      for (const path of [`/s/${uuid}`, `/s/${uuid}/widget`]) {
        const html = await (await get(path)).text();
        const { elements, text } = await parsed(html, ["title", "h1", ".widget-name", ".motd"]);
        // No element or attribute came from the data: one script (ours, on the page only), no image, no handler.
        expect(elements.filter((element) => element.tag === "script").length).toBe(path.endsWith("widget") ? 0 : 1);
        expect(elements.filter((element) => ["img", "b"].includes(element.tag))).toEqual([]);
        expect(elements.flatMap((element) => Object.keys(element.attributes)).filter((name) => name.startsWith("on"))).toEqual([]);
        expect(elements.filter((element) => element.tag === "svg" && element.attributes.onload !== undefined)).toEqual([]);
        expect(unescaped(text[path.endsWith("widget") ? ".widget-name" : "h1"]!)).toBe(HOSTILE_NAME);
        expect(unescaped(text.title!)).toStartWith(HOSTILE_NAME);
        if (!path.endsWith("widget")) {
          expect(unescaped(text[".motd"]!)).toContain(motd === HOSTILE_MOTD ? "<script>alert(3)</script>" : "</style><script>alert(6)</script>");
          // Attribute values come back whole: the name did not break out of its quotes.
          expect(meta(elements, "og:title")).toBe(HOSTILE_NAME);
          expect(meta(elements, "twitter:title")).toBe(HOSTILE_NAME);
          // The style element holds only colour rules (a colour that is not #rrggbb is no colour).
          for (const [, style] of html.matchAll(/<style>(.*?)<\/style>/gs)) expect(style).toMatch(/^(\.mc-[0-9a-f]{6}\{color:#[0-9a-f]{6}\})*$/);
        }
        // Not a join address: not shown.
        expect(html).not.toContain("alert(8)");
      }
    });
  }
});

describe("every page that is not there is the same plain 404", () => {
  test("unknown, malformed, switched off, a lookup's server, an unknown network: one page, and the images one answer", async () => {
    server = await startTestServer();
    const { uuid, token } = await pushed();
    expect((await switchPage(uuid, token, false)).status).toBe(200);
    // A server only looked up has no record, so no page.
    expect((await get("/api/lookup?address=127.0.0.1")).status).toBe(200);
    const paths = [`/s/${newUuid()}`, "/s/nope", "/s/%3Cscript%3E", `/s/${uuid}`, `/s/${uuid.toUpperCase()}x`, "/n/no-such-network", "/n/NOT%20A%20SLUG"];
    const answers = await Promise.all(paths.map(async (path) => {
      const response = await get(path);
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
    }));
    for (const answer of answers) expect(answer).toEqual(answers[0]!);
    expect(answers[0]!.status).toBe(404);
    expect(answers[0]!.body).toContain("There is no page at this address.");
    for (const path of ["chart.svg", "chart.png", "og.png", "widget"]) {
      const off = await get(`/s/${uuid}/${path}`);
      const unknown = await get(`/s/${newUuid()}/${path}`);
      const malformed = await get(`/s/nope/${path}`);
      expect([off.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
      const bodies = await Promise.all([off, unknown, malformed].map((response) => response.text()));
      expect(bodies[0]).toBe(bodies[1]!);
      expect(bodies[2]).toBe(bodies[1]!);
    }
    // An <img> asking gets an image saying so.
    const image = await get(`/s/${uuid}/chart.png`, { Accept: "image/png" });
    expect([image.status, image.headers.get("content-type")]).toEqual([404, "image/png"]);
  });
});

describe("link previews", () => {
  for (const publicUrl of ["https://status.example.net", undefined]) {
    test(`Open Graph and Twitter tags name a 1200x630 PNG ${publicUrl ? "under PENNANT_PUBLIC_URL, whatever the Host header" : "root-relative without PENNANT_PUBLIC_URL"}`, async () => {
      server = await startTestServer(publicUrl ? { PENNANT_PUBLIC_URL: publicUrl } : {});
      const { uuid } = await pushed();
      const html = await (await get(`/s/${uuid}`, { Host: "evil.example", "X-Forwarded-Host": "evil.example" })).text();
      expect(html).not.toContain("evil.example");
      const { elements } = await parsed(html);
      const image = meta(elements, "og:image")!;
      expect(image).toBe(`${publicUrl ?? ""}/s/${uuid}/og.png`);
      expect(meta(elements, "twitter:image")).toBe(image);
      expect(meta(elements, "twitter:card")).toBe("summary_large_image");
      expect(meta(elements, "og:title")).toBe("Skyblock Central");
      expect(meta(elements, "og:description")).toBe("Online for under a minute · 7/50 players · Paper 1.21.4 · play.skyblock.example");
      expect(meta(elements, "og:url")).toBe(publicUrl ? `${publicUrl}/s/${uuid}` : undefined);
      const card = await get(new URL(image, "http://any.example").pathname);
      expect([card.status, card.headers.get("content-type")]).toEqual([200, "image/png"]);
      const decoded = await decodeImage(card);
      expect([decoded.width, decoded.height]).toEqual([1200, 630]);
      expect([meta(elements, "og:image:width"), meta(elements, "og:image:height")]).toEqual(["1200", "630"]);
      // Cached like banners: the same card is a 304 to a client holding it.
      const again = await get(`/s/${uuid}/og.png`, { "If-None-Match": card.headers.get("etag")! });
      expect(again.status).toBe(304);
      // The snippets' URLs are the same: absolute under PENNANT_PUBLIC_URL, else root-relative.
      expect(html).toContain(`[url=${publicUrl ?? ""}/s/${uuid}]Skyblock Central[/url]`);
    });
  }
});

describe("the charts alone", () => {
  test("chart.svg: an SVG of its own, under the SVG policy; chart.png: 800x300, 1600x600 at scale 2, dark on request; bad options refused", async () => {
    server = await startTestServer({}, { clockStart: WEEK_START + 7 * DAY });
    const uuid = newUuid();
    await pushWeek(server.store, uuid);
    await sweepAll(server.store, server.clock.now);
    const svg = await get(`/s/${uuid}/chart.svg?range=7d`);
    expect([svg.status, svg.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect(svg.headers.get("content-security-policy")).toStartWith("default-src 'none'");
    expect(svg.headers.get("access-control-allow-origin")).toBe("*");
    const text = await svg.text();
    expect(text).toStartWith('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="300"');
    expect(text).toContain("Players online over the last 7 days: peak 50");
    // Two runs of the line: the week's three offline hours break it, and are shaded.
    expect(text.match(/class="pc-mean"/g)!.length).toBe(2);
    expect(text.match(/class="pc-off"/g)!.length).toBe(1);

    const light = await decodeImage(await get(`/s/${uuid}/chart.png?range=7d`));
    expect([light.width, light.height]).toEqual([800, 300]);
    const sharp = await decodeImage(await get(`/s/${uuid}/chart.png?range=7d&scale=2`));
    expect([sharp.width, sharp.height]).toEqual([1600, 600]);
    const dark = await decodeImage(await get(`/s/${uuid}/chart.png?range=7d&theme=dark`));
    expect([...light.data.subarray(0, 3)]).toEqual([255, 255, 255]);
    expect([...dark.data.subarray(0, 3)]).toEqual([0x18, 0x1b, 0x20]);
    for (const query of ["range=2w", "theme=blue", "scale=3"]) {
      const refused = await get(`/s/${uuid}/chart.png?${query}`);
      expect([query, refused.status]).toEqual([query, 400]);
    }
  }, 30_000);
});

describe("the widget", () => {
  test("any site may frame it; it runs no script and reloads itself once a minute; the page itself may not be framed", async () => {
    server = await startTestServer();
    const { uuid } = await pushed();
    const widget = await get(`/s/${uuid}/widget`);
    expect(widget.status).toBe(200);
    const policy = widget.headers.get("content-security-policy")!;
    expect(policy).toContain("frame-ancestors *");
    expect(policy).toContain("script-src 'none'");
    expect(widget.headers.get("x-frame-options")).toBeNull();
    const html = await widget.text();
    expect(html).toContain('<meta http-equiv="refresh" content="60">');
    expect(html).toContain('target="_blank" rel="noopener"');
    expect(html.length).toBeLessThan(2_000);
    for (const path of [`/s/${uuid}`, "/n/none"]) {
      expect((await get(path)).headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });
});

describe("the owner's switch", () => {
  test("signed by the server's token: off answers the 404, on brings the page back; accepted once, refused to others", async () => {
    server = await startTestServer();
    const { uuid, token } = await pushed();
    const at = Math.floor(server.clock.now / 1000);
    const off = await switchPage(uuid, token, false, at);
    expect([off.status, await off.json()]).toEqual([200, { message: "Page switched off.", enabled: false }]);
    expect((await get(`/s/${uuid}`)).status).toBe(404);
    // The same request again: a duplicate, answered alike.
    const again = await switchPage(uuid, token, false, at);
    expect([again.status, again.headers.get("x-duplicate")]).toEqual([200, "true"]);
    // That request's signature for another of the token's servers (the UUID is a header the signature leaves out): a replay.
    const second = newUuid();
    server.clock.now += 1000;
    expect((await send({ path: "/api/server/update", token, serverUuid: second, body: UPDATE })).status).toBe(200);
    const replayed = await switchPage(second, token, false, at);
    expect([replayed.status, ((await replayed.json()) as any).error.code]).toEqual([401, "replayed_request"]);
    expect((await get(`/s/${second}`)).status).toBe(200);
    // Another token's server reads as unknown; a body that is not a switch is refused; neither changes anything.
    expect((await switchPage(uuid, server.token("server"), true)).status).toBe(404);
    const unknown = await switchPage(newUuid(), token, true);
    expect([unknown.status, ((await unknown.json()) as any).error.code]).toEqual([404, "unknown_server"]);
    const bad = await switchPage(uuid, token, "yes");
    expect([bad.status, ((await bad.json()) as any).error.code]).toEqual([400, "invalid_payload"]);
    expect((await get(`/s/${uuid}`)).status).toBe(404);
    // Unsigned: 401.
    const unsigned = await fetch(`${server.url}/api/server/page`, { method: "PUT", headers: { "Content-Type": "application/json", "X-Server-UUID": uuid }, body: '{"enabled":true}' });
    expect(unsigned.status).toBe(401);
    server.clock.now += 1000;
    const on = await switchPage(uuid, token, true);
    expect([on.status, await on.json()]).toEqual([200, { message: "Page shown.", enabled: true }]);
    expect((await get(`/s/${uuid}`)).status).toBe(200);
    // Pushes leave the switch as it is.
    server.clock.now += 1000;
    await switchPage(uuid, token, false);
    server.clock.now += 1000;
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: UPDATE })).status).toBe(200);
    expect((await get(`/s/${uuid}`)).status).toBe(404);
  });
});

describe("a network's page", () => {
  test("its servers with their states and players, linked where their pages are on, and the total", async () => {
    server = await startTestServer();
    const token = server.token("server");
    const [hub, survival] = [newUuid(), newUuid()];
    await send({ path: "/api/server/update", token, serverUuid: hub, body: { name: "Hub", status: "online", stats: { players: { online: 12, max: 100 } } } });
    await send({ path: "/api/server/update", token, serverUuid: survival, body: { name: "<b>Survival</b>", status: "offline" } });
    expect((await send({ method: "PUT", path: "/api/networks/blocky", token, body: { name: "Blocky <Network>", servers: [hub, survival] } })).status).toBe(200);
    expect((await switchPage(survival!, token, false)).status).toBe(200);
    const response = await get("/n/Blocky");
    expect(response.status).toBe(200);
    const html = await response.text();
    const { elements, text } = await parsed(html, ["h1", ".members tbody", ".members tfoot"]);
    expect(unescaped(text.h1!)).toBe("Blocky <Network>");
    expect(unescaped(text[".members tbody"]!)).toContain("<b>Survival</b>");
    expect(elements.filter((element) => element.tag === "b")).toEqual([]);
    expect(elements.filter((element) => element.tag === "a" && element.attributes.href?.startsWith("/s/")).map((element) => element.attributes.href)).toEqual([`/s/${hub}`]);
    expect(text[".members tfoot"]).toContain("1/2 online");
    expect(text[".members tfoot"]).toContain("12 / 100");
  });
});

describe("budgets", () => {
  test("pages spend the per-client request budget, as banners do", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "3/60" });
    const { uuid } = await pushed();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(`/s/${uuid}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  test("history read for a page spends the draw budget (history-charge.ts); a page of history held spends none", async () => {
    server = await startTestServer({ PENNANT_DRAW_BUDGET: "206/3600", PENNANT_RATE_LIMIT: "1000/60" });
    // Ten servers with a year of hourly and 30 days of 5-minute buckets: some 20,000 buckets to read for each one's page.
    const uuids = await seedNetworkHistory(server.store as SqliteStore, { slug: "big", count: 10, now: server.clock.now, fiveMinuteDays: 30, hourDays: 365 });
    const statuses: number[] = [];
    const refusals: string[] = [];
    for (const uuid of uuids) {
      const response = await get(`/s/${uuid}`);
      statuses.push(response.status);
      if (response.status === 429) refusals.push(((await response.json()) as any).error.message);
    }
    // About 27 units a page: the budget pays for 7.
    expect(statuses.indexOf(429)).toBe(7);
    expect(refusals[0]).toContain("history");
    expect((await get(`/s/${uuids[0]}`)).status).toBe(200);
  });
});
