// What each site's module does: read a project and an author from the
// site's public API through its SiteClient into the one model. null: the
// site says there is no such project or author. A site that fails throws
// MarketUnavailable (site-client.ts).

import type { MarketAuthor, MarketProject, MarketRating } from "./market-project.ts";
import type { MarketRef } from "./market-refs.ts";
import type { SiteClient } from "./site-client.ts";

export interface MarketSource {
  project(client: SiteClient, ref: MarketRef): Promise<MarketProject | null>;
  author(client: SiteClient, ref: MarketRef): Promise<MarketAuthor | null>;
}

/** Several projects' ratings as one: the average weighted by votes (each rated project once when votes are unknown); null when none is rated. */
export function combinedRating(ratings: ReadonlyArray<MarketRating | null>): MarketRating | null {
  const rated = ratings.filter((rating): rating is MarketRating => rating !== null);
  if (rated.length === 0) return null;
  const weight = (rating: MarketRating) => rating.votes ?? 1;
  const weights = rated.reduce((sum, rating) => sum + weight(rating), 0);
  if (weights === 0) return null;
  const average = rated.reduce((sum, rating) => sum + rating.average * weight(rating), 0) / weights;
  const votes = rated.every((rating) => rating.votes !== null) ? weights : null;
  return { average, votes };
}
