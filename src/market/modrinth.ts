// Modrinth's API v2 (docs.modrinth.com; the OpenAPI document
// modrinth/code apps/docs/public/openapi.yaml, "Labrinth" v2.7):
// - GET /project/{id|slug}: title, downloads, followers, icon_url, updated
//   (ISO-8601), game_versions (every game version of every version); 404
//   when there is none (or it is private).
// - GET /project/{id|slug}/version?include_changelog=false: the versions
//   (version_number, date_published); the changelogs left out as the docs
//   advise ("highly recommended to set this to false").
// - GET /project/{id|slug}/members: the team; its author is the member whose
//   role is "Owner", else the first by ordering.
// - GET /user/{id|username} and /user/{id|username}/projects for an author.
// Modrinth rates nothing: rating stays null.

import { releaseSpan } from "../minecraft/version-range.ts";
import { arrayOrEmpty, countOrNull, isoTimeOrNull, objectOrNull, requireObject, requireText, sumOrNull, textOrNull, webUrlOrNull, type JsonObject } from "./json-fields.ts";
import type { MarketAuthor, MarketProject } from "./market-project.ts";
import type { MarketSource } from "./market-source.ts";

/** A project (its body is markdown of up to ~65,000 characters) and its team are small; the versions of a big mod run to a few MB. */
const PROJECT_BYTES = 1024 * 1024;
const VERSIONS_BYTES = 8 * 1024 * 1024;
/** A user's projects, bodies included (up to ~100 projects of 64 KB). */
const USER_PROJECTS_BYTES = 8 * 1024 * 1024;

/** The newest version's number, by date_published. */
function latestVersion(versions: unknown[]): string | null {
  let newest: { at: number; name: string } | null = null;
  for (const entry of versions) {
    const version = objectOrNull(entry);
    const name = textOrNull(version?.version_number);
    const at = isoTimeOrNull(version?.date_published);
    if (name !== null && at !== null && (newest === null || at > newest.at)) newest = { at, name };
  }
  return newest?.name ?? null;
}

/** The owner's username, else the first member's by ordering. */
function teamAuthor(members: unknown[]): string | null {
  const team = members.map(objectOrNull).filter((member): member is JsonObject => member !== null);
  const owner = team.find((member) => member.role === "Owner")
    ?? [...team].sort((a, b) => (countOrNull(a.ordering) ?? Infinity) - (countOrNull(b.ordering) ?? Infinity))[0];
  return textOrNull(objectOrNull(owner?.user)?.username);
}

export const MODRINTH: MarketSource = {
  async project(client, ref): Promise<MarketProject | null> {
    const path = `/project/${encodeURIComponent(ref.id)}`;
    const [project, versions, members] = await Promise.all([
      client.json(path, PROJECT_BYTES),
      client.json(`${path}/version?include_changelog=false`, VERSIONS_BYTES),
      client.json(`${path}/members`, PROJECT_BYTES),
    ]);
    if (project === null) return null;
    const json = requireObject(project, "the project");
    return {
      site: "modrinth",
      id: requireText(json.id, "the project's id"),
      slug: textOrNull(json.slug),
      name: requireText(json.title, "the project's title"),
      author: teamAuthor(arrayOrEmpty(members)),
      iconUrl: webUrlOrNull(json.icon_url),
      downloads: countOrNull(json.downloads),
      rating: null,
      followers: countOrNull(json.followers),
      latestVersion: latestVersion(arrayOrEmpty(versions)),
      gameVersions: releaseSpan(arrayOrEmpty(json.game_versions).filter((v): v is string => typeof v === "string")),
      updatedAt: isoTimeOrNull(json.updated),
    };
  },

  async author(client, ref): Promise<MarketAuthor | null> {
    const path = `/user/${encodeURIComponent(ref.id)}`;
    const [user, projects] = await Promise.all([client.json(path, PROJECT_BYTES), client.json(`${path}/projects`, USER_PROJECTS_BYTES)]);
    if (user === null) return null;
    const json = requireObject(user, "the user");
    const listed = arrayOrEmpty(projects).map(objectOrNull).filter((project): project is JsonObject => project !== null);
    return {
      site: "modrinth",
      id: requireText(json.id, "the user's id"),
      name: requireText(json.username, "the user's name"),
      iconUrl: webUrlOrNull(json.avatar_url),
      projects: listed.length,
      downloads: sumOrNull(listed.map((project) => countOrNull(project.downloads))),
      followers: sumOrNull(listed.map((project) => countOrNull(project.followers))),
      rating: null,
    };
  },
};
