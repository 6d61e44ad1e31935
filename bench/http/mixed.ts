// Memory after many requests of mixed kinds (cached banners, new banners,
// badges, 304s, signed updates, bad requests; see MIX in scenarios.mjs) on a
// fresh server: its RSS before, at its highest, right after and after a
// pause; and every kind's answers against the statuses it should get.

import { peakRssBytes, rssBytes } from "../../test/soak/measure.ts";
import { count, mib, ms, table } from "../report/markdown.ts";
import { runLoad, type LoadResult } from "./load.ts";
import { MIX, badgePath, cachedBannerPath, expectedStatuses, type ScenarioParams } from "./scenarios.mjs";
import { startPennant } from "./servers.ts";

export interface MixedFigures {
  requests: number;
  load: LoadResult;
  rss: { before: number; peak: number; after: number; rested: number };
  restSeconds: number;
  /** Per kind: answers, and those with a status it should not get. */
  kinds: Array<{ kind: string; answers: number; unexpected: number; statuses: Record<string, number> }>;
}

const IMAGE = { Accept: "image/png" };

async function etag(url: string): Promise<string> {
  const response = await fetch(url, { headers: IMAGE });
  await response.arrayBuffer();
  const value = response.headers.get("etag");
  if (response.status !== 200 || !value) throw new Error(`no ETag from ${url} (${response.status})`);
  return value;
}

export async function measureMixed(dir: string, options: { requests: number; restSeconds: number }): Promise<MixedFigures> {
  const { server, seeded } = await startPennant(dir, "mixed");
  try {
    const params: ScenarioParams = {
      run: "mixed",
      popular: 10,
      servers: seeded.servers,
      pluginUuid: seeded.pluginUuid,
      etags: { banner: await etag(server.url + cachedBannerPath(0)), badge: await etag(server.url + badgePath(seeded.pluginUuid)) },
    };
    // Every kind once through, unmeasured, so that "before" is a server that has served each (as a live one has).
    await runLoad({ url: server.url, connections: 32, amount: 2_000, scenario: "mixed", params: { ...params, run: "mixed-warm" } }, server.pid);
    const before = rssBytes(server.pid);
    const load = await runLoad({ url: server.url, connections: 32, amount: options.requests, scenario: "mixed", params }, server.pid);
    const after = rssBytes(server.pid);
    await Bun.sleep(options.restSeconds * 1000);
    const rss = { before, peak: peakRssBytes(server.pid), after, rested: rssBytes(server.pid) };
    const kinds = [...new Set(MIX)].map((kind) => {
      const statuses = load.kinds[kind] ?? {};
      const expected = expectedStatuses(kind).map(String);
      const answers = Object.values(statuses).reduce((sum, n) => sum + n, 0);
      const unexpected = Object.entries(statuses).filter(([status]) => !expected.includes(status)).reduce((sum, [, n]) => sum + n, 0);
      return { kind, answers, unexpected, statuses };
    });
    return { requests: options.requests, load, rss, restSeconds: options.restSeconds, kinds };
  } finally {
    await server.kill();
  }
}

export function formatMixed(f: MixedFigures): string {
  const shares = [...new Set(MIX)].map((kind) => `${MIX.filter((k) => k === kind).length} ${kind}`).join(", ");
  return [
    `${count(f.requests)} requests over 32 connections, in every ${MIX.length}: ${shares}. ` +
      `Took ${f.load.seconds.toFixed(0)} s: ${count(f.load.rps)} requests/s, p50 ${ms(f.load.p50)} ms, p99 ${ms(f.load.p99)} ms, ` +
      `${count(f.load.socketErrors)} socket errors, server CPU ${f.load.serverCpuMicros.toFixed(0)} µs per request.`,
    "",
    table(
      ["server RSS before", "peak (VmHWM)", "right after", `after ${f.restSeconds} s idle`],
      [[`${mib(f.rss.before)} MiB`, `${mib(f.rss.peak)} MiB`, `${mib(f.rss.after)} MiB`, `${mib(f.rss.rested)} MiB`]],
    ),
    "",
    table(
      ["kind", "expected", "answers", "by status", "unexpected"],
      f.kinds.map((k) => [
        k.kind, expectedStatuses(k.kind).join(", "), count(k.answers),
        Object.entries(k.statuses).map(([status, n]) => `${status}: ${count(n)}`).join(", "), count(k.unexpected),
      ]),
    ),
  ].join("\n");
}
