import { describe, expect, test } from "bun:test";
import { Registry } from "../../src/metrics/registry.ts";

describe("the metrics registry", () => {
  test("counters and gauges in the Prometheus text format, label values escaped", () => {
    const registry = new Registry();
    const requests = registry.counter({ name: "x_requests_total", help: "Requests.", labelNames: ["route", "status"] });
    requests.inc({ route: "/a", status: "200" });
    requests.inc({ route: "/a", status: "200" }, 2);
    requests.inc({ route: 'a"b\\c\nd', status: "404" });
    registry.counter({ name: "x_plain_total", help: "No labels.\nTwo lines.", labelNames: [] }).inc({});
    registry.gauge({ name: "x_bytes", help: "Bytes.", labelNames: ["cache"] }, () => [[{ cache: "images" }, 1.5]]);
    expect(registry.render()).toBe(
      [
        "# HELP x_requests_total Requests.",
        "# TYPE x_requests_total counter",
        'x_requests_total{route="/a",status="200"} 3',
        'x_requests_total{route="a\\"b\\\\c\\nd",status="404"} 1',
        "# HELP x_plain_total No labels.\\nTwo lines.",
        "# TYPE x_plain_total counter",
        "x_plain_total 1",
        "# HELP x_bytes Bytes.",
        "# TYPE x_bytes gauge",
        'x_bytes{cache="images"} 1.5',
        "",
      ].join("\n"),
    );
  });

  test("histograms: cumulative buckets, +Inf, sum and count", () => {
    const registry = new Registry();
    const render = registry.histogram({ name: "x_seconds", help: "Time.", labelNames: ["kind"], buckets: [0.01, 0.1] });
    for (const value of [0.005, 0.01, 0.05, 3]) render.observe({ kind: "banner" }, value);
    expect(registry.render()).toBe(
      [
        "# HELP x_seconds Time.",
        "# TYPE x_seconds histogram",
        'x_seconds_bucket{kind="banner",le="0.01"} 2',
        'x_seconds_bucket{kind="banner",le="0.1"} 3',
        'x_seconds_bucket{kind="banner",le="+Inf"} 4',
        'x_seconds_sum{kind="banner"} 3.065',
        'x_seconds_count{kind="banner"} 4',
        "",
      ].join("\n"),
    );
  });

  test("label sets are bounded: beyond maxSeries they are counted under \"other\"", () => {
    const registry = new Registry();
    const counter = registry.counter({ name: "x_total", help: "h", labelNames: ["route", "status"], maxSeries: 3 });
    for (let i = 0; i < 10_000; i++) counter.inc({ route: `/r${i}`, status: String(i) });
    const lines = registry.render().split("\n").filter((line) => line.startsWith("x_total"));
    expect(lines).toEqual(['x_total{route="/r0",status="0"} 1', 'x_total{route="/r1",status="1"} 1', 'x_total{route="/r2",status="2"} 1', 'x_total{route="other",status="other"} 9997']);
  });

  test("a long label value is cut", () => {
    const registry = new Registry();
    registry.counter({ name: "x_total", help: "h", labelNames: ["cache"] }).inc({ cache: "c".repeat(10_000) });
    expect(registry.render().length).toBeLessThan(300);
  });
});
