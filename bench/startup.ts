// Start-up of the release binary: from exec to the first 200 from /healthz,
// on a first start (empty folder: data folder and database created) and on a
// restart (database present), first as the machine is, then with every core
// kept busy by other processes (a host doing other work). It prints what the
// README's figures need beside them: the binary's size, the machine and its
// load average. Build it first: npm run build.
//
//   bun bench/startup.ts [runs=20] [binary=dist/pennant]

import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { mebibytes } from "../.ci/build.ts";
import { describeMachine, loadAverage, machineLine } from "./report/machine.ts";

const runs = Number(process.argv[2] ?? 20);
const binary = process.argv[3] ?? join(import.meta.dir, "..", "dist", "pennant");
if (!existsSync(binary)) {
  console.error(`error: ${binary} does not exist; run npm run build first`);
  process.exit(2);
}

/** Milliseconds from spawning `serve` in `cwd` to its first 200 from /healthz. */
async function startOnce(cwd: string): Promise<number> {
  const started = performance.now();
  const child = Bun.spawn([binary, "serve", "--port", "0", "--host", "127.0.0.1"], { cwd, stdout: "pipe", stderr: "ignore" });
  try {
    const reader = child.stdout.getReader();
    let output = "";
    while (!/listening on (http:\/\/\S+)/.test(output)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`serve exited: ${output}`);
      output += new TextDecoder().decode(value);
    }
    const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
    const response = await fetch(`${url}/healthz`);
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    return performance.now() - started;
  } finally {
    child.kill("SIGKILL");
    await child.exited;
  }
}

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  return `${label.padEnd(44)} median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${at(0)} ms, max ${at(1)} ms`;
}

/** Both starts, `runs` times each, every time in a new empty folder. */
async function measure(): Promise<{ first: number[]; restart: number[] }> {
  const first: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), "pennant-startup-"));
    try {
      first.push(await startOnce(dir));
      restart.push(await startOnce(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { first, restart };
}

/** One process spinning per core, at the same priority as the server. */
function busyEveryCore(): Subprocess[] {
  return cpus().map(() => Bun.spawn([process.execPath, "-e", "for (;;) {}"], { stdout: "ignore", stderr: "ignore" }));
}

const load = () => loadAverage().map((value) => value.toFixed(2)).join(" / ");

console.log(`${binary} (${mebibytes(statSync(binary).size)}), ${runs} runs each`);
console.log(`machine: ${machineLine(await describeMachine())}`);
console.log(`load average (1 / 5 / 15 min) at the start: ${load()}`);
const quiet = await measure();
console.log("as the machine is:");
console.log(`  ${summary("first start (creates data/pennant.db)", quiet.first)}`);
console.log(`  ${summary("restart (database present)", quiet.restart)}`);
const spinners = busyEveryCore();
try {
  const busy = await measure();
  console.log(`every core busy (${spinners.length} processes spinning beside it):`);
  console.log(`  ${summary("first start (creates data/pennant.db)", busy.first)}`);
  console.log(`  ${summary("restart (database present)", busy.restart)}`);
} finally {
  for (const spinner of spinners) spinner.kill("SIGKILL");
  await Promise.all(spinners.map((spinner) => spinner.exited));
}
console.log(`load average (1 / 5 / 15 min) at the end: ${load()}`);
