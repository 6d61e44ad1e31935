// Answers of the public image routes (banners, badges). An image is known by
// a strong ETag made from what it shows, so a client or CDN holding it gets a
// 304 without the image being drawn again. Errors become a small image when
// the client asked for an image (an <img> tag shows it) and JSON otherwise.

import { createHash } from "node:crypto";

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: "image/png" | "image/webp";
  /** A strong ETag (quoted), see etagOf. */
  etag: string;
}

/** The body of a 304, and of an image not read because the client holds it. */
export const NO_BYTES = new Uint8Array(0);

/** A strong ETag from the parts that decide every pixel (template, size, resolved data...). */
export function etagOf(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

/**
 * Whether If-None-Match names this ETag. RFC 9110 13.1.2: the comparison is
 * weak (W/"x" matches "x"), and "*" matches any current representation.
 */
export function matchesEtag(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/**
 * The image, or a bodiless 304 when the client already holds it. `headers` is
 * the answer's own record, completed here (not copied: a cached image is
 * answered thousands of times a second).
 */
export function imageResponse(
  request: Request,
  image: EncodedImage,
  headers: Record<string, string> = {},
  status = 200,
): Response {
  headers.ETag = image.etag;
  if (status === 200 && matchesEtag(request, image.etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = image.contentType;
  return new Response(image.bytes, { status, headers });
}

/**
 * Whether an error should be answered as an image: browsers ask for an <img>
 * with "image/..." in Accept (forum image proxies too); curl and
 * API clients send a wildcard or application/json and get the JSON error.
 */
export function acceptsImage(request: Request): boolean {
  return /\bimage\//i.test(request.headers.get("accept") ?? "");
}
