// SpigotMC's resources through Spiget (api.spiget.org/v2; its Swagger
// document SpiGetOrg/Documentation swagger.yml):
// - GET /resources/{resource}?fields=...: name, likes, downloads,
//   testedVersions, rating {count, average}, updateDate (seconds), icon {url,
//   relative to spigotmc.org}, author {id}; 404 when there is none. `fields`
//   leaves out the base64 description, which can be hundreds of KB.
// - GET /resources/{resource}/versions/latest: the latest version's name.
// - GET /resources/{resource}/author: the author's name.
// - GET /authors/{author} and /authors/{author}/resources for an author
//   (the first MAX_AUTHOR_RESOURCES, most downloaded first).
// Spigot has likes, not followers: the model's followers are its likes.

import { releaseSpan } from "../minecraft/version-range.ts";
import {
  arrayOrEmpty, countOrNull, numberOrNull, objectOrNull, requireObject, requireText, secondsTimeOrNull, sumOrNull, textOrNull, webUrlOrNull,
  type JsonObject,
} from "./json-fields.ts";
import type { MarketAuthor, MarketProject, MarketRating } from "./market-project.ts";
import { combinedRating, type MarketSource } from "./market-source.ts";

/** SpigotMC's site, which Spiget's icon URLs are relative to. */
const SPIGOT_SITE = "https://www.spigotmc.org/";
const RESOURCE_FIELDS = "id,name,likes,downloads,testedVersions,rating,updateDate,icon,author";
/** A resource without its description, a version, an author (their icon's base64 data included): a few KB each. */
const ANSWER_BYTES = 256 * 1024;
/** An author's resources counted: Spiget's pages hold up to 100. */
const MAX_AUTHOR_RESOURCES = 100;
const AUTHOR_RESOURCES_BYTES = 1024 * 1024;

/** An icon's address on spigotmc.org; null when the resource has none (Spiget then gives an empty url). */
function iconUrl(icon: unknown): string | null {
  const url = textOrNull(objectOrNull(icon)?.url);
  return url === null ? null : webUrlOrNull(new URL(url, SPIGOT_SITE).href);
}

function rating(value: unknown): MarketRating | null {
  const json = objectOrNull(value);
  const votes = countOrNull(json?.count);
  const average = numberOrNull(json?.average, 0, 5);
  return votes && average !== null ? { average, votes } : null;
}

export const SPIGET: MarketSource = {
  async project(client, ref): Promise<MarketProject | null> {
    const path = `/resources/${ref.id}`;
    const [resource, latest, author] = await Promise.all([
      client.json(`${path}?fields=${RESOURCE_FIELDS}`, ANSWER_BYTES),
      client.json(`${path}/versions/latest`, ANSWER_BYTES),
      client.json(`${path}/author`, ANSWER_BYTES),
    ]);
    if (resource === null) return null;
    const json = requireObject(resource, "the resource");
    return {
      site: "spigot",
      id: String(countOrNull(json.id) ?? ref.id),
      slug: null,
      name: requireText(json.name, "the resource's name"),
      author: textOrNull(objectOrNull(author)?.name),
      iconUrl: iconUrl(json.icon),
      downloads: countOrNull(json.downloads),
      rating: rating(json.rating),
      followers: countOrNull(json.likes),
      latestVersion: textOrNull(objectOrNull(latest)?.name),
      gameVersions: releaseSpan(arrayOrEmpty(json.testedVersions).filter((v): v is string => typeof v === "string")),
      updatedAt: secondsTimeOrNull(json.updateDate),
    };
  },

  async author(client, ref): Promise<MarketAuthor | null> {
    const path = `/authors/${ref.id}`;
    const [author, resources] = await Promise.all([
      client.json(path, ANSWER_BYTES),
      client.json(`${path}/resources?size=${MAX_AUTHOR_RESOURCES}&sort=-downloads&fields=id,downloads,likes,rating`, AUTHOR_RESOURCES_BYTES),
    ]);
    if (author === null) return null;
    const json = requireObject(author, "the author");
    const listed = arrayOrEmpty(resources).map(objectOrNull).filter((resource): resource is JsonObject => resource !== null);
    return {
      site: "spigot",
      id: String(countOrNull(json.id) ?? ref.id),
      name: requireText(json.name, "the author's name"),
      iconUrl: iconUrl(json.icon),
      projects: listed.length,
      downloads: sumOrNull(listed.map((resource) => countOrNull(resource.downloads))),
      followers: sumOrNull(listed.map((resource) => countOrNull(resource.likes))),
      rating: combinedRating(listed.map((resource) => rating(resource.rating))),
    };
  },
};
