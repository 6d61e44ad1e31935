// Fuzzing every public route: banners (every data mode and template), the
// template list, lookups (a stub resolver, no socket), badges of servers and
// plugins (.png and .json), /healthz, /metrics and paths that do not exist.
// Never a 5xx, a hang or a crash; errors in the JSON shape or as images that
// decode; nothing stored by any of them. PENNANT_FUZZ_SEED replays a run,
// PENNANT_FUZZ_CASES sets its size.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";
import { failureMessage, runCampaign } from "./support/campaign.ts";
import { NoNetworkLookup } from "./support/no-network-lookup.ts";
import { publicCase, type PublicContext } from "./support/public-cases.ts";
import { fuzzCases, fuzzSeed } from "./support/random.ts";
import { tableCounts } from "./support/table-counts.ts";

let server: TestServer;
let context: PublicContext;

/** Records for the badges and banners to find: servers (one stale) and plugins with every kind of meta. */
async function seed(server: TestServer): Promise<PublicContext> {
  const token = server.token();
  const serverUuids = [newUuid(), newUuid(), newUuid()];
  const pluginUuids = [newUuid(), newUuid()];
  const send = async (path: string, body: object, serverUuid?: string) => {
    server.clock.now += 1000;
    const tokenHeader = path.startsWith("/api/plugins") ? "X-Plugin-Token" : "X-Server-Token";
    const response = await fetch(signedRequest(server.url, { path, token, body, serverUuid, tokenHeader }, server.clock.now));
    expect(response.status).toBe(200);
  };
  for (const [i, uuid] of serverUuids.entries()) {
    await send("/api/server/update", { name: `Server ${i}`, status: i === 2 ? "offline" : "online", stats: { players: { online: 5 + i, max: 50 }, tps: 19.5, motd: "§aHello\n§7World", version: "1.21.4" } }, uuid);
  }
  await send(`/api/plugins/${pluginUuids[0]}/data`, {
    plugin: { name: "FuzzPlugin", version: "2.0.1" },
    stats: { servers: 120, players: 3400 },
    meta: { status: "active", alpha: { downloads: 12000, latest_version: "2.0.1" }, code: { stars: 42, open_issues: [1, 2] } },
    minecraft_versions: ["1.20.4", "1.21.4"],
    server_software: ["paper", "spigot"],
  });
  await send(`/api/plugins/${pluginUuids[1]}/data`, { plugin: { name: "Bare" } });
  return { serverUuids: [...serverUuids, newUuid()], pluginUuids: [...pluginUuids, newUuid()] };
}

beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "1000000/60" }, { lookup: new NoNetworkLookup() });
  context = await seed(server);
});
afterAll(() => server.close());

test("mutated requests to every public route: no 5xx, no hang, errors well-formed, images decode, nothing stored", async () => {
  const report = await runCampaign({
    name: "public routes",
    baseUrl: server.url,
    seed: fuzzSeed(),
    cases: fuzzCases(3000),
    generate: (random) => publicCase(random, context),
    counts: () => tableCounts(server.db.$client),
    neverStores: true,
  });
  expect(failureMessage(report, "test/fuzz/public-routes.test.ts")).toBe("");
  // The campaign reached the routes' own logic, not only the transport's refusals.
  expect(report.statuses[200]).toBeGreaterThan(report.cases / 10);
  expect(report.statuses[400]).toBeGreaterThan(report.cases / 20);
}, 120_000);
