// A token's own records, read by its owner (the console at /console, or a
// script): GET /api/token/servers (each with the pushes of its UUID refused in
// the last day), a server's detail, its chart as SVG whether its page is on
// or off, GET /api/token/plugins with their badges' values, and GET
// /api/token/networks with their totals. Signed reads (signed-request.ts:
// X-Signature-Version 2 only, X-Server-Token, or X-Plugin-Token for the
// plugins), answered from what the token owns alone: another token's server
// reads exactly as a UUID nobody pushed (404 unknown_server).
//
// Refusals shown: of a server the token owns, every refused push naming its
// UUID, whoever sent it (a plugin with a wrong token says why the server stops
// updating); beyond, the refused pushes this token authenticated for UUIDs it
// has no server of (a new server over PENNANT_MAX_SERVERS_PER_TOKEN, another
// token's UUID), so a server that never appears says why. Nothing of another
// token's servers, nor which token another is.

import { Type, type TSchema } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { PLUGIN_METRICS } from "../badge/plugin-metrics.ts";
import type { Config } from "../config.ts";
import { stripFormatting } from "../minecraft/format.ts";
import { networkTotals } from "../minecraft/network-totals.ts";
import { chartSvg } from "../page/chart-svg.ts";
import type { ChartFrame } from "../page/chart-layout.ts";
import { pageHistories, serverFacts, serverPageView, type ServerFacts } from "../page/page-view.ts";
import { imageSnippets, serverSnippets, type SnippetGroup } from "../page/snippets.ts";
import { HISTORY_RANGES, isHistoryRange, type HistoryRange, type ServerHistories } from "../store/history-ranges.ts";
import type { NetworkView } from "../store/network-records.ts";
import { REFUSALS_KEPT_MS, type RefusalCount } from "../store/push-refusals.ts";
import { isPluginActive, type PluginRow, type ServerRow } from "../store/records.ts";
import { imageBodyHeaders } from "./answer-headers.ts";
import { HttpError } from "./errors.ts";
import type { HistoryChargeFor } from "./history-charge.ts";
import { errorResponses, jsonSuccess, literals, mergeCodes, nullable } from "./openapi/responses.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { historyChart, PAGE_CHARTS, serverPageLinks } from "./page-routes.ts";
import { SIGNED_READ_ERRORS, signedHeaders, verifySignedRead, type SignedDeps, type SignedInput } from "./signed-request.ts";
import { malformedUuidMessage, parseUuid } from "./uuid.ts";

export const TOKEN_PATHS = {
  servers: "/api/token/servers",
  server: "/api/token/servers/:server_uuid",
  chart: "/api/token/servers/:server_uuid/chart.svg",
  plugins: "/api/token/plugins",
  networks: "/api/token/networks",
} as const;

/** The chart's frames: the page's two, and a small one for a list of servers. */
const CHART_SIZES = { wide: PAGE_CHARTS.wide, narrow: PAGE_CHARTS.narrow, small: { width: 320, height: 120, fontSize: 10 } } as const satisfies Record<string, ChartFrame>;
type ChartSize = keyof typeof CHART_SIZES;

export interface TokenRouteDeps extends SignedDeps {
  config: SignedDeps["config"] & Pick<Config, "publicUrl" | "staleAfterSeconds">;
  histories: ServerHistories;
  /** History read from the store spends the client's draw budget, as the pages' reads do. */
  historyCharge: HistoryChargeFor;
}

const iso = (at: number) => new Date(at).toISOString();

const REFUSAL = Type.Object(
  {
    code: Type.String({ description: "The error code the push was refused with (docs/errors.md)" }),
    count: Type.Integer({ minimum: 1, description: "How many times in the last 24 hours" }),
    last_at: Type.String({ format: "date-time" }),
    by: literals(["this_token", "another_token", "unauthenticated"], { description: "Who sent the refused pushes: this token, another one (never which), or a request not authenticated (a wrong token, a bad signature)" }),
  },
  { title: "Refusal" },
);

const PLAYERS = nullable(Type.Object({ online: Type.Integer(), max: Type.Integer() }, { description: "Players now and slots, while online" }));

const SERVER_PROPERTIES = {
  uuid: Type.String({ format: "uuid" }),
  name: Type.String({ description: "The name its page shows: the pushed one unless it is the server software's, else the address" }),
  status: literals(["online", "offline"], { description: "As its banner reads it: a server not heard from for PENNANT_STALE_AFTER is offline" }),
  players: PLAYERS,
  version: nullable(Type.String()),
  motd: nullable(Type.Array(Type.String(), { description: "The MOTD's two lines as plain text" })),
  address: nullable(Type.String({ description: "The join address as players type it" })),
  last_push: Type.String({ format: "date-time" }),
  first_seen: Type.String({ format: "date-time" }),
  page_enabled: Type.Boolean({ description: "Whether /s/{uuid} is on (PUT /api/server/page)" }),
  refused: Type.Integer({ minimum: 0, description: "Pushes naming this UUID refused in the last 24 hours" }),
  refusals: Type.Array(REFUSAL, { description: "Those refusals by code and sender, the latest first" }),
};

const SERVERS = Type.Object(
  {
    servers: Type.Array(Type.Object(SERVER_PROPERTIES, { title: "OwnedServer" }), { description: "The most recently seen first" }),
    refused_elsewhere: Type.Array(Type.Object({ server_uuid: Type.String({ format: "uuid" }), refusals: Type.Array(REFUSAL) }), {
      description: "UUIDs this token pushed for in the last 24 hours that it has no server of, with why each push was refused",
    }),
  },
  { title: "OwnedServers" },
);

const SNIPPET_GROUPS = Type.Array(
  Type.Object({
    title: Type.String(),
    snippets: Type.Array(Type.Object({ id: Type.String(), syntax: literals(["HTML", "Markdown", "BBCode"]), text: Type.String() })),
  }),
  { description: "What its public page offers to copy: absolute under PENNANT_PUBLIC_URL, root-relative while it is unset" },
);

const RANGE_FIGURES = Type.Object({ uptime: nullable(Type.Number({ minimum: 0, maximum: 1 })), peak: nullable(Type.Integer()) });

const SERVER_DETAIL = Type.Object(
  {
    ...SERVER_PROPERTIES,
    since: Type.String({ format: "date-time", description: "Since when its status holds, as far as its history tells" }),
    ranges: Type.Object(Object.fromEntries(HISTORY_RANGES.map((range) => [range, RANGE_FIGURES])) as Record<HistoryRange, typeof RANGE_FIGURES>, {
      description: "Uptime (0 to 1) and peak players of each range; null where it holds no data yet",
    }),
    links: Type.Object({
      page: Type.String({ description: "Its public page (answers 404 while switched off)" }),
      banner: Type.String(),
      designer: Type.String({ description: "The designer, filled in with this server" }),
    }),
    snippets: SNIPPET_GROUPS,
  },
  { title: "OwnedServerDetail" },
);

const METRIC = Type.Object(
  {
    metric: Type.String({ description: "The badge metric (docs/badges.md)" }),
    label: Type.String(),
    message: Type.String({ description: "What its badge shows now" }),
    badge: Type.String({ description: "The badge's SVG URL" }),
    snippets: Type.Array(Type.Object({ id: Type.String(), syntax: literals(["HTML", "Markdown", "BBCode"]), text: Type.String() })),
  },
  { title: "PluginMetric" },
);

const PLUGINS = Type.Object(
  {
    plugins: Type.Array(
      Type.Object(
        {
          uuid: Type.String({ format: "uuid" }),
          name: nullable(Type.String()),
          version: nullable(Type.String()),
          active: Type.Boolean({ description: "Pushed within the last 24 hours" }),
          last_push: Type.String({ format: "date-time" }),
          first_seen: Type.String({ format: "date-time" }),
          stats: Type.Record(Type.String(), Type.Number(), { description: "The numbers its last push sent" }),
          metrics: Type.Array(METRIC, { description: "Every badge metric that has a value for it" }),
        },
        { title: "OwnedPlugin" },
      ),
      { description: "The most recently seen first" },
    ),
  },
  { title: "OwnedPlugins" },
);

const NETWORKS = Type.Object(
  {
    networks: Type.Array(
      Type.Object(
        {
          slug: Type.String(),
          name: Type.String(),
          servers: Type.Array(Type.Object({ uuid: Type.String({ format: "uuid" }), name: Type.String(), status: literals(["online", "offline"]), players: PLAYERS }), {
            description: "Its members in the order named",
          }),
          total: Type.Object({
            servers: Type.Integer(),
            online: Type.Integer({ description: "Of them, those online" }),
            players: nullable(Type.Object({ online: Type.Integer(), max: Type.Integer() }, { description: "Summed over the online servers, as its banner counts them" })),
          }),
          links: Type.Object({ page: Type.String(), banner: Type.String() }),
        },
        { title: "OwnedNetwork" },
      ),
      { description: "By slug" },
    ),
  },
  { title: "OwnedNetworks" },
);

const SERVER_PARAMS = t.Object({ server_uuid: t.String({ description: "The server's UUID, in any case" }) });
const CHART_QUERY = t.NoValidate(t.Object({
  range: choiceParameter(HISTORY_RANGES, "The chart's range: 24h (default), 7d, 30d or 1y"),
  size: choiceParameter(Object.keys(CHART_SIZES), "wide (default, 800x280, as on the page), narrow (340x230, the page on a phone) or small (320x120)"),
}));

/** Who sent a counted refusal, as its owner may know it. */
function refusalJson(refusal: RefusalCount, tokenId: number) {
  const by = refusal.tokenId === null ? "unauthenticated" : refusal.tokenId === tokenId ? "this_token" : "another_token";
  return { code: refusal.code, count: refusal.count, last_at: iso(refusal.lastAt), by };
}

function serverJson(row: ServerRow, facts: ServerFacts, refusals: readonly RefusalCount[], tokenId: number) {
  return {
    uuid: row.uuid,
    name: facts.name,
    status: facts.status,
    players: facts.players,
    version: facts.version,
    motd: facts.motd && facts.motd.map((line) => stripFormatting(line)),
    address: facts.address,
    last_push: iso(facts.lastPush),
    first_seen: iso(facts.firstSeen),
    page_enabled: row.pageEnabled,
    refused: refusals.reduce((sum, refusal) => sum + refusal.count, 0),
    refusals: refusals.map((refusal) => refusalJson(refusal, tokenId)),
  };
}

export function tokenRoutes(deps: TokenRouteDeps) {
  const staleAfterMs = deps.config.staleAfterSeconds * 1000;
  const at = (path: string) => `${deps.config.publicUrl ?? ""}${path}`;

  function serverInput(): SignedInput {
    return { scope: "server", tokenHeader: "X-Server-Token", schemes: ["request"], subject: () => "" };
  }

  /** An owned read: a stored token (registration is closed for reads), its id. */
  async function ownerOf(request: Request, socket: Parameters<typeof verifySignedRead>[1], input: SignedInput): Promise<number> {
    const { auth } = await verifySignedRead(request, socket, input, deps);
    return auth.tokenId!;
  }

  /** The token's server named by the path; another token's, one never pushed and a malformed UUID's alike but for the 400. */
  async function ownedServer(raw: string, tokenId: number): Promise<ServerRow> {
    const uuid = parseUuid(raw);
    if (uuid === null) throw new HttpError(400, "invalid_server_uuid", malformedUuidMessage("server", raw));
    const row = await deps.store.servers.get(uuid);
    if (!row || row.tokenId !== tokenId) throw new HttpError(404, "unknown_server", "this token has pushed no data for this server");
    return row;
  }

  /** The refusals of the last day that its owner may see, by server UUID (refusal-tally.ts). */
  async function refusalsOf(owned: ReadonlySet<string>, tokenId: number, now: number): Promise<Map<string, RefusalCount[]>> {
    // At most MAX_REFUSAL_ROWS rows in all: filtered here, in one read.
    const visible = (await deps.store.refusals.list(now - REFUSALS_KEPT_MS)).filter((refusal) => owned.has(refusal.serverUuid) || refusal.tokenId === tokenId);
    return Map.groupBy(visible, (refusal) => refusal.serverUuid);
  }

  const pluginMetrics = (row: PluginRow, now: number) =>
    [...PLUGIN_METRICS].flatMap(([metric, read]) => {
      const value = read.read(row, now);
      if (value === undefined) return [];
      const badge = at(`/shields/plugins/${row.uuid}/${metric}.svg`);
      return [{ metric, label: read.label, message: value.message, badge, snippets: imageSnippets(`plugin-${row.uuid}-${metric}`, `${row.name ?? "plugin"}: ${read.label}`, badge, null) }];
    });

  function networkJson(network: NetworkView, now: number) {
    const totals = networkTotals(network.servers, now, staleAfterMs);
    return {
      slug: network.slug,
      name: network.name,
      servers: network.servers.map((row) => {
        const facts = serverFacts(row, now, staleAfterMs);
        return { uuid: row.uuid, name: facts.name, status: facts.status, players: facts.players };
      }),
      total: { servers: totals.servers, online: totals.online, players: totals.players },
      links: { page: at(`/n/${network.slug}`), banner: at(`/api/banner?data_mode=network&network=${network.slug}`) },
    };
  }

  const described = (summary: string, description: string, body: TSchema, codes = {}) => ({
    summary,
    description: `${description} Signed over method and path (X-Signature-Version: 2, docs/signed-api.md); a read, not remembered. Used by the console (/console, docs/console.md).`,
    tags: ["owner"],
    responses: { 200: jsonSuccess("The token's own", body), ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, codes)) },
  });
  const SERVER_HEADERS = signedHeaders("X-Server-Token", {});

  return new Elysia({ name: "pennant/token" })
    .get(
      TOKEN_PATHS.servers,
      async ({ request, server }) => {
        const tokenId = await ownerOf(request, server, serverInput());
        const now = deps.now();
        const rows = await deps.store.servers.ownedBy(tokenId);
        const refusals = await refusalsOf(new Set(rows.map((row) => row.uuid)), tokenId, now);
        const servers = rows.map((row) => serverJson(row, serverFacts(row, now, staleAfterMs), refusals.get(row.uuid) ?? [], tokenId));
        for (const row of rows) refusals.delete(row.uuid);
        const elsewhere = [...refusals].map(([uuid, list]) => ({ server_uuid: uuid, refusals: list.map((refusal) => refusalJson(refusal, tokenId)) }));
        return { servers, refused_elsewhere: elsewhere };
      },
      {
        headers: SERVER_HEADERS,
        detail: described(
          "This token's servers: state, players, version, last push and the pushes refused in the last 24 hours",
          "Also the UUIDs this token pushed for in the last day without a server of its own to show, with why each was refused.",
          SERVERS,
        ),
      },
    )
    .get(
      TOKEN_PATHS.server,
      async ({ request, server, params }) => {
        const tokenId = await ownerOf(request, server, serverInput());
        const row = await ownedServer(params.server_uuid, tokenId);
        const now = deps.now();
        const [histories, refusals] = await Promise.all([
          pageHistories(deps.histories, row, now, deps.historyCharge(request, server)),
          refusalsOf(new Set([row.uuid]), tokenId, now),
        ]);
        const view = serverPageView(row, histories, now, staleAfterMs);
        const links = serverPageLinks(deps.config.publicUrl, row.uuid, "24h");
        const snippets: SnippetGroup[] = serverSnippets(view.name, links);
        return {
          ...serverJson(row, view, refusals.get(row.uuid) ?? [], tokenId),
          since: iso(view.since),
          ranges: view.ranges,
          links: { page: links.page, banner: links.banner, designer: at(`/#server_uuid=${row.uuid}`) },
          snippets,
        };
      },
      {
        params: SERVER_PARAMS,
        headers: SERVER_HEADERS,
        detail: described(
          "One of this token's servers: as listed, with uptime and peak of every range, its links and the snippets its page offers",
          "Another token's server and a UUID nobody pushed are the same 404 unknown_server. Its history read spends the client's draw budget (PENNANT_DRAW_BUDGET), as its page does.",
          SERVER_DETAIL,
          { 400: ["invalid_server_uuid"], 404: ["unknown_server"] },
        ),
      },
    )
    .get(
      TOKEN_PATHS.chart,
      async ({ request, server, params, query }) => {
        const tokenId = await ownerOf(request, server, serverInput());
        const row = await ownedServer(params.server_uuid, tokenId);
        const range = query.range ?? "24h";
        if (!isHistoryRange(range)) throw new HttpError(400, "invalid_range", `"range" must be one of ${HISTORY_RANGES.join(", ")}`);
        const size = query.size ?? "wide";
        if (!(size in CHART_SIZES)) throw new HttpError(400, "invalid_request", `"size" must be one of ${Object.keys(CHART_SIZES).join(", ")}`);
        const now = deps.now();
        const history = await deps.histories.read(row, range, now, deps.historyCharge(request, server));
        const svg = chartSvg(historyChart(history, row, now, CHART_SIZES[size as ChartSize]), { standalone: true });
        // Signed, so never shared: each request signs anew and no cache could answer the next.
        // The images' own policy too: an SVG opened on its own runs nothing and loads nothing.
        return new Response(svg, { headers: { ...imageBodyHeaders("image/svg+xml"), "Cache-Control": "private, no-store" } });
      },
      {
        params: SERVER_PARAMS,
        query: CHART_QUERY,
        headers: SERVER_HEADERS,
        detail: {
          summary: "One of this token's servers' players chart as SVG, its page on or off: the public page's chart (/s/{uuid}/chart.svg)",
          description:
            "Signed over method, path and query (X-Signature-Version: 2); a read, not remembered. The history read spends the client's draw budget. " +
            "Another token's server and a UUID nobody pushed are the same 404 unknown_server.",
          tags: ["owner"],
          responses: {
            200: { description: "The chart, light or dark as the reader's scheme", content: { "image/svg+xml": { schema: Type.String() } } },
            ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, { 400: ["invalid_server_uuid", "invalid_range", "invalid_request"], 404: ["unknown_server"] })),
          },
        },
      },
    )
    .get(
      TOKEN_PATHS.plugins,
      async ({ request, server }) => {
        const tokenId = await ownerOf(request, server, { scope: "plugin", tokenHeader: "X-Plugin-Token", schemes: ["request"], subject: () => "" });
        const now = deps.now();
        const plugins = (await deps.store.plugins.ownedBy(tokenId)).map((row) => ({
          uuid: row.uuid,
          name: row.name,
          version: row.version,
          active: isPluginActive(row, now),
          last_push: iso(row.lastSeen),
          first_seen: iso(row.firstSeen),
          stats: row.stats,
          metrics: pluginMetrics(row, now),
        }));
        return { plugins };
      },
      {
        headers: signedHeaders("X-Plugin-Token", {}),
        detail: described(
          "This token's plugins: name, version, activity, the numbers last pushed and each badge's value with its snippets",
          "Signed with X-Plugin-Token: a token of scope server is a 403 wrong_scope.",
          PLUGINS,
        ),
      },
    )
    .get(
      TOKEN_PATHS.networks,
      async ({ request, server }) => {
        const tokenId = await ownerOf(request, server, serverInput());
        const now = deps.now();
        return { networks: (await deps.store.networks.ownedBy(tokenId)).map((network) => networkJson(network, now)) };
      },
      {
        headers: SERVER_HEADERS,
        detail: described(
          "This token's networks: their servers with states and players, and the total their banner shows",
          "Made, changed and removed with PUT and DELETE /api/networks/{slug}.",
          NETWORKS,
        ),
      },
    );
}
