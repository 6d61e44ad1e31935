// Polymart's public API v1 (polymart.org/wiki/api: "make a request to
// https://api.polymart.org/v1/{action}"; parameters may be sent as GET
// parameters; `stringify=0` asks for numbers as numbers). Every answer is
// {"request": {...}, "response": {...}}; a failed one has response.success
// false (an unknown resource among them), whatever its HTTP status.
// - getResourceInfo?resource_id=: response.resource {id, title, owner {name},
//   downloads, thumbnailURL, reviews {count, stars}, updates {latest
//   {version, time}}} (the fields shields' Polymart badges read too).
// - getAccountInfo?user_id=: response.user (or .team) {username,
//   profilePictureURL, statistics {resourceCount, resourceDownloads,
//   resourceRatings, resourceAverageRating}}: the site's own totals.
// Polymart lists no game versions and no followers through this API.

import { countOrNull, numberOrNull, objectOrNull, requireObject, requireText, secondsTimeOrNull, textOrNull, webUrlOrNull } from "./json-fields.ts";
import type { MarketAuthor, MarketProject, MarketRating } from "./market-project.ts";
import type { MarketSource } from "./market-source.ts";
import type { SiteClient } from "./site-client.ts";

const ANSWER_BYTES = 256 * 1024;

/** The `response` of a successful answer; null when Polymart says it failed or the site answered 404. */
async function response(client: SiteClient, path: string): Promise<Record<string, unknown> | null> {
  const document = await client.json(`${path}&stringify=0`, ANSWER_BYTES);
  if (document === null) return null;
  const answer = requireObject(requireObject(document, "the answer").response, "the answer's response");
  return answer.success === false || answer.success === "false" ? null : answer;
}

function rating(count: unknown, stars: unknown): MarketRating | null {
  const votes = countOrNull(count);
  const average = numberOrNull(stars, 0, 5);
  return votes && average !== null ? { average, votes } : null;
}

export const POLYMART: MarketSource = {
  async project(client, ref): Promise<MarketProject | null> {
    const answer = await response(client, `/getResourceInfo/?resource_id=${ref.id}`);
    if (answer === null) return null;
    const resource = requireObject(answer.resource, "the resource");
    const reviews = objectOrNull(resource.reviews);
    const latest = objectOrNull(objectOrNull(resource.updates)?.latest);
    return {
      site: "polymart",
      id: String(countOrNull(resource.id) ?? ref.id),
      slug: null,
      name: requireText(resource.title, "the resource's title"),
      author: textOrNull(objectOrNull(resource.owner)?.name),
      iconUrl: webUrlOrNull(resource.thumbnailURL),
      downloads: countOrNull(resource.downloads),
      rating: rating(reviews?.count, reviews?.stars),
      followers: null,
      latestVersion: textOrNull(latest?.version),
      gameVersions: null,
      updatedAt: secondsTimeOrNull(latest?.time),
    };
  },

  async author(client, ref): Promise<MarketAuthor | null> {
    const answer = await response(client, `/getAccountInfo/?user_id=${ref.id}`);
    if (answer === null) return null;
    const account = requireObject(answer.user ?? answer.team, "the account");
    const statistics = objectOrNull(account.statistics);
    return {
      site: "polymart",
      id: String(countOrNull(account.id) ?? ref.id),
      name: requireText(account.username, "the account's name"),
      iconUrl: webUrlOrNull(account.profilePictureURL),
      projects: countOrNull(statistics?.resourceCount) ?? 0,
      downloads: countOrNull(statistics?.resourceDownloads),
      followers: null,
      rating: rating(statistics?.resourceRatings, statistics?.resourceAverageRating),
    };
  },
};
