// A lean load client for loads whose cost is the server's, not the client's:
// plain HTTP/1.1 over Bun's TCP sockets, keep-alive, one request at a time
// per connection, each answer read by its Content-Length and thrown away.
// autocannon under Node took 0.5-0.7 ms of CPU per new banner (20% of a core
// at 300 banners a second, reading 10-60 KB answers), on the same two cores
// as the server it measures: a server using both of them lost that much to its
// client. This one takes a fraction of it (its CPU is reported beside the
// rates). Same spec file and output as load.mjs, one kind of request:
//
//   bun bench/http/socket-load.ts SPEC.json
//
// The result has the shape autocannon's has (the fields report/autocannon.ts
// reads), so that one reader serves both clients.

import { readFileSync, writeFileSync } from "node:fs";
import type { LoadSpec } from "./load.ts";
import { scenarioRequests } from "./scenarios.mjs";

/** What runLoad writes (load.ts), with where the latencies go. */
type Spec = LoadSpec & { latencies: string };

interface RequestEntry {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: RequestEntry) => RequestEntry;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Spec;
if (spec.amount !== undefined || spec.duration === undefined) throw new Error("the socket client runs for a duration only");
const target = new URL(spec.url);
const entries = scenarioRequests(spec.scenario, spec.params) as RequestEntry[];
if (entries.length !== 1) throw new Error(`the socket client sends one kind of request, not "${spec.scenario}"`);
const entry = entries[0]!;

function nextRequest(): string {
  const request = entry.setupRequest ? entry.setupRequest({ ...entry }) : entry;
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `${request.method ?? "GET"} ${request.path} HTTP/1.1\r\nHost: ${target.host}\r\n${headers}\r\n`;
}

const statuses: Record<string, number> = {};
let latencies = new Float64Array(1 << 16);
let answered = 0;
let sent = 0;
let bytes = 0;
let errors = 0;
let timeouts = 0;
const decoder = new TextDecoder();
const HEADERS_END = Buffer.from("\r\n\r\n");

/** One connection: the answer being read (its headers until they are whole, then what of its body is left). */
interface Connection {
  head: Buffer;
  /** The answer's Content-Length, and what of it has not arrived yet. */
  bodySize: number;
  bodyLeft: number;
  status: number;
  sentAt: number;
  busy: boolean;
}

const cpuBefore = process.cpuUsage();
const started = performance.now();
const stopAt = started + spec.duration * 1000;
let lastAnswer = started;
const timeoutMs = (spec.timeoutSeconds ?? 10) * 1000;

function record(state: Connection): void {
  const now = performance.now();
  if (answered === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[answered++] = now - state.sentAt;
  statuses[state.status] = (statuses[state.status] ?? 0) + 1;
  if (state.status >= 200 && state.status < 300) bytes += state.bodySize;
  lastAnswer = now;
  state.busy = false;
}

const open = new Set<Bun.Socket<Connection>>();

function send(socket: Bun.Socket<Connection>): void {
  if (performance.now() >= stopAt) {
    socket.end();
    return;
  }
  socket.data.busy = true;
  socket.data.sentAt = performance.now();
  sent++;
  socket.write(nextRequest());
}

/** Reads what arrived: headers first (status, Content-Length), then counts the body down; a whole answer sends the next request. */
function received(socket: Bun.Socket<Connection>, chunk: Buffer): void {
  const state = socket.data;
  let data = chunk;
  while (data.length > 0) {
    if (state.bodyLeft > 0) {
      const taken = Math.min(state.bodyLeft, data.length);
      state.bodyLeft -= taken;
      data = data.subarray(taken);
      if (state.bodyLeft === 0) {
        record(state);
        send(socket);
      }
      continue;
    }
    state.head = state.head.length === 0 ? data : Buffer.concat([state.head, data]);
    const end = state.head.indexOf(HEADERS_END);
    if (end < 0) return;
    const head = decoder.decode(state.head.subarray(0, end));
    const rest = state.head.subarray(end + 4);
    state.head = Buffer.alloc(0);
    state.status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) throw new Error(`an answer without Content-Length: ${head.split("\r\n")[0]}`);
    state.bodySize = state.bodyLeft = Number(length[1]);
    if (state.bodyLeft === 0) {
      record(state);
      send(socket);
    }
    data = rest;
  }
}

const done = Promise.withResolvers<void>();
for (let i = 0; i < spec.connections; i++) {
  const socket = await Bun.connect<Connection>({
    hostname: target.hostname,
    port: Number(target.port),
    data: { head: Buffer.alloc(0), bodySize: 0, bodyLeft: 0, status: 0, sentAt: 0, busy: false },
    socket: {
      data: received,
      close(closed) {
        open.delete(closed);
        if (closed.data.busy) errors++;
        if (open.size === 0) done.resolve();
      },
      error() {
        errors++;
      },
    },
  });
  open.add(socket);
}
for (const socket of open) send(socket);
// An answer that takes longer than the timeout counts as one, and its connection is closed.
const watchdog = setInterval(() => {
  const now = performance.now();
  for (const socket of open) {
    if (socket.data.busy && now - socket.data.sentAt > timeoutMs) {
      timeouts++;
      socket.data.busy = false;
      socket.end();
    }
  }
}, 250);
await done.promise;
clearInterval(watchdog);

const cpu = process.cpuUsage(cpuBefore);
const responses = answered;
const non2xx = Object.entries(statuses).filter(([code]) => !code.startsWith("2")).reduce((sum, [, n]) => sum + n, 0);
const sorted = latencies.slice(0, answered).sort();
const percentile = (p: number) => (sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!));
writeFileSync(spec.latencies, latencies.subarray(0, answered));
const result = {
  statusCodeStats: Object.fromEntries(Object.entries(statuses).map(([code, count]) => [code, { count }])),
  requests: { total: responses, sent },
  duration: (lastAnswer - started) / 1000,
  errors: errors + timeouts,
  timeouts,
  non2xx,
  throughput: { total: bytes },
  latency: { p50: percentile(0.5), p99: percentile(0.99) },
};
process.stdout.write(JSON.stringify({ result, kinds: {}, clientCpuSeconds: (cpu.user + cpu.system) / 1e6 }));
