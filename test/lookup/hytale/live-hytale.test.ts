// Real Hytale servers, only when asked: PENNANT_LIVE_HYTALE=host:port[,host:port...]
// (skipped otherwise: the suite never depends on the internet). Each is looked
// up as a user would (private addresses refused, the real 5 s deadline) and
// must answer online; which way answered is printed, to compare with what the
// server's owner installed.

import { expect, test } from "bun:test";
import { LookupService } from "../../../src/lookup/lookup-service.ts";
import { lookupJson } from "../../../src/lookup/view.ts";

const servers = (process.env.PENNANT_LIVE_HYTALE ?? "").split(",").map((server) => server.trim()).filter(Boolean);

test.skipIf(servers.length === 0)("live Hytale servers (PENNANT_LIVE_HYTALE) answer online", async () => {
  const lookups = new LookupService();
  for (const address of servers) {
    const result = await lookups.lookup({ address, edition: "hytale" });
    const { source, players, version, latency_ms, error } = lookupJson(result);
    console.log(address, JSON.stringify({ source, players: players && { online: players.online, max: players.max }, version: version?.name_clean ?? null, latency_ms, error }));
    expect(result).toMatchObject({ online: true, edition: "hytale" });
  }
}, 10_000 * Math.max(1, servers.length));
