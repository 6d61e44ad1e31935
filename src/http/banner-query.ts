// The query of GET /api/banner, checked and turned into a BannerRequest.
// Every parameter given must be valid (400 otherwise, naming it); an empty
// one counts as absent (forum embeds built from forms leave blanks), and
// unknown ones are ignored (cache busters such as ?v=2).

import { BANNER_SIZES, type BannerSize, type ServerStatus, type Theme } from "../banner/model.ts";
import type { DataMode, ManualValues } from "../banner/resolve.ts";
import type { BannerRequest, ImageFormat } from "../banner/service.ts";
import { DEFAULT_TEMPLATE, templates } from "../banner/templates/index.ts";
import { parseAddress } from "../lookup/address.ts";
import type { Edition } from "../minecraft/edition.ts";
import { parseHexColor, type Color } from "../render/index.ts";
import { HttpError } from "./errors.ts";
import { parseUuid } from "./uuid.ts";

export type BannerQuery = Record<string, string | undefined>;

export const BANNER_LIMITS = {
  /** Characters of server_name (as a pushed name). */
  name: 128,
  /** Characters of each motd_line (room for § colour codes, 14 characters per hex colour). */
  motdLine: 512,
  /** Characters of ip_address (as GET /api/lookup). */
  address: 300,
  /** online_players and max_players (as pushes). */
  players: 1_000_000_000,
};

export const DEFAULT_SIZE: BannerSize = BANNER_SIZES[0];
const SIZE_NAMES = BANNER_SIZES.map((size) => `${size.width}x${size.height}`).join(", ");
/** How much of a bad value an error message repeats. */
const SHOWN_VALUE_CHARS = 40;

function bad(message: string): HttpError {
  return new HttpError(400, "invalid_request", message);
}

function shown(value: string): string {
  return JSON.stringify(value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}…` : value);
}

/** The value of `name`, trimmed; undefined when absent or empty. */
function read(query: BannerQuery, name: string): string | undefined {
  const value = query[name]?.trim();
  return value ? value : undefined;
}

function oneOf<T extends string>(query: BannerQuery, name: string, choices: readonly T[]): T | undefined {
  const raw = read(query, name);
  if (raw === undefined) return undefined;
  const found = choices.find((choice) => choice === raw.toLowerCase());
  if (!found) throw bad(`${name} must be ${choices.join(" or ")}, not ${shown(raw)}`);
  return found;
}

function wholeNumber(query: BannerQuery, name: string, max: number): number | undefined {
  const raw = read(query, name);
  if (raw === undefined) return undefined;
  const value = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(value <= max)) throw bad(`${name} must be a whole number from 0 to ${max}, not ${shown(raw)}`);
  return value;
}

function limitedText(query: BannerQuery, name: string, maxChars: number): string | undefined {
  const raw = read(query, name);
  if (raw !== undefined && raw.length > maxChars) throw bad(`${name} must be at most ${maxChars} characters`);
  return raw;
}

function color(query: BannerQuery, name: string): Color | undefined {
  const raw = read(query, name);
  if (raw === undefined) return undefined;
  const parsed = parseHexColor(raw.startsWith("#") ? raw : `#${raw}`);
  if (!parsed) throw bad(`${name} must be a hex colour (RGB, RRGGBB or RRGGBBAA, # optional), not ${shown(raw)}`);
  return parsed;
}

function uuid(query: BannerQuery, name: string): string | undefined {
  const raw = read(query, name);
  if (raw === undefined) return undefined;
  const parsed = parseUuid(raw);
  if (!parsed) throw bad(`${name} must be a UUID, not ${shown(raw)}`);
  return parsed;
}

function supported(size: BannerSize): boolean {
  return BANNER_SIZES.some((known) => known.width === size.width && known.height === size.height);
}

/** size=WxH, or width and height together; both forms must agree; only the spec's four sizes. */
function bannerSize(query: BannerQuery): BannerSize {
  const named = read(query, "size");
  let fromName: BannerSize | undefined;
  if (named !== undefined) {
    const match = /^(\d{1,5})x(\d{1,5})$/i.exec(named);
    if (!match) throw bad(`size must be one of ${SIZE_NAMES}, not ${shown(named)}`);
    fromName = { width: Number(match[1]), height: Number(match[2]) };
  }
  const width = wholeNumber(query, "width", 99_999);
  const height = wholeNumber(query, "height", 99_999);
  if ((width === undefined) !== (height === undefined)) throw bad(`width and height go together (or use size=WxH, one of ${SIZE_NAMES})`);
  const fromPair = width !== undefined && height !== undefined ? { width, height } : undefined;
  if (fromName && fromPair && (fromName.width !== fromPair.width || fromName.height !== fromPair.height)) {
    throw bad(`size ${named} and width/height ${width}x${height} disagree`);
  }
  const size = fromName ?? fromPair ?? DEFAULT_SIZE;
  if (!supported(size)) throw bad(`size ${size.width}x${size.height} is not supported; use one of ${SIZE_NAMES}`);
  return size;
}

/** The size an error image should have: the requested one when it is valid, else the default. */
export function errorImageSize(query: BannerQuery): BannerSize {
  try {
    return bannerSize(query);
  } catch {
    return DEFAULT_SIZE;
  }
}

function manualValues(query: BannerQuery): ManualValues {
  return {
    name: limitedText(query, "server_name", BANNER_LIMITS.name),
    status: oneOf<ServerStatus>(query, "server_status", ["online", "offline"]),
    online: wholeNumber(query, "online_players", BANNER_LIMITS.players),
    max: wholeNumber(query, "max_players", BANNER_LIMITS.players),
    motd1: limitedText(query, "motd_line_1", BANNER_LIMITS.motdLine),
    motd2: limitedText(query, "motd_line_2", BANNER_LIMITS.motdLine),
    address: limitedText(query, "ip_address", BANNER_LIMITS.address),
  };
}

export function parseBannerQuery(query: BannerQuery): BannerRequest {
  const key = read(query, "template_key")?.toLowerCase() ?? DEFAULT_TEMPLATE;
  const template = templates.get(key);
  if (!template) throw bad(`unknown template_key ${shown(key)}; GET /api/templates lists them`);
  const size = bannerSize(query);
  const theme = oneOf<Theme>(query, "theme", ["light", "dark"]) ?? template.defaultTheme;
  const scale = oneOf(query, "scale", ["1", "2"]) === "2" ? 2 : 1;
  const format = oneOf<ImageFormat>(query, "format", ["png", "webp"]) ?? "png";
  const mode = oneOf<DataMode>(query, "data_mode", ["manual", "query", "plugin"]) ?? "manual";
  const edition = oneOf<Edition>(query, "edition", ["java", "bedrock"]) ?? "java";
  const accent = color(query, "accent");
  const background = color(query, "background");
  const manual = manualValues(query);
  const serverUuid = uuid(query, "server_uuid") ?? null;
  const pluginUuid = uuid(query, "plugin_uuid") ?? null;

  if (manual.address !== undefined) {
    const parsed = parseAddress(manual.address, 25565);
    if (!parsed.ok) throw bad(`ip_address is not an address: ${parsed.reason}`);
  }
  if (template.kind === "plugin") {
    if (pluginUuid === null) throw bad(`template ${key} draws a plugin record: give plugin_uuid`);
    if (mode === "query") throw bad(`template ${key} draws a plugin record (plugin_uuid), not a live lookup`);
  } else if (mode === "query" && manual.address === undefined) {
    throw bad("data_mode=query needs ip_address (host, host:port or IP)");
  } else if (mode === "plugin" && serverUuid === null) {
    throw bad("data_mode=plugin needs server_uuid (the UUID the server's plugin pushes as)");
  }

  return {
    template,
    options: { size, theme, scale, accent, background },
    format,
    mode,
    manual,
    lookup: mode === "query" && manual.address !== undefined ? { address: manual.address, edition } : null,
    serverUuid,
    pluginUuid,
  };
}
