// Project icons fetched from a local stand-in of a site's CDN: only the
// site's origins are asked, with the User-Agent, no redirect followed; what
// is not a PNG, WebP or GIF, is larger than its bounds in bytes or in the
// size its header declares, is slow past the deadline or fails is refused
// (null: the default icon is drawn) and kept refused a while; many banners
// asking at once cost one fetch.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BoundedCache } from "../../src/cache/bounded-cache.ts";
import { MAX_ICON_BYTES, ProjectIcons, type KeptIcon } from "../../src/market/project-icon.ts";
import { MARKET_SITES, type MarketSite } from "../../src/market/market-project.ts";
import { encodePng, encodeWebp, Pixmap } from "../../src/render/index.ts";
import { track } from "../support/cleanup.ts";

const USER_AGENT = "Pennant/0.1.0 (+https://example.net)";
let base = "";
const asked: Array<{ path: string; userAgent: string | null }> = [];
const files = new Map<string, () => Response | Promise<Response>>();

beforeAll(() => {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      asked.push({ path, userAgent: request.headers.get("user-agent") });
      return (await files.get(path)?.()) ?? new Response("not found", { status: 404 });
    },
  });
  track(() => server.stop(true));
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => files.clear());

function icons(timeoutMs = 2_000, apiUrls?: Record<MarketSite, string>): ProjectIcons {
  const urls = apiUrls ?? (Object.fromEntries(MARKET_SITES.map((site) => [site, `${base}/${site}/api`])) as Record<MarketSite, string>);
  return new ProjectIcons(new BoundedCache<KeptIcon>({ maxBytes: 4 * 1024 * 1024, sizeOf: (icon) => icon?.length ?? 0 }), { apiUrls: urls, userAgent: USER_AGENT, timeoutMs });
}

function sample(width: number, height: number): Pixmap {
  const p = new Pixmap(width, height);
  p.fill({ r: 20, g: 180, b: 160, a: 255 });
  return p;
}

const serve = (path: string, body: Uint8Array | string, type = "image/png") => files.set(path, () => new Response(body, { headers: { "Content-Type": type } }));
const fetched = (path: string) => asked.filter((request) => request.path === path).length;

describe("which icons are fetched", () => {
  test("only the site's own origins: its API's, and its CDN beside an HTTPS API; never with credentials", () => {
    const local = icons();
    expect(local.allowed("modrinth", `${base}/icons/a.png`)).toBe(true);
    expect(local.allowed("modrinth", "https://cdn.modrinth.com/data/AANobbMI/icon.webp")).toBe(false);
    expect(local.allowed("modrinth", "https://evil.example.net/icon.png")).toBe(false);
    expect(local.allowed("modrinth", `http://user:pw@${base.slice("http://".length)}/icons/a.png`)).toBe(false);
    expect(local.allowed("modrinth", "not a url")).toBe(false);
    const real = icons(2_000, { modrinth: "https://api.modrinth.com/v2", spigot: "https://api.spiget.org/v2", hangar: "https://hangar.papermc.io/api/v1", curseforge: "https://api.cfwidget.com", polymart: "https://api.polymart.org/v1" });
    expect(real.allowed("modrinth", "https://cdn.modrinth.com/data/AANobbMI/icon.webp")).toBe(true);
    // Another site's CDN, or the CDN over plain HTTP, is not the site's.
    expect(real.allowed("modrinth", "https://media.forgecdn.net/avatars/1.png")).toBe(false);
    expect(real.allowed("modrinth", "http://cdn.modrinth.com/data/AANobbMI/icon.webp")).toBe(false);
    expect(real.allowed("curseforge", "https://media.forgecdn.net/avatars/1.png")).toBe(true);
  });

  test("an icon elsewhere is not fetched at all", async () => {
    const before = asked.length;
    serve("/elsewhere.png", await encodePng(sample(8, 8)));
    // The same server named otherwise is another origin: not the site's.
    expect(await icons().icon("hangar", `${base.replace("127.0.0.1", "localhost")}/elsewhere.png`)).toBeNull();
    expect(await icons().icon("hangar", null)).toBeNull();
    expect(asked.length).toBe(before);
  });
});

describe("what is kept", () => {
  test("a PNG and a WebP are kept as served, fetched once with the User-Agent however many ask at once", async () => {
    const png = await encodePng(sample(96, 96)), webp = await encodeWebp(sample(96, 96));
    serve("/modrinth/a.png", png);
    serve("/modrinth/a.webp", webp, "image/webp");
    const source = icons();
    const got = await Promise.all(Array.from({ length: 10 }, () => source.icon("modrinth", `${base}/modrinth/a.png`)));
    expect(got.every((icon) => icon !== null && Buffer.from(icon).equals(Buffer.from(png)))).toBe(true);
    expect(fetched("/modrinth/a.png")).toBe(1);
    expect(asked.find((request) => request.path === "/modrinth/a.png")!.userAgent).toBe(USER_AGENT);
    expect(Buffer.from((await source.icon("modrinth", `${base}/modrinth/a.webp`))!).equals(Buffer.from(webp))).toBe(true);
    // Kept: asked again, not fetched again.
    await source.icon("modrinth", `${base}/modrinth/a.png`);
    expect(fetched("/modrinth/a.png")).toBe(1);
  });

  test("not an image, a JPEG, a canvas past 1024 px, more bytes than the bound, a 404, a redirect: refused, and kept refused", async () => {
    serve("/x/page.png", "<!doctype html><html><body>Cloudflare</body></html>", "text/html");
    serve("/x/photo.jpg", Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, ...new Uint8Array(100)), "image/jpeg");
    serve("/x/huge.png", await encodePng(sample(1100, 4)));
    // A valid PNG signature and header, then padding past the byte bound: the reading stops at the bound.
    serve("/x/heavy.png", new Uint8Array([...(await encodePng(sample(8, 8))), ...new Uint8Array(MAX_ICON_BYTES)]));
    files.set("/x/moved.png", () => new Response(null, { status: 302, headers: { Location: `${base}/modrinth/a.png` } }));
    const source = icons();
    for (const name of ["page.png", "photo.jpg", "huge.png", "heavy.png", "missing.png", "moved.png"]) {
      expect([name, await source.icon("spigot", `${base}/x/${name}`)]).toEqual([name, null]);
      expect([name, await source.icon("spigot", `${base}/x/${name}`)]).toEqual([name, null]);
      expect([name, fetched(`/x/${name}`)]).toEqual([name, 1]);
    }
  });

  test("an icon slower than the deadline is refused in time", async () => {
    files.set("/x/slow.png", async () => {
      await Bun.sleep(3_000);
      return new Response(await encodePng(sample(8, 8)));
    });
    const started = performance.now();
    expect(await icons(300).icon("hangar", `${base}/x/slow.png`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
