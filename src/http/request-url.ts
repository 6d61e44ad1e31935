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

/** Elysia's `handler` setting: the path starts at the first "/" after "http://". */
export const ELYSIA_HANDLER = { standardHostname: false };

/** The origin given to a request that named no usable host; nothing reads its host. */
const NO_HOST_ORIGIN = "http://localhost";
const SLASH = 47;

/**
 * An Elysia higher-order function (`app.wrap`): makes the URL of a request
 * that named no usable host absolute, in place (a new Request would lose the
 * socket Bun's requestIP asks about), and lets Elysia's handler go on.
 */
export function absoluteUrl<Handler>(handle: Handler, request: Request): Handler {
  const url = request.url;
  if (url.charCodeAt(0) === SLASH) Object.defineProperty(request, "url", { value: NO_HOST_ORIGIN + url });
  return handle;
}
