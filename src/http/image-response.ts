// What image answers ask of a request: whether the client holds the answer
// (If-None-Match against a strong ETag made from what is shown, so a client or
// CDN holding it gets a 304 without anything being drawn again), and whether
// it shows images (an <img> tag), so that an error is best answered as one.

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
 * Whether an error should be answered as an image: browsers ask for an <img>
 * with "image/..." in Accept (forum image proxies too); curl and
 * API clients send a wildcard or application/json and get the JSON error.
 */
export function acceptsImage(request: Request): boolean {
  return /\bimage\//i.test(request.headers.get("accept") ?? "");
}
