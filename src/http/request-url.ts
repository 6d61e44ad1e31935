// Routing by the request's real path whatever its Host header says.
//
// Bun builds a request's URL from its Host header: "http://x/metrics" for
// "Host: x", and the path alone ("/metrics") when there is no Host (HTTP/1.0),
// an empty one or one that is not a host name ("a/b"). Elysia (1.4.30) cuts
// the path out of that URL at a fixed offset instead of parsing it: by
// default from the first "/" at index 11 or later, which assumes a host of
// four characters or more, so "Host: x" with "/zzzz/metrics" routed to
// /metrics, past a proxy's `location = /metrics`. Two settings put that right
// without work for a normal request:
//
// - ELYSIA_HANDLER: Elysia's own option to look from index 7, just after
//   "http://" (Pennant serves plain HTTP; TLS ends at the proxy), so a host
//   of any length is skipped whole;
// - absoluteUrl, given to `app.wrap` (app.ts): a URL of the path alone gets
//   an origin in front, one character compared per request (about 5 ns).
//   Bun's router already matched the real path; this is for Elysia's router
//   and for the query string of the routes Bun hands to Elysia. Elysia marks
//   `wrap` internal, but it is the one hook that runs before the path is
//   read, in Elysia's router and in those routes alike; the tests in
//   test/http/host-header.test.ts fail if it stops doing so.
//
// A Host that no URL can be made of ("%2f": Bun builds "http://%2f/path",
// which URL parsers refuse) is the client's error, a 400 (RFC 9112, 3.2:
// an invalid Host field value), answered by `hostHandling().refusal` before any
// route reads the URL. The check is one pass over the host's characters;
// only a host with a character outside the plain ones is parsed.

import { Elysia } from "elysia";
import { HttpError } from "./errors.ts";

/**
 * The request line's path and query: the URL from the first "/" after its
 * scheme's "//", where Elysia reads the path too (every URL a route sees is
 * absolute: absoluteUrl below).
 */
export function requestTarget(url: string): string {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  return path < 0 ? "/" : url.slice(path);
}

/** Elysia's `handler` setting: the path starts at the first "/" after "http://". */
export const ELYSIA_HANDLER = { standardHostname: false };

/** The origin given to a request that named no usable host; nothing reads its host. */
const NO_HOST_ORIGIN = "http://localhost";
const SLASH = 47;
const PATH_FROM = "http://".length;

/** Host name characters that need no parsing: letters, digits, "." and "-". */
function plainNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 46 || code === 45;
}

const COLON = 58;
const MAX_PORT = 65_535;

/**
 * Whether Bun's URL for a request can be parsed: a path alone, a plain name
 * with an optional port of at most 65535, or anything else a URL parser takes
 * ("a:99999", "%2f" and "[::1" it does not).
 */
export function hasUsableHost(url: string): boolean {
  if (url.charCodeAt(0) === SLASH) return true;
  let i = PATH_FROM;
  for (; i < url.length && plainNameChar(url.charCodeAt(i)); i++);
  if (url.charCodeAt(i) === COLON) {
    let port = 0;
    for (i++; i < url.length && url.charCodeAt(i) >= 48 && url.charCodeAt(i) <= 57 && port <= MAX_PORT; i++) port = port * 10 + url.charCodeAt(i) - 48;
    if (port > MAX_PORT) return false;
  }
  return url.charCodeAt(i) === SLASH || URL.canParse(url);
}

/**
 * Elysia's `wrap` and a plugin, for one app: `absoluteUrl` makes the URL of a
 * request that named no usable host absolute, in place (a new Request would
 * lose the socket Bun's requestIP asks about); one whose Host made no URL is
 * given a plain origin too, so its path routes and logs as usual, and
 * `refusal` (registered after the request observer) answers it with a 400
 * before its route runs.
 */
export function hostHandling() {
  const unusable = new WeakSet<Request>();
  return {
    absoluteUrl<Handler>(handle: Handler, request: Request): Handler {
      const url = request.url;
      if (url.charCodeAt(0) === SLASH) Object.defineProperty(request, "url", { value: NO_HOST_ORIGIN + url });
      else if (!hasUsableHost(url)) {
        unusable.add(request);
        const pathAt = url.indexOf("/", PATH_FROM);
        Object.defineProperty(request, "url", { value: NO_HOST_ORIGIN + (pathAt < 0 ? "/" : url.slice(pathAt)) });
      }
      return handle;
    },
    refusal: new Elysia({ name: "pennant/unusable-host" }).onRequest(({ request }) => {
      if (unusable.has(request)) throw new HttpError(400, "invalid_host", "the Host header is not a valid host name");
    }),
  };
}
