// Stand-ins of the five marketplaces' public APIs on one loopback server,
// each under its own prefix, written from each site's documentation:
//
// - /modrinth/v2: Modrinth's API v2 (modrinth/code apps/docs/public/openapi.yaml):
//   GET /project/{id|slug} (Project: id, slug, title, downloads, followers,
//   icon_url, updated, game_versions), /project/{id|slug}/version (Version:
//   version_number, date_published, game_versions; include_changelog=false),
//   /project/{id|slug}/members (TeamMember: role, ordering, user), /user/{id|username}
//   and /user/{id|username}/projects; 404 {error, description} for anything unknown.
// - /spiget/v2: Spiget (SpiGetOrg/Documentation swagger.yml): /resources/{id}
//   (Resource: name, likes, downloads, testedVersions, rating {count, average},
//   updateDate in seconds, icon {url relative to spigotmc.org, data}, author {id}),
//   /resources/{id}/versions/latest, /resources/{id}/author, /authors/{id},
//   /authors/{id}/resources; 404 when unknown.
// - /hangar/api/v1: Hangar (HangarMC/Hangar IProjectsController,
//   IVersionsController, IUsersController; Project, ProjectStats, Version):
//   /projects/{slug}, /projects/{slug}/versions (a page {pagination, result}
//   whose versions carry createdAt and platformDependencies), /users/{user},
//   /projects?owner=; 404 when unknown.
// - /cfwidget: CFWidget (CFWidget/cfwidget documentation.tmpl, widget/models.go):
//   /{projectId} (title, thumbnail, downloads {total, monthly}, members, files,
//   versions, download), 202 while it fetches a project it did not know,
//   /author/{id}, /author/search/{username}; 404 when unknown.
// - /polymart/v1: Polymart (polymart.org/wiki/api): /getResourceInfo/?resource_id=
//   and /getAccountInfo/?user_id=, always {request, response}, response.success
//   false for an unknown one.
//
// Each site can be told to misbehave (`fault`) and counts the requests it
// gets, so a test sees what was asked and when nothing was. Every site also
// serves the files of `icons` at {prefix}/icons/{name}: the projects' icons a
// test points its data at (the sites' CDNs, served from the API's origin).

import { track } from "./cleanup.ts";
import { startTestServer, type TestServer } from "./server.ts";

export type MarketPeerSite = "modrinth" | "spigot" | "hangar" | "curseforge" | "polymart";

export type PeerFault =
  | "none"
  /** 500 with an HTML error page. */
  | "error"
  /** 503 Service Unavailable. */
  | "unavailable"
  /** 429 with Retry-After: 30. */
  | "rate-limited"
  /** No headers until `delayMs` has passed. */
  | "slow"
  /** Headers at once, then the body a byte at a time every 200 ms. */
  | "slow-body"
  /** The right answer with 20 MiB of padding in it. */
  | "huge"
  /** 200 with text that is not JSON. */
  | "malformed"
  /** 200 with JSON the API never answers (no name or title). */
  | "wrong-shape"
  /** 302 to the same address marked "followed", which answers it right: only a client that follows redirects gets it. */
  | "redirect";

export interface MarketPeers {
  /** Each site's API root, as PENNANT_*_URL takes it. */
  urls: Record<MarketPeerSite, string>;
  /** The environment pointing Pennant at the stand-ins. */
  env: Record<string, string>;
  /** Requests each site got (path and query). */
  requests: Record<MarketPeerSite, string[]>;
  /** What each site does instead of answering. */
  fault: Record<MarketPeerSite, PeerFault>;
  /** How long a "slow" site waits before answering. */
  delayMs: number;
  /** Every project and author a site knows, by id: tests change them. */
  data: typeof DATA;
  /** Projects CFWidget answers 202 for once before it knows them. */
  cfwidgetFetching: Set<string>;
  /** Files served at {prefix}/icons/{name} under every site, whatever its fault: icons (or anything else) a test serves. */
  icons: Map<string, { type: string; body: Uint8Array }>;
  close(): Promise<void>;
}

export const MODRINTH_SODIUM = {
  id: "AANobbMI", slug: "sodium", title: "Sodium", description: "A rendering engine", body: "# Sodium\n".repeat(50),
  project_type: "mod", downloads: 51_234_567, followers: 25_400, icon_url: "https://cdn.modrinth.com/data/AANobbMI/icon.png",
  published: "2020-12-01T00:00:00Z", updated: "2025-01-06T12:00:00Z", team: "4reLOAKe",
  game_versions: ["1.16.5", "1.20", "1.20.1", "1.21", "1.21.4", "24w14a", "1.21.5-pre1"], loaders: ["fabric", "quilt"],
  versions: ["v1", "v2", "v3"], categories: ["optimization"], client_side: "required", server_side: "unsupported", status: "approved",
};

const DATA = {
  modrinth: {
    projects: new Map<string, any>([["AANobbMI", MODRINTH_SODIUM]]),
    versions: new Map<string, any[]>([["AANobbMI", [
      { id: "v2", project_id: "AANobbMI", name: "Sodium 0.6.4", version_number: "mc1.21.4-0.6.4", version_type: "release", date_published: "2024-12-20T00:00:00Z", game_versions: ["1.21.4"], loaders: ["fabric"], downloads: 10, files: [], dependencies: [], featured: true },
      { id: "v3", project_id: "AANobbMI", name: "Sodium 0.6.5", version_number: "mc1.21.4-0.6.5", version_type: "release", date_published: "2025-01-06T12:00:00Z", game_versions: ["1.21.4"], loaders: ["fabric"], downloads: 5, files: [], dependencies: [], featured: true },
      { id: "v1", project_id: "AANobbMI", name: "Sodium 0.2.0", version_number: "mc1.16.5-0.2.0", version_type: "release", date_published: "2021-01-01T00:00:00Z", game_versions: ["1.16.5"], loaders: ["fabric"], downloads: 99, files: [], dependencies: [], featured: false },
    ]]]),
    members: new Map<string, any[]>([["AANobbMI", [
      { team_id: "4reLOAKe", role: "Developer", ordering: 1, accepted: true, user: { id: "u2", username: "IMS212", avatar_url: "https://cdn.modrinth.com/u2.png" } },
      { team_id: "4reLOAKe", role: "Owner", ordering: 0, accepted: true, user: { id: "TEnKhdos", username: "jellysquid3", avatar_url: "https://cdn.modrinth.com/u1.png" } },
    ]]]),
    users: new Map<string, any>([["TEnKhdos", { id: "TEnKhdos", username: "jellysquid3", avatar_url: "https://cdn.modrinth.com/u1.png", created: "2020-01-01T00:00:00Z", role: "developer" }]]),
    userProjects: new Map<string, any[]>([["TEnKhdos", [MODRINTH_SODIUM, { ...MODRINTH_SODIUM, id: "gvQqBUqZ", slug: "lithium", title: "Lithium", downloads: 20_000_000, followers: 9_600 }]]]),
  },
  spigot: {
    resources: new Map<string, any>([["28140", {
      id: 28140, name: "LuckPerms", tag: "A permissions plugin", contributors: "Luck", likes: 1_480, downloads: 2_043_210,
      testedVersions: ["1.8", "1.9", "1.10", "1.12", "1.16", "1.20", "1.21"], rating: { count: 1_204, average: 4.9 },
      releaseDate: 1_474_000_000, updateDate: 1_735_900_000, external: false, premium: false,
      icon: { url: "data/resource_icons/28/28140.jpg?1600000000", data: "iVBORw0KGgo=" }, author: { id: 100356 }, category: { id: 15 },
      version: { id: 570000, uuid: "0-1" }, file: { type: ".jar", size: 1.5, sizeUnit: "MB", url: "resources/luckperms.28140/download?version=570000" },
      description: "PGgxPkx1Y2tQZXJtczwvaDE+".repeat(20),
    }]]),
    latest: new Map<string, any>([["28140", { id: 570000, uuid: "0-1", name: "5.4.145", releaseDate: 1_735_900_000, downloads: 1_000, rating: { count: 0, average: 0 } }]]),
    authors: new Map<string, any>([["100356", { id: 100356, name: "Luck", icon: { url: "data/avatars/l/100/100356.jpg?1", data: "" } }]]),
    authorResources: new Map<string, any[]>([["100356", [
      { id: 28140, downloads: 2_043_210, likes: 1_480, rating: { count: 1_204, average: 4.9 } },
      { id: 57161, downloads: 100_000, likes: 20, rating: { count: 96, average: 4.0 } },
    ]]]),
  },
  hangar: {
    projects: new Map<string, any>([["viaversion", {
      createdAt: "2022-12-01T00:00:00Z", name: "ViaVersion", namespace: { owner: "ViaVersion", slug: "ViaVersion" },
      stats: { views: 900_000, downloads: 1_312_345, recentViews: 1_000, recentDownloads: 2_000, stars: 612, watchers: 90 },
      category: "protection", description: "Newer versions on older servers", lastUpdated: "2025-01-05T08:00:00Z", visibility: "public",
      avatarUrl: "https://hangarcdn.papermc.io/avatars/project/2.webp?v=1", settings: { license: { name: "GPL" } },
    }]]),
    versions: new Map<string, any[]>([["viaversion", [
      { createdAt: "2025-01-05T08:00:00Z", name: "5.2.1", visibility: "public", description: "Changes\n".repeat(30), stats: { totalDownloads: 5 },
        platformDependencies: { PAPER: ["1.8-1.21.4"], VELOCITY: ["3.3", "3.4"] }, platformDependenciesFormatted: { PAPER: ["1.8-1.21.4"] } },
      { createdAt: "2024-10-01T08:00:00Z", name: "5.1.0", visibility: "public", description: "", stats: { totalDownloads: 50 },
        platformDependencies: { PAPER: ["1.8", "1.21.1"], WATERFALL: ["1.20"] } },
    ]]]),
    users: new Map<string, any>([["viaversion", { name: "ViaVersion", avatarUrl: "https://hangarcdn.papermc.io/avatars/user/9.webp", projectCount: 2 }]]),
    owned: new Map<string, any[]>([["viaversion", [
      { name: "ViaVersion", namespace: { owner: "ViaVersion", slug: "ViaVersion" }, stats: { downloads: 1_312_345, stars: 612 } },
      { name: "ViaBackwards", namespace: { owner: "ViaVersion", slug: "ViaBackwards" }, stats: { downloads: 700_000, stars: 300 } },
    ]]]),
  },
  curseforge: {
    projects: new Map<string, any>([["238222", {
      id: 238222, title: "Just Enough Items (JEI)", summary: "View items and recipes", game: "minecraft", type: "Mods",
      urls: { curseforge: "https://www.curseforge.com/minecraft/mc-mods/jei", project: "https://minecraft.curseforge.com/projects/238222" },
      thumbnail: "https://media.forgecdn.net/avatars/thumbnails/29/69/256/256/635838945588716414.jpeg", created_at: "2015-11-23T00:00:00Z",
      downloads: { monthly: 5_000_000, total: 412_345_678 }, license: "MIT", categories: ["API and Library"],
      members: [{ title: "Author", username: "helper", id: 2 }, { title: "Owner", username: "mezz", id: 1 }],
      files: [
        { id: 6000001, display: "jei-1.21.4-neoforge-20.0.0.jar", name: "jei-1.21.4-neoforge-20.0.0.jar", type: "release", version: "1.21.4", versions: ["1.21.4", "NeoForge"], downloads: 10, uploaded_at: "2025-01-04T00:00:00Z" },
        { id: 2000001, display: "jei_1.12.2-4.16.1.jar", name: "jei_1.12.2-4.16.1.jar", type: "release", version: "1.12.2", versions: ["1.12.2", "Forge"], downloads: 999, uploaded_at: "2020-01-01T00:00:00Z" },
      ],
      versions: { "1.21.4": [{ id: 6000001 }], "1.12.2": [{ id: 2000001 }], NeoForge: [{ id: 6000001 }], Forge: [{ id: 2000001 }] },
      download: { id: 6000001, display: "jei-1.21.4-neoforge-20.0.0.jar", name: "jei-1.21.4-neoforge-20.0.0.jar", type: "release", version: "1.21.4", uploaded_at: "2025-01-04T00:00:00Z" },
    }], ["59751", {
      id: 59751, title: "Mouse Tweaks", game: "minecraft", type: "Mods", thumbnail: "https://media.forgecdn.net/avatars/mt.png",
      downloads: { monthly: 1, total: 100_000 }, members: [{ title: "Owner", username: "mezz", id: 1 }], files: [], versions: {},
    }]]),
    authors: new Map<string, any>([["1", { id: 1, username: "mezz", projects: [{ id: 238222, name: "JEI" }, { id: 59751, name: "Mouse Tweaks" }, { id: 404404, name: "Gone" }] }]]),
  },
  polymart: {
    resources: new Map<string, any>([["323", {
      id: 323, title: "Polymart Plugin", subtitle: "Sell on Polymart", owner: { name: "Polymart", id: 1, type: "user", url: "https://polymart.org/user/1" },
      price: 0, currency: "USD", downloads: 65_500, thumbnailURL: "https://polymart.org/image/323.png", url: "https://polymart.org/resource/323",
      reviews: { count: 12, stars: 4.5 }, updates: { latest: { id: 9, title: "Fixes", version: "1.2.3", time: 1_735_000_000 } },
    }]]),
    accounts: new Map<string, any>([["1", {
      id: 1, username: "Polymart", type: "user", profilePictureURL: "https://polymart.org/user/1.png",
      statistics: { resourceCount: 5, resourceDownloads: 123_456, resourceRatings: 40, resourceAverageRating: 4.6 },
    }]]),
  },
};

const PREFIXES: Record<MarketPeerSite, string> = {
  modrinth: "/modrinth/v2", spigot: "/spiget/v2", hangar: "/hangar/api/v1", curseforge: "/cfwidget", polymart: "/polymart/v1",
};
const VARIABLES: Record<MarketPeerSite, string> = {
  modrinth: "PENNANT_MODRINTH_URL", spigot: "PENNANT_SPIGET_URL", hangar: "PENNANT_HANGAR_URL", curseforge: "PENNANT_CFWIDGET_URL", polymart: "PENNANT_POLYMART_URL",
};

const json = (body: unknown, status = 200) => Response.json(body, { status });
const notFound = () => json({ error: "not_found", description: "the requested route does not exist" }, 404);

/** Spiget's `fields`: only the fields asked for, as Spiget leaves the others out. */
function pick(resource: any, fields: string | null): any {
  if (fields === null) return resource;
  return Object.fromEntries(fields.split(",").filter((field) => field in resource).map((field) => [field, resource[field]]));
}

function modrinth(path: string, query: URLSearchParams, data: typeof DATA.modrinth): Response {
  const project = /^\/project\/([^/]+)(\/version|\/members)?$/.exec(path);
  if (project) {
    const ref = decodeURIComponent(project[1]!);
    const found = [...data.projects.values()].find((p) => p.id === ref || p.slug === ref);
    if (!found) return notFound();
    if (project[2] === "/version") {
      if (query.get("include_changelog") !== "false") throw new Error("versions asked with their changelogs");
      return json(data.versions.get(found.id) ?? []);
    }
    if (project[2] === "/members") return json(data.members.get(found.id) ?? []);
    return json(found);
  }
  const user = /^\/user\/([^/]+)(\/projects)?$/.exec(path);
  if (user) {
    const ref = decodeURIComponent(user[1]!).toLowerCase();
    const found = [...data.users.values()].find((u) => u.id.toLowerCase() === ref || u.username.toLowerCase() === ref);
    if (!found) return notFound();
    return json(user[2] ? data.userProjects.get(found.id) ?? [] : found);
  }
  return notFound();
}

function spiget(path: string, query: URLSearchParams, data: typeof DATA.spigot): Response {
  const resource = /^\/resources\/(\d+)(\/versions\/latest|\/author)?$/.exec(path);
  if (resource) {
    const found = data.resources.get(resource[1]!);
    if (!found) return notFound();
    if (resource[2] === "/versions/latest") return data.latest.has(resource[1]!) ? json(data.latest.get(resource[1]!)) : notFound();
    if (resource[2] === "/author") return json(data.authors.get(String(found.author.id)) ?? {});
    return json(pick(found, query.get("fields")));
  }
  const author = /^\/authors\/(\d+)(\/resources)?$/.exec(path);
  if (author) {
    const found = data.authors.get(author[1]!);
    if (!found) return notFound();
    const size = Number(query.get("size") ?? 10);
    return json(author[2] ? (data.authorResources.get(author[1]!) ?? []).slice(0, size).map((r) => pick(r, query.get("fields"))) : found);
  }
  return notFound();
}

function hangar(path: string, query: URLSearchParams, data: typeof DATA.hangar): Response {
  const page = (all: any[]) => {
    const limit = Math.min(Number(query.get("limit") ?? 25), 25), offset = Number(query.get("offset") ?? 0);
    return json({ pagination: { limit, offset, count: all.length }, result: all.slice(offset, offset + limit) });
  };
  const project = /^\/projects\/([^/]+)(\/versions)?$/.exec(path);
  if (project) {
    const slug = decodeURIComponent(project[1]!).toLowerCase();
    if (!data.projects.has(slug)) return notFound();
    return project[2] ? page(data.versions.get(slug) ?? []) : json(data.projects.get(slug));
  }
  if (path === "/projects") return page(data.owned.get((query.get("owner") ?? "").toLowerCase()) ?? []);
  const user = /^\/users\/([^/]+)$/.exec(path);
  if (user) return data.users.has(decodeURIComponent(user[1]!).toLowerCase()) ? json(data.users.get(decodeURIComponent(user[1]!).toLowerCase())) : notFound();
  return notFound();
}

function cfwidget(path: string, data: typeof DATA.curseforge, fetching: Set<string>): Response {
  const project = /^\/(\d+)$/.exec(path);
  if (project) {
    if (fetching.delete(project[1]!)) return json({ error: "in_queue", title: "Project queued", message: "Project is being fetched, retry in a few seconds" }, 202);
    return data.projects.has(project[1]!) ? json({ ...data.projects.get(project[1]!), last_fetch: "2025-01-06T00:00:00Z" }) : json({ error: "not_found", title: "Project not found" }, 404);
  }
  const author = /^\/author\/(?:(\d+)|search\/([^/]+))$/.exec(path);
  if (author) {
    const found = author[1] ? data.authors.get(author[1]) : [...data.authors.values()].find((a) => a.username.toLowerCase() === decodeURIComponent(author[2]!).toLowerCase());
    return found ? json(found) : json({ error: "not_found" }, 404);
  }
  return json({ error: "invalid_path", title: "Invalid path" }, 400);
}

function polymart(path: string, query: URLSearchParams, data: typeof DATA.polymart): Response {
  const request = { action: path.replace(/^\/|\/$/g, ""), time: 1_735_000_000 };
  const failed = { request, response: { success: false, errors: { global: "Not found" } } };
  if (query.get("stringify") !== "0") throw new Error("asked for numbers as strings");
  if (path === "/getResourceInfo/") {
    const found = data.resources.get(query.get("resource_id") ?? "");
    return json(found ? { request, response: { success: true, resource: found } } : failed);
  }
  if (path === "/getAccountInfo/") {
    const found = data.accounts.get(query.get("user_id") ?? "");
    return json(found ? { request, response: { success: true, user: found } } : failed);
  }
  return json(failed);
}

async function faulty(fault: PeerFault, delayMs: number): Promise<Response | null> {
  switch (fault) {
    case "none":
      return null;
    case "error":
      return new Response("<html><body>Internal Server Error</body></html>", { status: 500, headers: { "Content-Type": "text/html" } });
    case "unavailable":
      return new Response("Service Unavailable", { status: 503 });
    case "rate-limited":
      return new Response(JSON.stringify({ error: "ratelimited", description: "You are being rate-limited" }), {
        status: 429, headers: { "Content-Type": "application/json", "Retry-After": "30" },
      });
    case "slow":
      await Bun.sleep(delayMs);
      return null;
    case "slow-body": {
      const stream = new ReadableStream({
        async pull(controller) {
          await Bun.sleep(200);
          controller.enqueue(new TextEncoder().encode(" "));
        },
      });
      return new Response(stream, { headers: { "Content-Type": "application/json" } });
    }
    case "malformed":
      return new Response("<!doctype html><title>Cloudflare</title>", { headers: { "Content-Type": "application/json" } });
    case "wrong-shape":
      return json({ hello: "world", result: [], response: { success: true } });
    default:
      return null;
  }
}

/** The right answer, padded with 20 MiB. */
async function padded(response: Response): Promise<Response> {
  const body: any = await response.json();
  const padding = "x".repeat(20 * 1024 * 1024);
  return json(Array.isArray(body) ? [...body, padding] : { ...body, padding }, response.status);
}

/** `tls`: served over HTTPS at https://localhost:PORT with this certificate (PEM files) instead of plain HTTP on 127.0.0.1. */
export function startMarketPeers(tls?: { cert: string; key: string }): MarketPeers {
  const sites = Object.keys(PREFIXES) as MarketPeerSite[];
  const peers = {
    requests: Object.fromEntries(sites.map((site) => [site, [] as string[]])) as Record<MarketPeerSite, string[]>,
    fault: Object.fromEntries(sites.map((site) => [site, "none" as PeerFault])) as Record<MarketPeerSite, PeerFault>,
    delayMs: 10_000,
    data: DATA,
    cfwidgetFetching: new Set<string>(),
    icons: new Map<string, { type: string; body: Uint8Array }>(),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    ...(tls ? { tls: { cert: Bun.file(tls.cert), key: Bun.file(tls.key) } } : {}),
    async fetch(request) {
      const url = new URL(request.url);
      const site = sites.find((candidate) => url.pathname.startsWith(`${PREFIXES[candidate]}/`));
      if (!site) return new Response("no such site", { status: 404 });
      const path = url.pathname.slice(PREFIXES[site].length);
      peers.requests[site].push(path + url.search);
      if (!/^Pennant\/\S+ \(/.test(request.headers.get("user-agent") ?? "")) return new Response("name yourself", { status: 403 });
      if (path.startsWith("/icons/")) {
        const file = peers.icons.get(path.slice("/icons/".length));
        return file ? new Response(file.body, { headers: { "Content-Type": file.type } }) : new Response("no such icon", { status: 404 });
      }
      const followed = url.searchParams.has("followed");
      url.searchParams.delete("followed");
      if (peers.fault[site] === "redirect" && !followed) {
        const location = new URL(request.url);
        location.searchParams.set("followed", "1");
        return new Response(null, { status: 302, headers: { Location: location.href } });
      }
      const fault = await faulty(peers.fault[site], peers.delayMs);
      if (fault) return fault;
      const answer = (() => {
        switch (site) {
          case "modrinth": return modrinth(path, url.searchParams, DATA.modrinth);
          case "spigot": return spiget(path, url.searchParams, DATA.spigot);
          case "hangar": return hangar(path, url.searchParams, DATA.hangar);
          case "curseforge": return cfwidget(path, DATA.curseforge, peers.cfwidgetFetching);
          case "polymart": return polymart(path, url.searchParams, DATA.polymart);
        }
      })();
      return peers.fault[site] === "huge" ? padded(answer) : answer;
    },
  });
  const base = tls ? `https://localhost:${server.port}` : `http://127.0.0.1:${server.port}`;
  const urls = Object.fromEntries(sites.map((site) => [site, base + PREFIXES[site]])) as Record<MarketPeerSite, string>;
  const close = track(() => server.stop(true));
  return {
    ...peers,
    urls,
    env: Object.fromEntries(sites.map((site) => [VARIABLES[site], urls[site]])),
    get delayMs() {
      return peers.delayMs;
    },
    set delayMs(ms: number) {
      peers.delayMs = ms;
    },
    close,
  };
}

/** A day after the stand-ins' newest updates: "updated" reads the same every run. */
export const MARKET_NOW = Date.parse("2025-01-07T00:00:00Z");

/**
 * The stand-ins and a Pennant server pointed at them, on a clock at
 * MARKET_NOW, with a deadline of 500 ms and a draw budget no test spends;
 * both closed after the file (cleanup.ts).
 */
export async function startMarketServer(): Promise<{ peers: MarketPeers; server: TestServer }> {
  const peers = startMarketPeers();
  const server = await startTestServer({ ...peers.env, PENNANT_RATE_LIMIT: "100000/60" }, { clockStart: MARKET_NOW, marketTimeoutMs: 500 });
  return { peers, server };
}
