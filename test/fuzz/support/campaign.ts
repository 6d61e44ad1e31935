// Runs a fuzz campaign: N generated requests, one at a time over a kept-alive
// raw connection, each with a deadline, each answer judged by the oracle, the
// database's row counts compared around every refused request, and /healthz
// asked now and then and at the end (a crash or a wedged server shows there).
// A failure names the seed and the case, so that it replays exactly.

import { ClosedEarly, ExchangeTimeout, RawClient, type RawResponse } from "../../support/raw-http.ts";
import { answerProblem, describeRequest, type FuzzRequest } from "./oracle.ts";
import { Random } from "./random.ts";
import { countChanges, type TableCounts } from "./table-counts.ts";

export interface CampaignOptions {
  name: string;
  baseUrl: string;
  seed: number;
  cases: number;
  generate: (random: Random, index: number) => FuzzRequest;
  /** Row counts of the server's database; compared around every refused request. */
  counts?: () => TableCounts;
  /** Read-only routes: no answer at all may change a count, accepted or not. */
  neverStores?: boolean;
  /** Each exchange's deadline: an answer later than this is a hang. */
  timeoutMs?: number;
  /** Stop after this many failures (each is replayed by the same seed). */
  maxFailures?: number;
  /** Called every `progressEvery` cases (the soak prints progress). */
  onProgress?: (done: number, report: CampaignReport) => void;
  progressEvery?: number;
}

export interface CampaignReport {
  name: string;
  seed: number;
  cases: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  failures: string[];
  elapsedMs: number;
}

const HEALTH_EVERY = 1_000;

async function healthy(client: RawClient, timeoutMs: number): Promise<string | null> {
  try {
    const response = await client.exchange({ method: "GET", target: "/healthz", headers: [] }, timeoutMs);
    return response.status === 200 ? null : `/healthz answered ${response.status}`;
  } catch (error) {
    return `/healthz did not answer: ${(error as Error).message}`;
  }
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const { name, seed, cases, timeoutMs = 10_000, maxFailures = 5, progressEvery = 10_000 } = options;
  const port = Number(new URL(options.baseUrl).port);
  const random = new Random(seed);
  const client = new RawClient(port);
  const probe = new RawClient(port);
  const report: CampaignReport = { name, seed, cases: 0, statuses: {}, failures: [], elapsedMs: 0 };
  const started = performance.now();
  const fail = (index: number, request: FuzzRequest | null, problem: string) => {
    const shown = request ? `\n${describeRequest(request)}` : "";
    report.failures.push(`${name}, case ${index} of seed ${seed}: ${problem}${shown}`);
  };
  try {
    for (let index = 0; index < cases && report.failures.length < maxFailures; index++) {
      const request = options.generate(random, index);
      const before = options.counts?.();
      let response: RawResponse;
      try {
        response = await client.exchange(request, timeoutMs);
      } catch (error) {
        // Not HTTP at all: the transport may hang up without a word.
        if (request.wireInvalid && error instanceof ClosedEarly) {
          report.statuses[0] = (report.statuses[0] ?? 0) + 1;
          continue;
        }
        fail(index, request, error instanceof ExchangeTimeout ? `no answer within ${timeoutMs} ms` : `no answer: ${(error as Error).message}`);
        const health = await healthy(probe, timeoutMs);
        if (health) {
          fail(index, null, `and then ${health}`);
          break;
        }
        continue;
      } finally {
        report.cases = index + 1;
      }
      report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
      const problem = await answerProblem(request, response);
      if (problem) fail(index, request, `${problem} (status ${response.status}, body ${Buffer.from(response.body.subarray(0, 300)).toString("latin1")})`);
      if (before && (options.neverStores || response.status >= 400)) {
        const changed = countChanges(before, options.counts!());
        if (changed) fail(index, request, `a ${response.status} answer stored something: ${changed}`);
      }
      if ((index + 1) % HEALTH_EVERY === 0) {
        const health = await healthy(probe, timeoutMs);
        if (health) {
          fail(index, null, health);
          break;
        }
      }
      if ((index + 1) % progressEvery === 0) options.onProgress?.(index + 1, report);
    }
    const health = await healthy(probe, timeoutMs);
    if (health) fail(report.cases, null, `after the campaign ${health}`);
  } finally {
    client.close();
    probe.close();
    report.elapsedMs = performance.now() - started;
  }
  return report;
}

/** The failures with how to replay them, or "" when there are none. */
export function failureMessage(report: CampaignReport, testFile: string): string {
  if (report.failures.length === 0) return "";
  return [
    `${report.failures.length} failure(s) in ${report.cases} cases; replay with PENNANT_FUZZ_SEED=${report.seed} npx bun test ${testFile}`,
    ...report.failures,
  ].join("\n\n");
}
