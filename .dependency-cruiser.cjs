// The layer order of src, checked by `npm run check:layers` (part of `npm test`).
// Each floor imports only from the floors under it; every import counts, a type
// import as much as a value import (.ci/layers-babel.cjs keeps those for the check).
//
//   entry       src/index.ts, src/cli.ts      starts the server or runs a command
//   serve       src/serve                      the server's wiring: createApp, listening and
//                                              stopping, render threads and their garbage
//                                              policy, sweeps, the heap watch, the shared limits
//   http        src/http, src/metrics          routes, parameters, the request pipelines,
//                                              answers, /metrics
//   domains     src/banner, src/badge,         what is drawn, answered or sent; none imports
//               src/lookup, src/alerts,        another (http hands one's result to the next)
//               src/page
//   foundations src/store, src/auth,           storage, signatures, the game's rules
//               src/minecraft, src/render,     (minecraft and render import nothing of the
//               src/market                     project; store may import auth, never back),
//                                              the marketplaces' projects (market imports
//                                              minecraft, for version ranges, render/basics.ts,
//                                              for icons' headers, and shared leaves)
//   shared      src/*.ts (config, log, ...),   small leaves any floor but minecraft and
//               src/cache (the one cache type  render may use; they import only each other
//               and the budget that makes them)
//
// Data flows one way, down. The image pipeline (http) draws through a Drawer,
// a contract it defines (src/http/drawing/drawer.ts, with the DrawJob it hands
// over); serve implements it (the render pool, the drawer on the answering
// thread) and hands one to the pipeline in createApp. So too /healthz asks
// its LimitsHealthSource and /metrics its HeapWatchStats, which serve's shared
// limits and heap watch provide: what serve gives http is typed by http.
//
// Two rules cross the floors. No import cycles: a module never reaches itself
// through its imports, type imports included (two modules that need each other
// have no order to be read or loaded in; what they share goes to a module of
// its own, or what picks between them sits above both). Only the wiring imports
// a backend: SqliteStore (src/store/sqlite-store.ts), PostgreSQL's modules
// (src/store/postgres) and Redis's (src/store/redis); a backend's folder
// imports its own modules, no other backend. The wiring is the entry points and the two modules that
// open a backend for the rest: src/store/open-store.ts (the one choice of store)
// and src/serve/shared-limits.ts (Redis, for the shared rate limits); everything
// else holds a `Store` or a `Limits`.
//
// Outside src/render the engine is imported through src/render/index.ts, or through
// src/render/basics.ts for what draws nothing (what the answering thread loads). The
// script names the files ("src/**/*.ts"): given a folder, dependency-cruiser lists
// only files of the languages it can compile itself, and TypeScript 7 is not one.

const DOMAINS = "^src/(banner|badge|lookup|alerts|page)/";
const FOUNDATIONS = "^src/(store|auth|minecraft|render|market)/";
const ENTRY = "^src/(index|cli)\\.ts$";
const SERVE = "^src/serve/";
const HTTP = "^src/(http|metrics)/";
/** Top-level files other than the entry points, and the cache type with its budget. */
const SHARED = "^src/((?!(index|cli)\\.ts$)[^/]+$|cache/)";
const KNOWN = [ENTRY, SERVE, HTTP, DOMAINS, FOUNDATIONS, SHARED].map((floor) => `(${floor})`).join("|");
/** The modules that may import a backend: the entry points and the two that open one for the rest. */
const WIRING = `${ENTRY}|^src/store/open-store\\.ts$|^src/serve/shared-limits\\.ts$`;
/** The backends: SqliteStore, and PostgreSQL's and Redis's folders. */
const BACKENDS = "^src/store/(sqlite-store\\.ts$|postgres/|redis/)";
/** A backend's folder, whose modules import each other. */
const BACKEND_FOLDERS = "^src/store/(postgres|redis)/";
const ONLY_THE_WIRING = "only the wiring (the entry points, src/store/open-store.ts, src/serve/shared-limits.ts) imports a backend: everything else holds a Store or a Limits and never knows which backend is behind it";

/** A rule that `from` may import, inside src, only what matches `allowed`. */
function importsOnly(name, comment, from, allowed) {
  return { name, comment, severity: "error", from: { path: from }, to: { path: "^src/", pathNot: allowed } };
}

module.exports = {
  forbidden: [
    importsOnly(
      "render-imports-nothing-of-the-project",
      "src/render draws what it is given (paths, images, styled runs) and imports nothing else of the project: whoever has `§` text parses it with src/minecraft and hands render the runs",
      "^src/render/", "^src/render/",
    ),
    {
      name: "render-only-through-its-index",
      comment: "outside src/render, the engine is imported from src/render/index.ts, or src/render/basics.ts for what draws nothing: the modules behind them may move",
      severity: "error",
      from: { pathNot: "^src/render/" },
      to: { path: "^src/render/", pathNot: "^src/render/(index|basics)\\.ts$" },
    },
    importsOnly(
      "minecraft-imports-nothing-of-the-project",
      "src/minecraft holds the game's rules (the § format, MOTDs, versions, status) and imports nothing else of the project",
      "^src/minecraft/", "^src/minecraft/",
    ),
    importsOnly(
      "auth-imports-only-shared-leaves",
      "src/auth (tokens, signatures, the replay guard) imports only shared leaves: store keeps what auth defines, never the other way round",
      "^src/auth/", `^src/auth/|${SHARED}`,
    ),
    importsOnly(
      "market-imports-only-minecraft-and-shared-leaves",
      "src/market (the marketplaces' projects, fetched and cached) imports only minecraft (the game's version rules), src/render/basics.ts (an icon's format and size from its first bytes, nothing drawn) and shared leaves: badges and banners read it, never the other way round",
      "^src/market/", `^src/(market|minecraft)/|^src/render/basics\\.ts$|${SHARED}`,
    ),
    importsOnly(
      "store-imports-only-auth-and-shared-leaves",
      "src/store imports only auth (the token scopes and replay records it keeps) and shared leaves",
      "^src/store/", `^src/(store|auth)/|${SHARED}`,
    ),
    {
      name: "domains-do-not-import-each-other",
      comment: "banner, badge, lookup and alerts each import only foundations and shared leaves; what two need belongs to a foundation (minecraft, render, ...), and one's result reaches another through http",
      severity: "error",
      from: { path: DOMAINS },
      to: { path: DOMAINS, pathNot: "^src/$1/" },
    },
    importsOnly(
      "shared-leaves-import-only-each-other",
      "the top-level modules of src (config, log, ...) are leaves every floor may use; they import only each other",
      SHARED, SHARED,
    ),
    {
      name: "nothing-imports-serve",
      comment: "src/serve is the top floor under the entry points: only they (src/cli.ts starts the server) import it; http defines what it needs from serve (a Drawer, ...) and is handed it",
      severity: "error",
      from: { pathNot: `${ENTRY}|${SERVE}` },
      to: { path: SERVE },
    },
    {
      name: "nothing-imports-http",
      comment: "src/http and src/metrics (routes, the pipelines, answers) are imported only by the floors above them: serve, which wires them into an app, and the entry points",
      severity: "error",
      from: { pathNot: `${ENTRY}|${SERVE}|${HTTP}` },
      to: { path: HTTP },
    },
    {
      name: "nothing-imports-the-entry-points",
      comment: "src/index.ts runs src/cli.ts; nothing else imports either",
      severity: "error",
      from: { pathNot: "^src/index\\.ts$" },
      to: { path: ENTRY },
    },
    {
      name: "no-import-cycles",
      comment: "a module reaches itself through its imports (a type import counts): move what the two need into a module of its own, or put what picks between them above both",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "only-the-wiring-imports-a-backend",
      comment: ONLY_THE_WIRING,
      severity: "error",
      from: { pathNot: `${WIRING}|${BACKEND_FOLDERS}` },
      to: { path: BACKENDS },
    },
    {
      name: "only-the-wiring-imports-a-backend",
      comment: `${ONLY_THE_WIRING}; a backend's folder imports only its own backend`,
      severity: "error",
      from: { path: BACKEND_FOLDERS },
      to: { path: BACKENDS, pathNot: "^src/store/$1/" },
    },
    {
      name: "every-module-has-a-floor",
      comment: "a folder of src that is in no floor: add it to a floor in .dependency-cruiser.cjs",
      severity: "error",
      from: {},
      to: { path: "^src/", pathNot: KNOWN },
    },
    {
      name: "every-module-has-a-floor",
      comment: "a folder of src that is in no floor: add it to a floor in .dependency-cruiser.cjs",
      severity: "error",
      from: { path: "^src/", pathNot: KNOWN },
      to: {},
    },
  ],
  options: {
    includeOnly: "^src/",
    moduleSystems: ["es6"],
    babelConfig: { fileName: ".ci/layers-babel.cjs" },
  },
};
