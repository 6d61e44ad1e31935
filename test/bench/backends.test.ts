// The backends bench's pieces that decide what it reports: its targets'
// verdicts (figures made up here: no timing) and the round-robin proxy in
// front of two instances (a real process, real upstreams).

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Measured } from "../../bench/backends/measure.ts";
import { backendTargets, SETUPS, type BackendsFigures } from "../../bench/backends/report.ts";
import { track } from "../support/cleanup.ts";
import { startServe } from "../support/process.ts";

/** 1,000 answers and the server CPU given, in ms per answer. */
function measured(serverMsPerRequest: number, errors = 0): Measured {
  return { responses: 1_000, seconds: 1, errors, serverCpu: serverMsPerRequest, proxyCpu: 0, serviceCpu: 0 };
}

function figures({ banner = [0.03, 0.032], push = [0.3, 0.5], pushErrors = 0 }: { banner?: [number, number]; push?: [number, number]; pushErrors?: number }): BackendsFigures {
  return {
    cells: [
      { kind: "cached banner", setup: SETUPS.sqlite, measured: measured(banner[0]) },
      { kind: "cached banner", setup: SETUPS.shared, measured: measured(banner[1]) },
      { kind: "signed push", setup: SETUPS.sqlite, measured: measured(push[0]) },
      { kind: "signed push", setup: SETUPS.shared, measured: measured(push[1], pushErrors) },
    ],
  };
}

const verdicts = (f: BackendsFigures) => backendTargets(f).map((t) => t.verdict);

describe("the backends bench's targets", () => {
  test("all three met within their bounds, each missed just past it", () => {
    expect(verdicts(figures({ banner: [0.03, 0.0329], push: [0.4, 0.8] }))).toEqual(["met", "met", "met"]);
    expect(verdicts(figures({ banner: [0.03, 0.0271] }))).toEqual(["met", "met", "met"]);
    expect(verdicts(figures({ banner: [0.03, 0.0334] }))).toEqual(["missed", "met", "met"]);
    expect(verdicts(figures({ banner: [0.03, 0.0266] }))).toEqual(["missed", "met", "met"]);
    expect(verdicts(figures({ push: [0.3, 0.61] }))).toEqual(["met", "missed", "met"]);
    expect(verdicts(figures({ push: [0.41, 0.5] }))).toEqual(["met", "met", "missed"]);
  });

  test("errors in a load miss its targets (a refused request costs less) and are said", () => {
    const rows = backendTargets(figures({ pushErrors: 3 }));
    expect(rows.map((t) => t.verdict)).toEqual(["met", "missed", "missed"]);
    expect(rows[1]!.measured).toContain("3 errors");
  });

  test("a set-up not measured is not measured, not met", () => {
    expect(verdicts({ cells: [] })).toEqual(["not measured", "not measured", "not measured"]);
  });
});

describe("the round-robin proxy", () => {
  test("hands requests to its upstreams in turn and passes method, path, query, headers, body and answer on", async () => {
    const seen: string[][] = [];
    const upstreams = [0, 1].map((n) => {
      const server = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        async fetch(request) {
          const { pathname, search } = new URL(request.url);
          seen.push([String(n), request.method, pathname + search, request.headers.get("x-test") ?? "", await request.text()]);
          return new Response(`from ${n}`, { status: 201, headers: { "X-Upstream": String(n) } });
        },
      });
      track(() => server.stop(true));
      return `http://127.0.0.1:${server.port}`;
    });
    const proxy = await startServe({ PENNANT_BENCH_UPSTREAMS: upstreams.join(",") }, { command: [process.execPath, join(import.meta.dir, "../../bench/backends/proxy.ts")] });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${proxy.url}/path/${i}?q=${i}`, { method: "POST", headers: { "X-Test": `t${i}` }, body: `body ${i}` });
      answers.push([response.status, response.headers.get("x-upstream"), await response.text()]);
    }
    expect(seen).toEqual([0, 1, 2, 3].map((i) => [String(i % 2), "POST", `/path/${i}?q=${i}`, `t${i}`, `body ${i}`]));
    expect(answers).toEqual([0, 1, 2, 3].map((i) => [201, String(i % 2), `from ${i % 2}`]));
  });
});
