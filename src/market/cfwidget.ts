// CurseForge through CFWidget (api.cfwidget.com; its documentation page,
// CFWidget/cfwidget templates/documentation.tmpl, and its models
// widget/models.go), which needs no CurseForge API key:
// - GET /{projectId}: title, thumbnail, downloads {total, monthly}, members
//   [{title, username}], files [{display, uploaded_at, versions}], versions
//   {gameVersion: files}, download (the file CFWidget picks: the newest
//   release, else beta, else alpha). 404: CurseForge has no such public
//   project; 400: not a project path. 202: CFWidget does not know the
//   project yet and fetches it, "retry in a few seconds" (asked once more
//   after RETRY_AFTER_MS).
// - GET /author/{id} or /author/search/{username}: {id, username, projects
//   [{id, name}]}; the totals read each project (at most MAX_AUTHOR_PROJECTS,
//   one after another as CFWidget asks: "a few concurrent requests per
//   second at peak").
// CurseForge shows no rating and no followers through CFWidget.

import { releaseSpan } from "../minecraft/version-range.ts";
import { arrayOrEmpty, countOrNull, isoTimeOrNull, objectOrNull, requireObject, requireText, sumOrNull, textOrNull, webUrlOrNull, type JsonObject } from "./json-fields.ts";
import type { MarketAuthor, MarketProject } from "./market-project.ts";
import type { MarketSource } from "./market-source.ts";
import { MarketUnavailable, type SiteClient } from "./site-client.ts";

/** A project with every file it ever had (thousands for the oldest mods), listed twice (files, versions). */
const PROJECT_BYTES = 8 * 1024 * 1024;
const AUTHOR_BYTES = 256 * 1024;
/** An author's projects read for the totals. */
const MAX_AUTHOR_PROJECTS = 20;
const RETRY_AFTER_MS = 1500;

/** The document at `path`, asked once more a moment later when CFWidget answers that it is still fetching it (202). */
async function fetched(client: SiteClient, path: string, maxBytes: number): Promise<unknown> {
  try {
    return await client.json(path, maxBytes, [400, 404]);
  } catch (error) {
    if (!(error instanceof MarketUnavailable && error.retrySoon)) throw error;
    await Bun.sleep(RETRY_AFTER_MS);
    return client.json(path, maxBytes, [400, 404]);
  }
}

function ownerName(members: unknown): string | null {
  const team = arrayOrEmpty(members).map(objectOrNull).filter((member): member is JsonObject => member !== null);
  return textOrNull((team.find((member) => member.title === "Owner") ?? team[0])?.username);
}

/** When a file was last uploaded: the project's last update. */
function lastUpload(files: unknown): number | null {
  const times = arrayOrEmpty(files).map((file) => isoTimeOrNull(objectOrNull(file)?.uploaded_at)).filter((at): at is number => at !== null);
  return times.length === 0 ? null : Math.max(...times);
}

function toProject(document: unknown): MarketProject {
  const json = requireObject(document, "the project");
  return {
    site: "curseforge",
    id: String(countOrNull(json.id) ?? requireText(json.id, "the project's id")),
    slug: null,
    name: requireText(json.title, "the project's title"),
    author: ownerName(json.members),
    iconUrl: webUrlOrNull(json.thumbnail),
    downloads: countOrNull(objectOrNull(json.downloads)?.total),
    rating: null,
    followers: null,
    latestVersion: textOrNull(objectOrNull(json.download)?.display) ?? textOrNull(objectOrNull(json.download)?.name),
    // The keys are CurseForge's game versions, loaders ("Forge") among them, which releaseSpan skips.
    gameVersions: releaseSpan(Object.keys(objectOrNull(json.versions) ?? {})),
    updatedAt: lastUpload(json.files),
  };
}

export const CFWIDGET: MarketSource = {
  async project(client, ref): Promise<MarketProject | null> {
    const document = await fetched(client, `/${ref.id}`, PROJECT_BYTES);
    return document === null ? null : toProject(document);
  },

  async author(client, ref): Promise<MarketAuthor | null> {
    const path = /^\d+$/.test(ref.id) ? `/author/${ref.id}` : `/author/search/${encodeURIComponent(ref.id)}`;
    const document = await fetched(client, path, AUTHOR_BYTES);
    if (document === null) return null;
    const json = requireObject(document, "the author");
    const ids = arrayOrEmpty(json.projects).map((project) => countOrNull(objectOrNull(project)?.id)).filter((id): id is number => id !== null);
    const projects: MarketProject[] = [];
    for (const id of ids.slice(0, MAX_AUTHOR_PROJECTS)) {
      const project = await fetched(client, `/${id}`, PROJECT_BYTES);
      if (project !== null) projects.push(toProject(project));
    }
    return {
      site: "curseforge",
      id: String(countOrNull(json.id) ?? ref.id),
      name: requireText(json.username, "the author's name"),
      iconUrl: null,
      projects: projects.length,
      downloads: sumOrNull(projects.map((project) => project.downloads)),
      followers: null,
      rating: null,
    };
  },
};
