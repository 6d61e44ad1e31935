// Whether a server is online, as banners, badges and the CLI show it. A live
// lookup knows at once; a pushed record only says what the server last
// reported, and a crashed server never reports "offline": its record goes
// stale instead.

export type ServerStatus = "online" | "offline";

/**
 * The status a pushed record shows at `now`: what the server last pushed, but
 * offline once no heartbeat or update has refreshed it for `staleAfterMs`.
 * Any status other than "online" reads as offline.
 */
export function statusAt(record: { status: string | null; lastSeen: number }, now: number, staleAfterMs: number): ServerStatus {
  if (now - record.lastSeen > staleAfterMs) return "offline";
  return record.status === "online" ? "online" : "offline";
}
