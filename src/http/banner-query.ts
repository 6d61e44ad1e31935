// The query of GET /api/banner, checked and turned into a BannerRequest.
// Every parameter of the table (banner-parameters.ts) that is given must be
// valid (400 otherwise, naming it); an empty one counts as absent (forum
// embeds built from forms leave blanks), and unknown ones are ignored (cache
// busters such as ?v=2). Then the rules between parameters.

import { BANNER_SIZES, type BannerSize } from "../banner/model.ts";
import type { BannerRequest } from "../banner/banner-service.ts";
import { parseAddress } from "../lookup/address.ts";
import { JAVA_PORT } from "../lookup/lookup-service.ts";
import { DEFAULT_EDITION } from "../minecraft/edition.ts";
import { MARKET_SITES } from "../market/market-project.ts";
import type { MarketTarget } from "../banner/resolve-resource.ts";
import type { TemplateInfo } from "../banner/templates/catalogue.ts";
import { BANNER_PARAMETERS, SIZE_NAMES, sizeName, type BannerParameter, type ParameterName, type ParameterValue } from "./banner-parameters.ts";
import { bad } from "./query-types.ts";

export type BannerQuery = Record<string, string | undefined>;

type Table = typeof BANNER_PARAMETERS;
/** The parameters given, as values. */
type Given = { [N in ParameterName]?: ParameterValue<N> };
/** The value of each parameter with a default, when it is left out. */
type Defaults = { [N in ParameterName as Table[N] extends { default: string } ? N : never]: ParameterValue<N> };

const NAMES = Object.keys(BANNER_PARAMETERS) as ParameterName[];

/** The value of `name`; undefined when absent or blank. */
function given<N extends ParameterName>(query: BannerQuery, name: N): ParameterValue<N> | undefined {
  const raw = query[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const { type }: BannerParameter<unknown> = BANNER_PARAMETERS[name];
  return type.read(type.untrimmed ? raw : raw.trim(), name) as ParameterValue<N>;
}

/** Read as if given, once: a default that is not a valid value stops the program at start. */
const DEFAULTS = Object.fromEntries(
  NAMES.flatMap((name) => {
    const parameter: BannerParameter<unknown> = BANNER_PARAMETERS[name];
    return parameter.default === undefined ? [] : [[name, given({ [name]: parameter.default }, name)]];
  }),
) as Defaults;

const SIZES = SIZE_NAMES.join(", ");

function supported(size: BannerSize): boolean {
  return BANNER_SIZES.some((known) => known.width === size.width && known.height === size.height);
}

/** size=WxH, or width and height together; both forms must agree; only the spec's four sizes. */
function bannerSize({ size: named, width, height }: Pick<Given, "size" | "width" | "height">): BannerSize {
  if ((width === undefined) !== (height === undefined)) throw bad(`width and height go together (or use size=WxH, one of ${SIZES})`);
  const fromPair = width !== undefined && height !== undefined ? { width, height } : undefined;
  if (named && fromPair && (named.width !== fromPair.width || named.height !== fromPair.height)) {
    throw bad(`size ${sizeName(named)} and width/height ${width}x${height} disagree`);
  }
  const size = named ?? fromPair ?? DEFAULTS.size;
  if (!supported(size)) throw bad(`size ${sizeName(size)} is not supported; use one of ${SIZES}`);
  return size;
}

/** The size an error image should have: the requested one when it is valid, else the default. */
export function errorImageSize(query: BannerQuery): BannerSize {
  try {
    return bannerSize({ size: given(query, "size"), width: given(query, "width"), height: given(query, "height") });
  } catch {
    return DEFAULTS.size;
  }
}

/** A market template's project or author (parseBannerQuery has checked that one is given, with the site). */
function marketTarget(template: TemplateInfo, { site, project, author }: Pick<Given, "site" | "project" | "author">): MarketTarget | null {
  if (template.kind !== "market" || site === undefined) return null;
  return project !== undefined ? { site, project } : author !== undefined ? { site, author } : null;
}

export function parseBannerQuery(query: BannerQuery): BannerRequest {
  const values: Given = Object.fromEntries(NAMES.map((name) => [name, given(query, name)]));
  const template = values.template_key ?? DEFAULTS.template_key;
  const size = bannerSize(values);
  const mode = values.data_mode ?? DEFAULTS.data_mode;
  const manual = {
    name: values.server_name,
    status: values.server_status,
    online: values.online_players,
    max: values.max_players,
    motd1: values.motd_line_1,
    motd2: values.motd_line_2,
    address: values.ip_address,
    // Absent, a pushed record's edition (else Java) decides: manual values win only where given.
    edition: values.edition,
  };
  const serverUuid = values.server_uuid ?? null;
  const network = values.network ?? null;
  const pluginUuid = values.plugin_uuid ?? null;

  if (manual.address !== undefined) {
    const parsed = parseAddress(manual.address, JAVA_PORT);
    if (!parsed.ok) throw bad(`ip_address is not an address: ${parsed.reason}`);
  }
  if (template.kind === "market") {
    if (values.site === undefined) throw bad(`template ${template.key} draws a marketplace's project: give site (${MARKET_SITES.join(", ")})`);
    if ((values.project === undefined) === (values.author === undefined)) throw bad(`template ${template.key} draws a project or an author: give project or author, one of them`);
  } else if (template.kind === "plugin") {
    if (pluginUuid === null) throw bad(`template ${template.key} draws a plugin record: give plugin_uuid`);
    if (mode === "query") throw bad(`template ${template.key} draws a plugin record (plugin_uuid), not a live lookup`);
    if (mode === "network") throw bad(`template ${template.key} draws a plugin record (plugin_uuid), not a network`);
  } else if (mode === "query" && manual.address === undefined) {
    throw bad("data_mode=query needs ip_address (host, host:port or IP)");
  } else if (mode === "plugin" && serverUuid === null) {
    throw bad("data_mode=plugin needs server_uuid (the UUID the server's plugin pushes as)");
  } else if (mode === "network" && network === null) {
    throw bad("data_mode=network needs network (the network's slug)");
  }

  const animate = values.animate ?? null;
  if (animate !== null) {
    if (template.kind !== "server") {
      const draws = template.kind === "plugin" ? "a plugin record" : "a marketplace's project";
      throw bad(`template ${template.key} draws ${draws}: animate is for the server templates`);
    }
    if (values.format === "png") throw bad(`animate=${animate} draws an animation: use format=gif or format=webp, not png`);
  }

  const scale = values.scale ?? DEFAULTS.scale;
  return {
    template,
    options: { size, theme: values.theme ?? template.defaultTheme, scale: scale === "2" ? 2 : 1, accent: values.accent, background: values.background },
    // An animation without a format is a GIF: what every list that takes animations takes.
    format: values.format ?? (animate ? "gif" : DEFAULTS.format),
    animate,
    mode,
    manual,
    lookup: mode === "query" && manual.address !== undefined ? { address: manual.address, edition: manual.edition ?? DEFAULT_EDITION } : null,
    serverUuid,
    network,
    pluginUuid,
    counters: { names: values.stats ?? null, numbers: values.numbers ?? DEFAULTS.numbers },
    market: marketTarget(template, values),
    // In the order of BANNER_ELEMENTS (choiceList), so any spelling of one list keys one image.
    hidden: values.hide?.length ? new Set(values.hide) : undefined,
    historyRange: values.range ?? DEFAULTS.range,
  };
}
