// GET /api/market?site=...&project=... (or &author=...): what Pennant knows
// of a marketplace project or author, as its badges and banners show it,
// with when it was fetched and whether it is stale (the site failed since;
// the last value is served for up to a day). Open to any website (CORS),
// limited per client IP with banners and lookups. A site that cannot be asked
// answers 200 with status "unavailable" and why, as a failed lookup does: the
// site's failure is not ours.

import { Type, type Static } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Config } from "../config.ts";
import { isMarketSite, MARKET_SITES, type MarketAnswer, type MarketAuthor, type MarketProject, type MarketRating, type MarketService } from "../market/market-project.ts";
import { HttpError } from "./errors.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { errorResponses, jsonSuccess, literals, nullable } from "./openapi/responses.ts";
import type { Limiter } from "./rate-limit.ts";

export interface MarketRouteDeps {
  config: Config;
  markets: MarketService;
  ipLimiter: Limiter;
}

/** Described, not checked by Elysia: the route names the parameter at fault in its own words. */
const QUERY = t.NoValidate(
  t.Object({
    site: choiceParameter(MARKET_SITES, "modrinth, spigot, hangar, curseforge or polymart"),
    project: t.Optional(t.String({ maxLength: 200, description: "The project as the site names it (docs/markets.md); Hangar's as owner/slug" })),
    author: t.Optional(t.String({ maxLength: 200, description: "An author, instead of a project: their projects on the site totalled" })),
  }),
);

const count = nullable(Type.Integer({ minimum: 0 }));
const text = nullable(Type.String());
const RATING = nullable(Type.Object({ average: Type.Number({ minimum: 0, maximum: 5 }), votes: count }, { description: "Stars out of 5" }));
const PROJECT = Type.Object(
  {
    id: Type.String(), slug: text, name: Type.String(), author: text, icon_url: text, downloads: count, rating: RATING,
    followers: nullable(Type.Integer({ minimum: 0, description: "Modrinth's followers, Spigot's likes, Hangar's stars" })), latest_version: text,
    game_versions: nullable(Type.String({ description: "The releases supported as one range: \"1.20-1.21.4\"" })), updated_at: text,
  },
  { title: "MarketProject" },
);
const AUTHOR = Type.Object(
  { id: Type.String(), name: Type.String(), icon_url: text, projects: Type.Integer({ minimum: 0 }), downloads: count, followers: count, rating: RATING },
  { title: "MarketAuthor" },
);
export const MARKET_RESPONSE = Type.Object(
  {
    site: literals(MARKET_SITES),
    status: literals(["found", "unavailable"]),
    fetched_at: nullable(Type.String({ description: "When the site was last asked with success (ISO 8601)" })),
    stale: Type.Boolean({ description: "The site failed since fetched_at: this is the last value, served for up to a day" }),
    project: nullable(PROJECT),
    author: nullable(AUTHOR),
    error: nullable(Type.Object({ code: literals(["market_unavailable", "markets_off"]), message: Type.String() })),
  },
  { title: "MarketAnswer" },
);
type MarketJson = Static<typeof MARKET_RESPONSE>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const rating = (value: MarketRating | null) => (value === null ? null : { average: value.average, votes: value.votes });

function projectJson(project: MarketProject) {
  return {
    id: project.id, slug: project.slug, name: project.name, author: project.author, icon_url: project.iconUrl, downloads: project.downloads,
    rating: rating(project.rating), followers: project.followers, latest_version: project.latestVersion, game_versions: project.gameVersions,
    updated_at: iso(project.updatedAt),
  };
}

function authorJson(author: MarketAuthor) {
  return {
    id: author.id, name: author.name, icon_url: author.iconUrl, projects: author.projects, downloads: author.downloads, followers: author.followers,
    rating: rating(author.rating),
  };
}

/** The JSON of an answer found or unavailable; a refusal (invalid, not found) is thrown. */
function answerJson<T>(site: MarketJson["site"], answer: MarketAnswer<T>, what: "project" | "author", shown: (value: T) => object): MarketJson {
  const empty = { site, project: null, author: null };
  switch (answer.status) {
    case "invalid":
      throw new HttpError(400, "invalid_request", answer.message);
    case "not_found":
      throw new HttpError(404, `unknown_${what}`, `the site has no such ${what}`);
    case "unavailable":
      return {
        ...empty, status: "unavailable", fetched_at: null, stale: false,
        error: answer.reason === "off"
          ? { code: "markets_off", message: "this server fetches nothing from the marketplaces (PENNANT_MARKETS=off)" }
          : { code: "market_unavailable", message: "the site did not answer usably and nothing is kept; asked again in a minute" },
      };
    case "found":
      return { ...empty, [what]: shown(answer.value), status: "found", fetched_at: iso(answer.fetchedAt), stale: answer.stale, error: null };
  }
}

export function marketRoutes(deps: MarketRouteDeps) {
  return new Elysia().get(
    "/api/market",
    async ({ query, request, server, set }): Promise<MarketJson> => {
      await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
      const given: { site?: string; project?: string; author?: string } = query;
      const site = given.site ?? "";
      if (!isMarketSite(site)) throw new HttpError(400, "invalid_request", `"site" must be one of ${MARKET_SITES.join(", ")}`);
      if ((given.project === undefined) === (given.author === undefined)) throw new HttpError(400, "invalid_request", 'give either "project" or "author"');
      const answer = given.project !== undefined
        ? answerJson(site, await deps.markets.project(site, given.project), "project", projectJson)
        : answerJson(site, await deps.markets.author(site, given.author!), "author", authorJson);
      set.headers["Cache-Control"] = `public, max-age=${answer.status === "found" && !answer.stale ? 300 : 60}`;
      return answer;
    },
    {
      query: QUERY,
      detail: {
        summary: "A marketplace project or author as Pennant knows it (Modrinth, Spigot, Hangar, CurseForge, Polymart)",
        description:
          "Fetched from the site's public API by this server and cached 15 minutes (docs/markets.md). While the site fails, the last value " +
          "is answered for up to a day with stale=true; with none kept, status \"unavailable\" and error {code, message}. Open to any website " +
          "(CORS); limited per client IP with banners (PENNANT_RATE_LIMIT).",
        responses: {
          200: jsonSuccess("The project or author; cached 5 minutes (a minute when stale or unavailable)", MARKET_RESPONSE),
          ...errorResponses({ 400: ["invalid_request"], 404: ["unknown_project", "unknown_author"], 429: ["rate_limited"] }),
        },
        tags: ["markets"],
      },
    },
  );
}
