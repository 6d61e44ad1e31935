// What a network of servers adds up to (issue 24): players summed over the
// servers that read online, how many do, and the busiest. A server is read
// as a banner reads it (statusAt): one not refreshed within
// PENNANT_STALE_AFTER counts offline, whatever it last said, so a crashed
// server's last count is never summed.

import { shownPlayers, type PlayerCount } from "./players.ts";
import { statusAt } from "./status.ts";

/** A member server as the store keeps it: what decides its status, its counts, and what names it. */
export interface MemberServer {
  uuid: string;
  name: string | null;
  status: string | null;
  lastSeen: number;
  playersOnline: number | null;
  playersMax: number | null;
}

export interface NetworkTotals<S extends MemberServer = MemberServer> {
  /** Servers named in the network. */
  servers: number;
  /** Of them, those that read online. */
  online: number;
  /** Players and slots summed over the online servers (slots as banners show one server's); null when none is online. */
  players: PlayerCount | null;
  /** The online server with the most players (the first named of equals); null when none is online. */
  busiest: { server: S; players: number } | null;
}

export function networkTotals<S extends MemberServer>(servers: readonly S[], now: number, staleAfterMs: number): NetworkTotals<S> {
  const online = servers.filter((server) => statusAt(server, now, staleAfterMs) === "online");
  if (online.length === 0) return { servers: servers.length, online: 0, players: null, busiest: null };
  const counts = online.map((server) => shownPlayers(server.playersOnline ?? 0, server.playersMax));
  let busiest = 0;
  counts.forEach((count, i) => {
    if (count.online > counts[busiest]!.online) busiest = i;
  });
  return {
    servers: servers.length,
    online: online.length,
    players: counts.reduce((sum, count) => ({ online: sum.online + count.online, max: sum.max + count.max }), { online: 0, max: 0 }),
    busiest: { server: online[busiest]!, players: counts[busiest]!.online },
  };
}

/** "3/4 online": how many of a network's servers read online. */
export function onlineShare(totals: NetworkTotals): string {
  return `${totals.online}/${totals.servers} online`;
}
