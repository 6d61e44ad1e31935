// What an image route will draw, as a domain (banner, badge) hands it to the
// HTTP layer: a key that names the image and a job to draw it from. The key
// is a digest of everything that decides the image's bytes, so the HTTP layer
// can answer a client holding it (ETag, 304) and serve it from a cache
// without knowing what it shows. The job is plain data (it crosses to a
// render thread by structured clone), drawn only when no cache holds the key.

import { createHash } from "node:crypto";
import pkg from "../package.json" with { type: "json" };

export type ImageType = "image/png" | "image/webp" | "image/gif" | "image/svg+xml";

export interface ImagePlan<Job> {
  /** imageKey of everything drawn: the cache key, and (quoted) the strong ETag. */
  key: string;
  contentType: ImageType;
  /** What the image is drawn and encoded from (the same bytes for the same key, always). */
  job: Job;
  /**
   * Pixels the drawing fills (width x height, scale included): what a draw
   * costs grows with it, so the HTTP layer charges clients by it.
   */
  pixels: number;
  /** Frames drawn and encoded, each of `pixels` (an animated banner); absent: 1. */
  frames?: number;
  /**
   * Characters of the text drawn that the faces' tables do not shape
   * (charactersBeyondTables in src/render/basics.ts): fontkit shapes and
   * outlines them, tens of microseconds each, so the HTTP layer charges for
   * them beside the pixels. Absent: none (text of the tables, or an SVG).
   */
  textBeyondTables?: number;
  /** Heap bytes the plan keeps alive (its resolved data, its key), counted generously, for a cache that holds plans. */
  memory: number;
}

/**
 * Part of every key: a new release may draw the same description differently,
 * and a strong ETag must never name two different images.
 */
const DRAWING_VERSION = `pennant ${pkg.version}`;

/** A digest (27 base64url characters) of a description of what is drawn: each string as given, one after another. */
export function imageKey(description: readonly string[]): string {
  const hash = createHash("sha256").update(DRAWING_VERSION).update("\0");
  for (const text of description) hash.update(text).update("\0");
  return hash.digest("base64url").slice(0, 27);
}
