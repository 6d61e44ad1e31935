// npm run soak [-- --cases N] [--scale X] [--seed S] [--only fuzz|attacks]
//
// The long reliability run, outside CI. Part one: the CI fuzzers (every
// public route, every signed route with registration open) at N cases
// (default 1,000,000) against the app as `serve` composes it, with lookups
// that open no socket. Part two: every attack of issue 9 at scale against a
// real `serve` child (test/soak/attacks.ts), X times the default sizes. Both
// measure the server's memory (RSS), database size and log bytes, and print
// one PASS or FAIL line per check; the exit code is 1 when any check failed.

import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { REFUSAL_LOG_BUDGET } from "../../src/http/observe.ts";
import { openDatabase } from "../../src/store/database.ts";
import { sqliteCreateToken } from "../../src/store/tokens.ts";
import { failureMessage, runCampaign, type CampaignReport } from "../fuzz/support/campaign.ts";
import { publicCase } from "../fuzz/support/public-cases.ts";
import { Random, fuzzSeed } from "../fuzz/support/random.ts";
import { seedRecords } from "../fuzz/support/seed-records.ts";
import { signedCase } from "../fuzz/support/signed-cases.ts";
import { tableCounts } from "../fuzz/support/table-counts.ts";
import { ROOT, startServe, type RunningServer } from "../support/process.ts";
import { newUuid } from "../support/signing.ts";
import * as attacks from "./attacks.ts";
import { Checks, mb, MB, peakRssBytes, sample, type Sample, type Target } from "./measure.ts";

interface Options {
  cases: number;
  scale: number;
  seed: number;
  only: "fuzz" | "attacks" | null;
}

function usage(message: string): never {
  console.error(`error: ${message}\nusage: npm run soak -- [--cases N] [--scale X] [--seed S] [--only fuzz|attacks]`);
  process.exit(2);
}

function parseOptions(args: string[]): Options {
  const options: Options = { cases: 1_000_000, scale: 1, seed: fuzzSeed(), only: null };
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) usage(`${name} needs a value`);
    if (name === "--cases" && /^\d+$/.test(value)) options.cases = Number(value);
    else if (name === "--scale" && Number(value) > 0) options.scale = Number(value);
    else if (name === "--seed" && /^\d+$/.test(value)) options.seed = Number(value);
    else if (name === "--only" && (value === "fuzz" || value === "attacks")) options.only = value;
    else usage(`unknown option or bad value: ${args[i]}`);
  }
  return options;
}

function newToken(dbPath: string): string {
  const db = openDatabase(dbPath);
  try {
    const secret = generateToken();
    sqliteCreateToken(db, { hash: hashToken(secret), scope: "all", label: "soak", now: Date.now() });
    return secret;
  } finally {
    db.$client.close();
  }
}

function targetOf(server: RunningServer, dbPath: string, reader: Database): Target {
  return { pid: server.pid, dbPath, reader, logBytes: () => Buffer.byteLength(server.stderr()) };
}

// The draw queue's bounds too: the attacks come from one address, and a full queue would answer them 503.
const WIDE_LIMITS = {
  PENNANT_RATE_LIMIT: "1000000/60", PENNANT_DRAW_BUDGET: "1000000/60", PENNANT_PUSH_RATE_LIMIT: "1000000/60", PENNANT_REGISTRATION_LIMIT: "1000000/3600",
  PENNANT_DRAW_QUEUE_PER_CLIENT: "1000", PENNANT_DRAW_QUEUE_UNITS: "1000000",
};

async function fuzzPart(options: Options, dir: string, checks: Checks): Promise<void> {
  const dbPath = join(dir, "fuzz.db");
  const tokens = [newToken(dbPath), newToken(dbPath)];
  const server = await startServe(
    { ...WIDE_LIMITS, PENNANT_DB: dbPath, PENNANT_REGISTRATION: "open", PENNANT_MAX_SERVERS_PER_TOKEN: "4", PENNANT_MAX_PLUGINS_PER_TOKEN: "3" },
    { command: [process.execPath, join(ROOT, "test/soak/fuzz-target.ts")] },
  );
  const reader = new Database(dbPath, { readonly: true });
  try {
    const target = targetOf(server, dbPath, reader);
    const context = await seedRecords(server.url, tokens[0]!, Date.now);
    const signed = { tokens, strangers: ["self-chosen-token-0001", "self-chosen-token-0002", "self-chosen-token-0003"], serverUuids: Array.from({ length: 8 }, newUuid), pluginUuids: Array.from({ length: 5 }, newUuid), now: Date.now };
    const start = sample(target);
    let peak = start.rss;
    const samples: Array<{ done: number; sample: Sample }> = [];
    const progress = (phase: string, offset: number) => (done: number, report: CampaignReport) => {
      const now = sample(target);
      peak = Math.max(peak, now.rss);
      samples.push({ done: offset + done, sample: now });
      console.log(`  ${phase}: ${done} cases, ${report.failures.length} failures, RSS ${mb(now.rss)}, database ${mb(now.db)}, log ${mb(now.log)}`);
    };
    const half = Math.ceil(options.cases / 2);
    console.log(`\nfuzzing: ${half} public-route cases, then ${options.cases - half} signed-route cases (registration open), seed ${options.seed}`);
    const counts = () => tableCounts(reader);
    const every = Math.max(1_000, Math.round(options.cases / 40));
    const publicReport = await runCampaign({
      name: "soak: public routes", baseUrl: server.url, seed: options.seed, cases: half, counts, neverStores: true,
      generate: (random: Random) => publicCase(random, context), onProgress: progress("public", 0), progressEvery: every,
    });
    const signedReport = await runCampaign({
      name: "soak: signed routes", baseUrl: server.url, seed: options.seed + 1, cases: options.cases - half, counts,
      generate: (random: Random) => signedCase(random, signed), onProgress: progress("signed", half), progressEvery: every,
    });
    const end = sample(target);
    peak = Math.max(peak, end.rss, peakRssBytes(server.pid));
    for (const report of [publicReport, signedReport]) {
      const message = failureMessage(report, "test/soak/soak.ts (npm run soak -- --seed S)");
      checks.check(`${report.name}: no 5xx, hang, crash, malformed error, undecodable image or stored refusal`, message === "", message || `${report.cases} cases in ${Math.round(report.elapsedMs / 1000)} s, ${JSON.stringify(report.statuses)}`);
    }
    const accepted = signedReport.statuses[200] ?? 0;
    const atHalf = samples.find((entry) => entry.done >= options.cases / 2)?.sample ?? start;
    console.log(`  fuzz target: RSS ${mb(start.rss)} at start, ${mb(atHalf.rss)} at half, ${mb(end.rss)} at the end, peak ${mb(peak)}; database ${mb(start.db)} -> ${mb(end.db)} (WAL file ${mb(end.wal)}); log ${end.log} bytes`);
    // The bounded caches (banner images 64 MiB, badge images 8 MiB, known banner queries 8 MiB, as
    // estimated) fill in the first part of a long run; RSS then stays level (docs/performance-notes.md
    // measured a plateau near 270 MiB for banners alone; WebP's wasm memory adds to it here).
    checks.atMost("fuzz: peak RSS (high-water mark)", peak, 512 * MB, mb);
    checks.atMost("fuzz: RSS growth in the second half of the run", end.rss - atHalf.rss, 64 * MB, mb);
    // Only accepted pushes write: a history sample, a used signature (swept after the clock window), a record.
    checks.atMost("fuzz: database bytes per accepted push", (end.db - start.db) / Math.max(1, accepted), 2048, (v) => `${Math.round(v)} B (${accepted} accepted)`);
    // Accepted pushes log a line each; refusals at most 20 lines a minute per client, then the
    // first of each other error code (fewer than 40 exist), and a line counting those held back.
    const minutes = (publicReport.elapsedMs + signedReport.elapsedMs) / 60_000;
    checks.atMost("fuzz: WAL file (checkpointed at 4 MB, then reused)", end.wal, 16 * MB, mb);
    const refusalLinesPerMinute = REFUSAL_LOG_BUDGET.perClient + 40 + 1;
    checks.atMost("fuzz: log bytes (a line per accepted push, the refusal lines of each minute)", end.log - start.log, accepted * 600 + Math.ceil(minutes + 1) * refusalLinesPerMinute * 600, (v) => `${v} B`);
  } finally {
    reader.close();
    await server.kill("SIGTERM");
  }
}

async function attackPart(options: Options, dir: string, checks: Checks): Promise<void> {
  const dbPath = join(dir, "attacks.db");
  const token = newToken(dbPath);
  const server = await startServe({ PENNANT_DB: dbPath, PENNANT_REGISTRATION: "open", PENNANT_TRUST_PROXY: "on", PENNANT_LOOKUP_PRIVATE: "on" });
  const reader = new Database(dbPath, { readonly: true });
  try {
    const ctx: attacks.AttackContext = { ...targetOf(server, dbPath, reader), url: server.url, port: Number(new URL(server.url).port), checks, scale: options.scale };
    const start = sample(ctx);
    console.log(`\nattacks against \`serve\` (pid ${server.pid}), scale ${options.scale}: RSS ${mb(start.rss)}, database ${mb(start.db)}`);
    await attacks.registrationFlood(ctx);
    await attacks.slash64(ctx);
    await attacks.ipBurst(ctx);
    await attacks.bigLookupReplies(ctx);
    await attacks.abortedUploads(ctx);
    await attacks.heldLock(ctx, token);
    await attacks.slowSenders(ctx);
    await attacks.lookupStorm(ctx);
    await attacks.idleSockets(ctx);
    const end = sample(ctx);
    console.log(`\n  serve overall: RSS ${mb(start.rss)} -> ${mb(end.rss)}, database ${mb(start.db)} -> ${mb(end.db)} (WAL file ${mb(end.wal)}), log ${end.log} bytes`);
    // SQLite checkpoints the WAL at 1,000 pages (4 MB) and then reuses it.
    checks.atMost("serve: WAL file", end.wal, 16 * MB, mb);
    checks.check("serve: still answers /healthz after every attack", (await fetch(`${server.url}/healthz`)).status === 200, "");
    checks.atMost("serve: RSS after every attack", end.rss, 512 * MB, mb);
  } finally {
    reader.close();
    await server.kill("SIGTERM");
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), "pennant-soak-"));
  const checks = new Checks();
  const started = performance.now();
  try {
    if (options.only !== "attacks") await fuzzPart(options, dir, checks);
    if (options.only !== "fuzz") await attackPart(options, dir, checks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const failed = checks.failed;
  console.log(`\nsoak: ${checks.all.length - failed.length} of ${checks.all.length} checks passed in ${Math.round((performance.now() - started) / 1000)} s (cases ${options.cases}, scale ${options.scale}, seed ${options.seed})`);
  for (const check of failed) console.log(`  FAIL  ${check.name}`);
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
