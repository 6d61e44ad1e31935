// The client address used for per-IP rate limits. Behind a reverse proxy the
// socket peer is the proxy, so with PENNANT_TRUST_PROXY on we read
// X-Forwarded-For. We take its LAST entry: proxies such as nginx append the
// address they saw, so earlier entries are whatever the client chose to send.
// That entry must be a plain IP address of sane length; anything else (a
// misconfigured proxy passing client text through) is never used as a key, and
// the socket address counts instead.

import { isIP } from "node:net";

/** Longer than any IP address, even an IPv6 one with a dotted quad and a zone id. */
const MAX_FORWARDED_ADDRESS_LENGTH = 64;

export function clientIp(
  request: Request,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    if (forwarded) {
      const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim();
      if (last.length <= MAX_FORWARDED_ADDRESS_LENGTH && isIP(last) !== 0) return last;
    }
  }
  return socketAddress ?? "unknown";
}

/** What Bun's server tells about a request's socket (null outside a server, as in tests of `app.handle`). */
export interface SocketInfo {
  requestIP(request: Request): { address: string } | null;
}

/** Client addresses of requests being answered: the log line and the IP budget ask for the same one. */
const clients = new WeakMap<Request, string>();

/**
 * clientIp of a request under a server, worked out once per request (Bun's
 * requestIP asks the socket each time; the observer and the per-IP budget
 * both need the address of every banner request).
 */
export function requestClientIp(request: Request, server: SocketInfo | null, trustProxy: boolean): string {
  let client = clients.get(request);
  if (client === undefined) {
    client = socketClientIp(request, server, trustProxy);
    clients.set(request, client);
  }
  return client;
}

/** clientIp of a request under a server, asked of the socket each time (for a path that asks once). */
export function socketClientIp(request: Request, server: SocketInfo | null, trustProxy: boolean): string {
  return clientIp(request, server?.requestIP(request)?.address, trustProxy);
}
