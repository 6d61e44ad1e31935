// Reading autocannon's result (a real one, saved from `autocannon --json`
// against a server answering 200, 304 and 404).

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAutocannon } from "../../bench/report/autocannon.ts";

const fixture = () => JSON.parse(readFileSync(join(import.meta.dir, "fixtures/autocannon-result.json"), "utf8"));

describe("parseAutocannon", () => {
  test("responses, statuses, errors and duration as autocannon counted them", () => {
    const summary = parseAutocannon(fixture());
    expect(summary.responses).toBe(200);
    expect(summary.sent).toBe(200);
    expect(summary.statuses).toEqual({ "200": 129, "304": 21, "404": 50 });
    expect(summary.non2xx).toBe(71);
    expect(summary.socketErrors).toBe(0);
    expect(summary.timeouts).toBe(0);
    expect(summary.seconds).toBe(1.05);
    expect(summary.bytes).toBe(22_929);
    expect(summary.wholeMs).toEqual({ p50: 0, p99: 29 });
  });

  test("socket errors and timeouts are read, not assumed zero", () => {
    const result = { ...fixture(), errors: 7, timeouts: 3 };
    expect(parseAutocannon(result)).toMatchObject({ socketErrors: 7, timeouts: 3 });
  });

  test("a result whose counts disagree is refused", () => {
    const result = fixture();
    result.statusCodeStats["200"].count = 100;
    expect(() => parseAutocannon(result)).toThrow("200 responses but 171 counted by status");
    const other = fixture();
    other.non2xx = 0;
    expect(() => parseAutocannon(other)).toThrow("non2xx 0 but 71 answers outside 2xx");
  });

  test("a missing or malformed field is an error naming it", () => {
    const result = fixture();
    delete result.requests.total;
    expect(() => parseAutocannon(result)).toThrow("no requests.total");
    expect(() => parseAutocannon({ ...fixture(), duration: "1s" })).toThrow("duration is not a count");
    expect(() => parseAutocannon({ ...fixture(), statusCodeStats: { OK: { count: 1 } } })).toThrow("status OK is not an HTTP status");
    expect(() => parseAutocannon(null)).toThrow("no statusCodeStats");
  });
});
