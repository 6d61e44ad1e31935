// The requests of the HTTP benches, as autocannon request lists. Plain
// JavaScript because the load generator (autocannon) runs under Node; the
// same module is imported by its tests under Bun (scenarios.d.mts gives the
// types). Signing follows the rules of docs/signed-api.md, written here from
// them (as test/support/signing.ts is), not from src/auth.
//
// Every request that must miss a cache or pass the replay guard is made
// unique by a counter and `run`, a tag unique to one load run.

import { createHmac } from "node:crypto";

/** The four banner sizes, smallest first. */
export const BANNER_SIZES = ["468x60", "728x90", "300x250", "1200x300"];
/** The server templates the bursts cycle through. */
export const SERVER_TEMPLATES = ["minimal-status", "classic", "card", "players-bar", "sparkline"];

/** One popular manual banner (the cached one); `index` picks one of several. */
export function cachedBannerPath(index = 0) {
  return `/api/banner?server_name=Skyblock%20${index}&online_players=1234&max_players=5000&motd_line_1=%C2%A7aWelcome%20back`;
}

/**
 * What an animated look adds: a second MOTD line and a join address, so that
 * motd cycles two states (6 frames) and stats three (9 frames), the most a
 * manual banner has.
 */
const ANIMATED_EXTRA = "&motd_line_2=%C2%A7bSecond%20line&ip_address=play.example.com";

/** A banner no earlier request asked for (unless `n` repeats); PNG at scale 1 unless `look` says otherwise. */
export function distinctBannerPath(run, n, size = BANNER_SIZES[0], template = SERVER_TEMPLATES[0], look = {}) {
  const animated = look.animate ? `&animate=${look.animate}${ANIMATED_EXTRA}` : "";
  const extra = `${look.format ? `&format=${look.format}` : ""}${look.scale ? `&scale=${look.scale}` : ""}${animated}`;
  return `/api/banner?template_key=${template}&size=${size}&server_name=Bench%20${run}-${n}&online_players=${n % 1000}&max_players=1000&motd_line_1=%C2%A7aHello${extra}`;
}

export function badgePath(pluginUuid) {
  return `/shields/plugins/${pluginUuid}/downloads.png`;
}

/** The badge styles the badge storm cycles through. */
export const BADGE_STYLES = ["flat", "flat-square", "plastic", "for-the-badge", "social"];

/** A badge no earlier request asked for (unless `n` repeats): the label says `run`, the colour is `n`'s; styles cycle. */
export function distinctBadgePath(pluginUuid, run, n) {
  const color = (n % 0x1000000).toString(16).padStart(6, "0");
  return `${badgePath(pluginUuid)}?style=${BADGE_STYLES[n % BADGE_STYLES.length]}&color=${color}&label=${encodeURIComponent(`bench ${run}`)}`;
}

/** A flat badge with a label no earlier request asked for (unless `n` repeats): a label never drawn before. */
function newLabelBadgePath(pluginUuid, run, n) {
  return `${badgePath(pluginUuid)}?label=${encodeURIComponent(`new ${run}-${n}`)}`;
}

/** A size Pennant does not draw: a 400 (an error image, as the client asks for one). */
export const BAD_BANNER_PATH = "/api/banner?size=100x100";

export function hmacHex(key, message) {
  return createHmac("sha256", key).update(message).digest("hex");
}

/**
 * POST /api/server/update for `server` (a token and the UUID it owns), its
 * body unique to `run` and `n` so that the replay guard accepts it.
 * `wrongKey` signs with another key: a 401.
 */
export function signedUpdate(server, n, nowMs, { run = "", wrongKey } = {}) {
  const body = JSON.stringify({
    name: `Bench server ${run}-${n}`, plugin_version: "1.0.0", status: "online",
    stats: { players: { online: n % 500, max: 500 }, tps: 20, motd: "Welcome!", version: "1.21.4" },
  });
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    method: "POST",
    path: "/api/server/update",
    headers: {
      "Content-Type": "application/json",
      "X-Server-UUID": server.uuid,
      "X-Server-Token": server.token,
      "X-Timestamp": timestamp,
      "X-Signature": hmacHex(wrongKey ?? server.token, `${timestamp}.${body}`),
    },
    body,
  };
}

const IMAGE = { Accept: "image/png" };

/**
 * The kinds of request, each an autocannon request (method, path, headers,
 * body, and setupRequest where each must differ) and the statuses it should
 * get. A counter shared by every connection makes requests unique.
 */
function kinds(params) {
  let n = 0;
  const run = params.run ?? "";
  const servers = params.servers ?? [];
  const cycle = params.cycle ?? Number.POSITIVE_INFINITY;
  const sizes = params.sizes ?? [BANNER_SIZES[0]];
  const templates = params.templates ?? [SERVER_TEMPLATES[0]];
  // Every size with every look: the look changes once per round of sizes.
  const looks = params.looks ?? [{}];
  let cached = 0;
  return {
    "cached banner": {
      expect: [200],
      request: (params.popular ?? 1) > 1
        ? { method: "GET", headers: IMAGE, setupRequest: (r) => ({ ...r, path: cachedBannerPath(cached++ % params.popular) }) }
        : { method: "GET", headers: IMAGE, path: cachedBannerPath(0) },
    },
    "distinct banner": {
      expect: [200],
      request: {
        method: "GET", headers: IMAGE,
        setupRequest: (r) => {
          const i = n++ % cycle;
          const look = looks[Math.floor(i / sizes.length) % looks.length];
          return { ...r, path: distinctBannerPath(run, i, sizes[i % sizes.length], templates[i % templates.length], look) };
        },
      },
    },
    "distinct badge": {
      expect: [200],
      request: { method: "GET", headers: IMAGE, setupRequest: (r) => ({ ...r, path: distinctBadgePath(params.pluginUuid, run, n++) }) },
    },
    "badge, new label": {
      expect: [200],
      request: { method: "GET", headers: IMAGE, setupRequest: (r) => ({ ...r, path: newLabelBadgePath(params.pluginUuid, run, n++) }) },
    },
    badge: { expect: [200], request: { method: "GET", headers: IMAGE, path: badgePath(params.pluginUuid) } },
    // Any one URL, the same every request: another service's image (bench/side-by-side), or one of ours it is set beside.
    "one path": { expect: [200], request: { method: "GET", headers: IMAGE, path: params.path } },
    "banner, If-None-Match": { expect: [304], request: { method: "GET", headers: { ...IMAGE, "If-None-Match": params.etags?.banner }, path: cachedBannerPath(0) } },
    "badge, If-None-Match": { expect: [304], request: { method: "GET", headers: { ...IMAGE, "If-None-Match": params.etags?.badge }, path: badgePath(params.pluginUuid) } },
    "signed update": { expect: [200], request: { setupRequest: (r) => { const i = n++; return { ...r, ...signedUpdate(servers[i % servers.length], i, Date.now(), { run }) }; } } },
    "bad banner query": { expect: [400], request: { method: "GET", headers: IMAGE, path: BAD_BANNER_PATH } },
    "bad signature": {
      expect: [401],
      request: { setupRequest: (r) => { const i = n++; return { ...r, ...signedUpdate(servers[i % servers.length], i, Date.now(), { run, wrongKey: "not the token" }) }; } },
    },
  };
}

/**
 * The mixed load, in every 40 requests: 21 cached banners (ten popular
 * URLs), 11 cached badges, 4 answered 304 (2 banners, 2 badges), 1 new
 * banner, 1 signed update and 2 bad requests (a 400 and a 401): views far
 * outnumber pushes, as on a live server. Each connection cycles through it
 * in order.
 */
export const MIX = [
  "cached banner", "badge", "cached banner", "cached banner", "badge", "banner, If-None-Match", "cached banner", "badge",
  "cached banner", "distinct banner", "cached banner", "badge", "cached banner", "badge, If-None-Match", "cached banner", "badge",
  "cached banner", "signed update", "cached banner", "badge", "cached banner", "bad banner query", "cached banner", "badge",
  "cached banner", "banner, If-None-Match", "cached banner", "badge", "cached banner", "badge, If-None-Match", "cached banner", "badge",
  "cached banner", "bad signature", "cached banner", "badge", "cached banner", "cached banner", "badge", "cached banner",
];

/**
 * The autocannon request list for a scenario: one kind of request (any key
 * of the kinds above) or "mixed". With `counts`, each answer's status is
 * counted under its kind there (counts[kind][status]).
 */
export function scenarioRequests(name, params, counts) {
  const all = kinds(params);
  const names = name === "mixed" ? MIX : [name];
  return names.map((kind) => {
    const entry = all[kind];
    if (!entry) throw new Error(`unknown scenario ${name}`);
    if (!counts) return { ...entry.request };
    const seen = (counts[kind] ??= {});
    return { ...entry.request, onResponse: (status) => { seen[status] = (seen[status] ?? 0) + 1; } };
  });
}

/** The statuses each kind of request should get. */
export function expectedStatuses(kind) {
  const entry = kinds({})[kind];
  if (!entry) throw new Error(`unknown kind ${kind}`);
  return entry.expect;
}
