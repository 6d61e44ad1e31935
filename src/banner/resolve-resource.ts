// What the resource template draws, from what the marketplaces answer
// (src/market): a project, or an author's projects totalled, with the icon's
// bytes still encoded (decoded when drawn: banner-jobs.ts). An answer that is
// no project (unknown, malformed, the site unreachable with nothing cached,
// marketplaces off) is a MarketRefusal, which the HTTP layer answers.

import { MARKET_SITE_INFO, type MarketAnswer, type MarketAuthor, type MarketProject, type MarketService, type MarketSite } from "../market/market-project.ts";
import type { BannerElement, NumberStyle, ResourceBannerData } from "./model.ts";

/** ResourceBannerData with the icon still as the site served it: cheap to key and compare. */
export interface ResolvedResource extends Omit<ResourceBannerData, "icon"> {
  icon: Uint8Array | null;
}

/** What a resource banner shows: a project (its id, slug or owner/slug) or an author on one site. */
export type MarketTarget = { site: MarketSite; project: string } | { site: MarketSite; author: string };

/** A project's or author's icon, fetched and checked (src/market/project-icon.ts); null: the default icon. */
export interface IconSource {
  icon(site: MarketSite, url: string | null): Promise<Uint8Array | null>;
}

type Refused = Exclude<MarketAnswer<unknown>, { status: "found" }>;

/** The marketplace gave no project or author to draw: why, in `answer`. */
export class MarketRefusal extends Error {
  constructor(readonly answer: Refused, readonly target: MarketTarget) {
    super(refusalMessage(answer, target));
    this.name = "MarketRefusal";
  }
}

function refusalMessage(answer: Refused, target: MarketTarget): string {
  const { title } = MARKET_SITE_INFO[target.site];
  const what = "project" in target ? `project ${target.project}` : `author ${target.author}`;
  if (answer.status === "not_found") return `${what} not found on ${title}`;
  if (answer.status === "invalid") return answer.message;
  return answer.reason === "off" ? "marketplaces are off on this server" : `${title} unavailable: nothing cached for ${what}`;
}

interface Shown {
  hidden?: ReadonlySet<BannerElement>;
  numbers: NumberStyle;
}

function site(target: MarketTarget) {
  const info = MARKET_SITE_INFO[target.site];
  return { site: info.title, followersWord: info.followers };
}

export function resourceFromProject(project: MarketProject, icon: Uint8Array | null, target: MarketTarget, shown: Shown): ResolvedResource {
  return {
    of: "project", ...site(target), name: project.name, author: project.author, projects: null, icon,
    downloads: project.downloads, rating: project.rating, followers: project.followers,
    version: project.latestVersion, gameVersions: project.gameVersions, numbers: shown.numbers, ...(shown.hidden?.size ? { hidden: shown.hidden } : {}),
  };
}

export function resourceFromAuthor(author: MarketAuthor, icon: Uint8Array | null, target: MarketTarget, shown: Shown): ResolvedResource {
  return {
    of: "author", ...site(target), name: author.name, author: null, projects: author.projects, icon,
    downloads: author.downloads, rating: author.rating, followers: author.followers,
    version: null, gameVersions: null, numbers: shown.numbers, ...(shown.hidden?.size ? { hidden: shown.hidden } : {}),
  };
}

/**
 * The banner's data: the site's answer (cached by the market service; a
 * stale one is drawn as it is) and its icon, unless hidden. Throws
 * MarketRefusal when there is nothing to draw.
 */
export async function resolveResource(market: MarketService, icons: IconSource, target: MarketTarget, shown: Shown): Promise<ResolvedResource> {
  const wantsIcon = !shown.hidden?.has("icon");
  if ("project" in target) {
    const answer = await market.project(target.site, target.project);
    if (answer.status !== "found") throw new MarketRefusal(answer, target);
    const icon = wantsIcon ? await icons.icon(target.site, answer.value.iconUrl) : null;
    return resourceFromProject(answer.value, icon, target, shown);
  }
  const answer = await market.author(target.site, target.author);
  if (answer.status !== "found") throw new MarketRefusal(answer, target);
  const icon = wantsIcon ? await icons.icon(target.site, answer.value.iconUrl) : null;
  return resourceFromAuthor(answer.value, icon, target, shown);
}
