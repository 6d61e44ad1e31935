// Fuzzing every public route: banners (every data mode and template), the
// template list, lookups (a stub resolver, no socket), badges of servers and
// plugins (.png and .json), /healthz, /metrics and paths that do not exist.
// Never a 5xx, a hang or a crash; errors in the JSON shape or as images that
// decode; nothing stored by any of them. PENNANT_FUZZ_SEED replays a run,
// PENNANT_FUZZ_CASES sets its size.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { failureMessage, runCampaign } from "./support/campaign.ts";
import { NoNetworkLookup } from "./support/no-network-lookup.ts";
import { publicCase, type PublicContext } from "./support/public-cases.ts";
import { fuzzCases, fuzzSeed } from "./support/random.ts";
import { seedRecords } from "./support/seed-records.ts";
import { tableCounts } from "./support/table-counts.ts";

let server: TestServer;
let context: PublicContext;

beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "1000000/60" }, { lookup: new NoNetworkLookup() });
  context = await seedRecords(server.url, server.token(), () => (server.clock.now += 1000));
});
afterAll(() => server.close());

test("mutated requests to every public route: no 5xx, no hang, errors well-formed, images decode, nothing stored", async () => {
  const report = await runCampaign({
    name: "public routes",
    baseUrl: server.url,
    seed: fuzzSeed(),
    cases: fuzzCases(2500),
    generate: (random) => publicCase(random, context),
    counts: () => tableCounts(server.db.$client),
    neverStores: true,
  });
  expect(failureMessage(report, "test/fuzz/public-routes.test.ts")).toBe("");
  // The campaign reached the routes' own logic, not only the transport's refusals.
  expect(report.statuses[200]).toBeGreaterThan(report.cases / 10);
  expect(report.statuses[400]).toBeGreaterThan(report.cases / 20);
}, 120_000);
