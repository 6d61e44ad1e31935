// Start-up of the release binary: from exec to the first 200 from /healthz,
// on a first start (empty folder: data folder and database created) and on a
// restart (database present). Build it first: npm run build.
//
//   bun bench/startup.ts [runs=20] [binary=dist/pennant]

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
console.log(`${binary}, ${runs} runs each`);
console.log(summary("first start (creates data/pennant.db)", first));
console.log(summary("restart (database present)", restart));
