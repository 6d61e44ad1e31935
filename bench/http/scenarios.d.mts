// Types of scenarios.mjs (plain JavaScript for Node) for the TypeScript benches and tests.

export interface SignedServer {
  token: string;
  uuid: string;
}

export interface ScenarioParams {
  /** A tag unique to one load run: "distinct" banners and signed bodies carry it, so no earlier run made them. */
  run?: string;
  /** Distinct banners repeat after this many (the cache-miss storm); none repeat by default. */
  cycle?: number;
  sizes?: string[];
  templates?: string[];
  /** Formats and scales distinct banners cycle through, each with every size (PNG at scale 1 by default). */
  looks?: BannerLook[];
  /** How many cached banner URLs to cycle through (1 by default). */
  popular?: number;
  pluginUuid?: string;
  servers?: SignedServer[];
  etags?: { banner: string; badge: string };
  /** The URL's path and query of "one path". */
  path?: string;
}

export interface BannerLook {
  format?: "png" | "webp" | "gif";
  scale?: 1 | 2;
  /** An animated banner (format gif or webp). */
  animate?: "motd" | "stats";
}

export interface ScenarioRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: ScenarioRequest) => ScenarioRequest;
  onResponse?: (status: number) => void;
}

export const BANNER_SIZES: string[];
export const SERVER_TEMPLATES: string[];
export const BAD_BANNER_PATH: string;
export const MIX: string[];
export function cachedBannerPath(index?: number): string;
export function distinctBannerPath(run: string, n: number, size?: string, template?: string, look?: BannerLook): string;
export function badgePath(pluginUuid: string): string;
export const BADGE_STYLES: string[];
export function distinctBadgePath(pluginUuid: string, run: string, n: number): string;
export function hmacHex(key: string, message: string): string;
export function signedUpdate(server: SignedServer, n: number, nowMs: number, options?: { run?: string; wrongKey?: string }): Required<Pick<ScenarioRequest, "method" | "path" | "headers" | "body">>;
export function scenarioRequests(name: string, params: ScenarioParams, counts?: Record<string, Record<string, number>>): ScenarioRequest[];
export function expectedStatuses(kind: string): number[];
