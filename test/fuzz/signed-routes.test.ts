// Fuzzing every signed route: the deployed plugin's update, standard updates,
// heartbeats, plugin pushes and status reads, with bodies mutated and signed
// again (the payload validation behind the signature is what is hit) and with
// headers mutated. Never a 5xx, a hang or a crash, errors in the JSON shape,
// and a refused request changes no row of any table, with registration closed
// and open. PENNANT_FUZZ_SEED replays a run, PENNANT_FUZZ_CASES sets its size.

import { afterEach, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid } from "../support/signing.ts";
import { failureMessage, runCampaign } from "./support/campaign.ts";
import { fuzzCases, fuzzSeed } from "./support/random.ts";
import { signedCase, type SignedContext } from "./support/signed-cases.ts";
import { tableCounts } from "./support/table-counts.ts";

let server: TestServer;
afterEach(() => server.close());

/** Budgets wide enough that the fuzz reaches the payloads; a small record cap so that record_limit is hit. */
const ENV = { PENNANT_PUSH_RATE_LIMIT: "1000000/60", PENNANT_REGISTRATION_LIMIT: "1000000/3600", PENNANT_MAX_SERVERS_PER_TOKEN: "4", PENNANT_MAX_PLUGINS_PER_TOKEN: "3" };

function context(server: TestServer): SignedContext {
  return {
    tokens: [server.token(), server.token()],
    strangers: ["self-chosen-token-0001", "self-chosen-token-0002", "self-chosen-token-0003"],
    serverUuids: Array.from({ length: 8 }, newUuid),
    pluginUuids: Array.from({ length: 5 }, newUuid),
    // A second or two per case: timestamps move on, so a repeat is a replay only when it really is one.
    now: () => (server.clock.now += 1000 + Math.floor(Math.random() * 1000)),
  };
}

async function campaign(registration: "closed" | "open"): Promise<void> {
  server = await startTestServer({ ...ENV, PENNANT_REGISTRATION: registration }, { tokenRateLimit: { count: 1_000_000, windowSeconds: 60 } });
  const ctx = context(server);
  const report = await runCampaign({
    name: `signed routes, registration ${registration}`,
    baseUrl: server.url,
    seed: fuzzSeed(),
    cases: fuzzCases(1200),
    generate: (random) => signedCase(random, ctx),
    counts: () => tableCounts(server.db.$client),
  });
  expect(failureMessage(report, "test/fuzz/signed-routes.test.ts")).toBe("");
  // Both sides were reached: pushes accepted, and refusals of the payload itself (not only of the signature).
  expect(report.statuses[200]).toBeGreaterThan(report.cases / 20);
  expect(report.statuses[400]).toBeGreaterThan(report.cases / 10);
}

describe("signed routes", () => {
  test("registration closed: mutated bodies and headers never cause a 5xx or a hang, and refusals store nothing", () => campaign("closed"), 120_000);
  test("registration open: the same, and a refused push registers no token", () => campaign("open"), 120_000);
});
