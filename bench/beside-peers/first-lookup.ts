// The first data_mode=query banner of a server that answers the status ping
// but never UDP Query (issue 40, point 11): each server a status peer on
// loopback with a UDP socket on the same port that reads Query's packets and
// never answers (a server without enable-query behind a firewall that drops
// them, the slowest case: no ICMP refusal ends the Query early). Each banner
// is the first of its server, so it waits for the lookup; timed by this
// process from the request to the end of the image, after one such banner
// unmeasured (the process's first lookup).

import { startCountingPeer, type CountingPeer } from "../../test/support/java-peers.ts";
import type { RunningServer } from "../../test/support/process.ts";
import { startQueryPeer, type QueryPeer } from "../../test/support/query-peer.ts";
import { ms, table } from "../report/markdown.ts";
import { spread } from "../report/stats.ts";

export interface FirstLookupFigures {
  /** Each first banner's time, ms, in the order asked. */
  times: number[];
  /** Query packets the silent sockets read (none would mean Query was never asked, and nothing measured). */
  queryPackets: number;
}

/** A status peer and a silent Query socket on the same port number (another try when that TCP port is taken). */
async function pingOnlyServer(): Promise<{ java: CountingPeer; query: QueryPeer }> {
  for (let attempt = 1; ; attempt++) {
    const query = await startQueryPeer({ values: {}, players: [], silent: true });
    try {
      return { java: await startCountingPeer("modern", {}, query.port), query };
    } catch (error) {
      query.close();
      if (attempt >= 5) throw error;
    }
  }
}

export async function measureFirstLookups(pennant: RunningServer, servers: number): Promise<FirstLookupFigures> {
  const times: number[] = [];
  let queryPackets = 0;
  // One more first, unmeasured: the process's first lookup also compiles the lookup's code.
  for (let i = -1; i < servers; i++) {
    const { java, query } = await pingOnlyServer();
    try {
      const started = performance.now();
      const answer = await fetch(`${pennant.url}/api/banner?data_mode=query&ip_address=127.0.0.1:${java.port}&template_key=minimal-status`, { headers: { Accept: "image/png" } });
      await answer.arrayBuffer();
      const took = performance.now() - started;
      if (answer.status !== 200) throw new Error(`a first data_mode=query banner answered ${answer.status}`);
      // Query's first packet leaves with the ping: give it a moment to arrive before the socket closes.
      await Bun.sleep(20);
      if (i < 0) continue;
      times.push(took);
      queryPackets += query.requests;
    } finally {
      query.close();
      await java.close();
    }
  }
  return { times, queryPackets };
}

export function formatFirstLookups(figures: FirstLookupFigures): string {
  const { median, p95 } = spread(figures.times);
  return [
    `${figures.times.length} servers, each a status peer on 127.0.0.1 with a UDP socket on its port that reads Query's packets and never answers ` +
      `(${figures.queryPackets} read); one \`/api/banner?data_mode=query&ip_address=127.0.0.1:PORT\` each, its first, timed to the end of the image.`,
    "",
    table(["first banners", "median ms", "p95 ms", "highest ms", "each (ms)"], [
      [figures.times.length, ms(median), ms(p95), ms(Math.max(...figures.times)), figures.times.map(ms).join(", ")],
    ]),
  ].join("\n");
}
