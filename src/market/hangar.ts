// Hangar's API v1 (hangar.papermc.io/api/v1; HangarMC/Hangar's controllers
// IProjectsController, IVersionsController, IUsersController and their
// models Project, ProjectStats, Version):
// - GET /projects/{slug}: name, namespace {owner, slug}, stats {downloads,
//   stars, watchers}, lastUpdated (ISO-8601), avatarUrl. Slugs are unique
//   on Hangar and /projects/{author}/{slug} is deprecated and ignores the
//   author, so the owner a badge names is checked here against the answer's.
// - GET /projects/{slug}/versions?limit=25: the newest versions, each with
//   createdAt and platformDependencies {PAPER: ["1.20", "1.20.1", ...]} (an
//   entry may be a range "1.8-1.21.4"): the game versions are those of the
//   RECENT_VERSIONS newest versions on Paper and Waterfall (Velocity numbers
//   its own versions).
// - GET /users/{user} and GET /projects?owner={user} for an author (up to
//   MAX_AUTHOR_PAGES pages of 25).
// Hangar has stars, not followers, and no rating.

import { releaseSpan } from "../minecraft/version-range.ts";
import { arrayOrEmpty, countOrNull, isoTimeOrNull, objectOrNull, requireObject, requireText, sumOrNull, textOrNull, webUrlOrNull, type JsonObject } from "./json-fields.ts";
import type { MarketAuthor, MarketProject } from "./market-project.ts";
import type { MarketSource } from "./market-source.ts";
import type { SiteClient } from "./site-client.ts";

/** Versions read for the newest one and the game versions: one page (Hangar's largest). */
const RECENT_VERSIONS = 25;
/** An author's projects: pages of 25, at most this many (100 projects). */
const MAX_AUTHOR_PAGES = 4;
const PROJECT_BYTES = 256 * 1024;
/** A page of versions with their descriptions (changelogs) or of projects. */
const PAGE_BYTES = 4 * 1024 * 1024;

/** The entries of one of Hangar's pages ({pagination, result}). */
function resultsOf(page: unknown): JsonObject[] {
  return arrayOrEmpty(objectOrNull(page)?.result).map(objectOrNull).filter((entry): entry is JsonObject => entry !== null);
}

function newestVersion(versions: JsonObject[]): string | null {
  let newest: { at: number; name: string } | null = null;
  for (const version of versions) {
    const name = textOrNull(version.name);
    const at = isoTimeOrNull(version.createdAt);
    if (name !== null && at !== null && (newest === null || at > newest.at)) newest = { at, name };
  }
  return newest?.name ?? null;
}

/** The platforms whose versions are the game's: Velocity's are its own ("3.3"), not Minecraft's. */
const GAME_PLATFORMS = ["PAPER", "WATERFALL"];

/** The game versions these versions support, on Paper and Waterfall. */
function gameVersions(versions: JsonObject[]): string[] {
  return versions.flatMap((version) => GAME_PLATFORMS.flatMap((platform) => arrayOrEmpty(objectOrNull(version.platformDependencies)?.[platform])))
    .filter((entry): entry is string => typeof entry === "string");
}

/** An author's projects, page after page, until the last or MAX_AUTHOR_PAGES. */
async function ownedProjects(client: SiteClient, owner: string): Promise<JsonObject[]> {
  const projects: JsonObject[] = [];
  for (let page = 0; page < MAX_AUTHOR_PAGES; page++) {
    const answer = objectOrNull(await client.json(`/projects?owner=${encodeURIComponent(owner)}&limit=25&offset=${page * 25}`, PAGE_BYTES));
    const listed = resultsOf(answer);
    projects.push(...listed);
    const total = countOrNull(objectOrNull(answer?.pagination)?.count) ?? 0;
    if (listed.length < 25 || projects.length >= total) break;
  }
  return projects;
}

export const HANGAR: MarketSource = {
  async project(client, ref): Promise<MarketProject | null> {
    const path = `/projects/${encodeURIComponent(ref.id)}`;
    const [project, page] = await Promise.all([
      client.json(path, PROJECT_BYTES),
      client.json(`${path}/versions?limit=${RECENT_VERSIONS}&offset=0`, PAGE_BYTES),
    ]);
    if (project === null) return null;
    const json = requireObject(project, "the project");
    const namespace = requireObject(json.namespace, "the project's namespace");
    const owner = requireText(namespace.owner, "the project's owner");
    if (ref.owner !== undefined && owner.toLowerCase() !== ref.owner.toLowerCase()) return null;
    const slug = textOrNull(namespace.slug) ?? ref.id;
    const stats = objectOrNull(json.stats);
    const versions = resultsOf(page);
    return {
      site: "hangar",
      id: `${owner}/${slug}`,
      slug,
      name: requireText(json.name, "the project's name"),
      author: owner,
      iconUrl: webUrlOrNull(json.avatarUrl),
      downloads: countOrNull(stats?.downloads),
      rating: null,
      followers: countOrNull(stats?.stars),
      latestVersion: newestVersion(versions),
      gameVersions: releaseSpan(gameVersions(versions)),
      updatedAt: isoTimeOrNull(json.lastUpdated),
    };
  },

  async author(client, ref): Promise<MarketAuthor | null> {
    const user = await client.json(`/users/${encodeURIComponent(ref.id)}`, PROJECT_BYTES);
    if (user === null) return null;
    const json = requireObject(user, "the user");
    const name = requireText(json.name, "the user's name");
    const projects = await ownedProjects(client, name);
    const stats = projects.map((project) => objectOrNull(project.stats));
    return {
      site: "hangar",
      id: name,
      name,
      iconUrl: webUrlOrNull(json.avatarUrl),
      projects: projects.length,
      downloads: sumOrNull(stats.map((stat) => countOrNull(stat?.downloads))),
      followers: sumOrNull(stats.map((stat) => countOrNull(stat?.stars))),
      rating: null,
    };
  },
};
