// Requests to every public route, each started from a valid one (a banner of
// every data mode and template, a lookup, a badge of every metric in both
// formats, the service routes) and then mutated: parameters changed,
// duplicated, dropped or added, path segments damaged, bytes flipped, odd
// methods and headers. About one case in six is left valid, so that the
// accepted paths (drawing, caches, 304) are fuzzed as well.

import { BANNER_SIZES } from "../../../src/banner/model.ts";
import { templates } from "../../../src/banner/templates/catalogue.ts";
import { PLUGIN_METRICS } from "../../../src/badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../../../src/badge/server-metrics.ts";
import { STYLE_NAMES } from "../../../src/badge/styles.ts";
import { damageBytes, hostileValue, joinParams, mutateParams, percentEncode } from "./mutate.ts";
import { STUB_NAMES } from "./no-network-lookup.ts";
import { isWireInvalid, type FuzzRequest } from "./oracle.ts";
import type { Random } from "./random.ts";

/** Records the fuzzed routes can find (pushed before the campaign). */
export interface PublicContext {
  serverUuids: readonly string[];
  pluginUuids: readonly string[];
}

type Params = Array<[string, string]>;

const BANNER_PARAMS = [
  "server_name", "ip_address", "online_players", "max_players", "server_status", "motd_line_1", "motd_line_2", "template_key",
  "theme", "width", "height", "size", "format", "data_mode", "server_uuid", "plugin_uuid", "edition", "scale", "accent", "background",
];
const BADGE_PARAMS = ["style", "label", "color", "labelColor", "colorA", "colorB", "scale", "cacheSeconds", "logo"];
const LOOKUP_PARAMS = ["address", "edition"];

const SERVER_TEMPLATES = [...templates.values()].filter((info) => info.kind === "server").map((info) => info.key);
const PLUGIN_TEMPLATES = [...templates.values()].filter((info) => info.kind === "plugin").map((info) => info.key);
const SIZES = BANNER_SIZES.map((size) => `${size.width}x${size.height}`);
const ADDRESSES = [...STUB_NAMES, "93.184.216.34", "93.184.216.34:25566", "[2606:4700::1]:19132", "127.0.0.1", "10.0.0.1:25565", "localhost"];

function some(random: Random, params: Params): Params {
  return params.filter(() => random.chance(0.7));
}

function bannerBase(random: Random, ctx: PublicContext): Params {
  const look: Params = some(random, [
    ["size", random.weighted([[6, SIZES[0]!], [1, SIZES[1]!], [1, SIZES[2]!], [1, SIZES[3]!]])],
    ["theme", random.pick(["dark", "light"])],
    ["accent", random.pick(["ff8800", "#0af", "12345678"])],
    ["background", random.pick(["101010", "ffffff80"])],
    ["scale", random.weighted([[5, "1"], [1, "2"]])],
    ["format", random.weighted([[8, "png"], [1, "webp"]])],
  ]);
  const mode = random.int(4);
  if (mode === 0) {
    return [["template_key", random.pick(SERVER_TEMPLATES)], ...look, ...some(random, [
      ["server_name", percentEncode(random.pick(["My Server", "§6Gold §lCraft", "中文服务器", "A".repeat(128)]))],
      ["online_players", String(random.int(200))],
      ["max_players", String(100 + random.int(900))],
      ["server_status", random.pick(["online", "offline"])],
      ["motd_line_1", percentEncode("§aWelcome to §lthe server")],
      ["motd_line_2", percentEncode("§7Second line")],
    ])];
  }
  if (mode === 1) {
    return [["template_key", random.pick(SERVER_TEMPLATES)], ["data_mode", "query"], ["ip_address", percentEncode(random.pick(ADDRESSES))], ["edition", random.pick(["java", "bedrock"])], ...look];
  }
  if (mode === 2) {
    return [["template_key", random.pick(SERVER_TEMPLATES)], ["data_mode", "plugin"], ["server_uuid", random.pick(ctx.serverUuids)], ...look];
  }
  return [["template_key", random.pick(PLUGIN_TEMPLATES)], ["plugin_uuid", random.pick(ctx.pluginUuids)], ...look];
}

function badgeParams(random: Random): Params {
  return some(random, [
    ["style", random.pick(STYLE_NAMES)],
    ["label", percentEncode(random.pick(["players", "", "§a", "x".repeat(64)]))],
    ["color", random.pick(["green", "ff8800", "brightgreen", "rgb(1,2,3)"])],
    ["labelColor", random.pick(["555", "blue"])],
    ["scale", random.pick(["1", "2"])],
    ["cacheSeconds", random.pick(["60", "86400"])],
  ]).filter(() => random.chance(0.6));
}

function damagedUuid(random: Random, uuid: string): string {
  return random.pick([
    uuid.toUpperCase(),
    uuid.replaceAll("-", ""),
    `{${uuid}}`,
    uuid.slice(0, 35),
    `${uuid}0`,
    percentEncode(uuid),
    uuid.replace(/-/, "%2D"),
    "00000000-0000-0000-0000-000000000000",
    hostileValue(random, 100),
    "..",
    "%2e%2e",
  ]);
}

interface Base {
  path: string;
  params: Params;
  names: readonly string[];
}

function base(random: Random, ctx: PublicContext): Base {
  return random.weighted<() => Base>([
    [40, () => ({ path: "/api/banner", params: bannerBase(random, ctx), names: BANNER_PARAMS })],
    [12, () => ({ path: "/api/lookup", params: [["address", percentEncode(random.pick(ADDRESSES))], ["edition", random.pick(["java", "bedrock"])]], names: LOOKUP_PARAMS })],
    [14, () => {
      const metric = random.pick([...PLUGIN_METRICS.keys()]);
      return { path: `/shields/plugins/${random.pick(ctx.pluginUuids)}/${metric}.${random.pick(["png", "svg", "json"])}`, params: badgeParams(random), names: BADGE_PARAMS };
    }],
    [14, () => {
      const metric = random.pick([...SERVER_METRICS.keys()]);
      return { path: `/shields/servers/${random.pick(ctx.serverUuids)}/${metric}.${random.pick(["png", "svg", "json"])}`, params: badgeParams(random), names: BADGE_PARAMS };
    }],
    [3, () => ({ path: "/api/templates", params: [], names: ["template_key"] })],
    [5, () => ({ path: "/healthz", params: [], names: ["x"] })],
    [3, () => ({ path: "/metrics", params: [], names: ["x"] })],
    [3, () => ({ path: random.pick(["/", "/openapi", "/openapi/json", "/docs", "/favicon.ico", "/api", "/shields"]), params: [], names: ["x"] })],
  ])();
}

/** Damages one path segment: the UUID, the metric, the extension, or the shape of the path. */
function damagePath(random: Random, path: string): string {
  const segments = path.split("/");
  const i = 1 + random.int(segments.length - 1);
  const segment = segments[i]!;
  if (/^[0-9a-f-]{36}$/.test(segment)) segments[i] = damagedUuid(random, segment);
  else if (segment.includes(".")) segments[i] = random.pick([segment.replace(/\.\w+$/, ".svg"), segment.replace(/\.\w+$/, ""), `${segment}.png`, segment.toUpperCase(), `${hostileValue(random, 80)}.png`, `.${segment}`]);
  else segments[i] = random.pick(["", segment.toUpperCase(), `${segment}/`, percentEncode(segment), `${segment}%2F`, `${segment}#frag`, ".", "..", hostileValue(random, 50)]);
  return segments.join("/");
}

const METHODS: ReadonlyArray<readonly [number, string]> = [[90, "GET"], [5, "HEAD"], [1, "POST"], [1, "OPTIONS"], [1, "DELETE"], [1, "PUT"], [1, "PATCH"], [0.3, "FOO"]];

function headers(random: Random): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  const accept = random.weighted<string | null>([[4, null], [3, "image/*"], [1, "image/webp,image/apng,image/*,*/*;q=0.8"], [2, "application/json"], [1, "*/*"], [0.5, hostileValue(random, 200)]]);
  if (accept !== null) list.push(["Accept", accept]);
  if (random.chance(0.08)) list.push(["If-None-Match", random.pick(["*", '"abc"', 'W/"x"', hostileValue(random, 300)])]);
  if (random.chance(0.05)) list.push(["X-Forwarded-For", random.pick(["1.2.3.4", "::1", hostileValue(random, 500)])]);
  if (random.chance(0.03)) list.push(["Authorization", `Bearer ${hostileValue(random, 100)}`]);
  if (random.chance(0.02)) list.push(["X-Pad", "p".repeat(random.length(30_000))]);
  return list;
}

/** One public request: a valid one, mutated `0..4` times. */
export function publicCase(random: Random, ctx: PublicContext): FuzzRequest {
  const { path: validPath, params, names } = base(random, ctx);
  const mutations = random.weighted([[1, 0], [2, 1], [2, 2], [1, 3], [1, 4]]);
  let path = validPath;
  for (let n = 0; n < mutations; n++) {
    if (random.chance(0.15)) path = damagePath(random, path);
    else mutateParams(random, params, names, 20_000);
  }
  let query = joinParams(params, random);
  if (mutations > 0 && random.chance(0.15)) query = damageBytes(random, query, random.chance(0.2));
  const target = query === "" && random.chance(0.8) ? path : `${path}?${query}`;
  const list = headers(random);
  const method = random.weighted(METHODS);
  return { method, target, headers: list, wireInvalid: isWireInvalid(method, target, list) };
}
