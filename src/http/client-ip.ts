// The client address used for per-IP rate limits. Behind a reverse proxy the
// socket peer is the proxy, so with PENNANT_TRUST_PROXY on we read
// X-Forwarded-For. We take its LAST entry: proxies such as nginx append the
// address they saw, so earlier entries are whatever the client chose to send.

export function clientIp(
  request: Request,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return socketAddress ?? "unknown";
}
