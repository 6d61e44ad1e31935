// One load run of the HTTP benches: autocannon (under Node, as its own
// process) against one server, with a request list from scenarios.mjs.
//
//   node bench/http/load.mjs SPEC.json
//
// SPEC: { url, connections, duration (s) or amount (requests), scenario,
// params, latencies (a file path), timeoutSeconds }. Prints autocannon's
// result as JSON with the status counts per kind of request and this
// process's CPU seconds (a busy client caps what a fast server can show).
// Writes every response's latency (autocannon's own per-response time, ms,
// as float64) to `latencies`: autocannon's summary rounds percentiles to
// whole ms, so the bench computes them from these.

import autocannon from "autocannon";
import { readFileSync, writeFileSync } from "node:fs";
import { scenarioRequests } from "./scenarios.mjs";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const counts = {};
let latencies = new Float64Array(1 << 16);
let answered = 0;

const cpuBefore = process.cpuUsage();
const instance = autocannon({
  url: spec.url,
  connections: spec.connections,
  ...(spec.amount ? { amount: spec.amount } : { duration: spec.duration }),
  requests: scenarioRequests(spec.scenario, spec.params, spec.scenario === "mixed" ? counts : undefined),
  timeout: spec.timeoutSeconds ?? 10,
});
instance.on("response", (_client, _status, _bytes, milliseconds) => {
  if (answered === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[answered++] = milliseconds;
});
const result = await instance;
const cpu = process.cpuUsage(cpuBefore);
writeFileSync(spec.latencies, latencies.subarray(0, answered));
process.stdout.write(JSON.stringify({ result, kinds: counts, clientCpuSeconds: (cpu.user + cpu.system) / 1e6 }));
