// The one place the release binary's build flags live: `npm run build`,
// `npm run release` and the binary smoke test (test/cli/binary.test.ts) all
// compile through here, so what CI tests is what ships.
//
//   bun .ci/build.ts            -> dist/pennant for this machine
//
// --bytecode (needs --format=esm: src/index.ts awaits at top level) precompiles
// the JavaScript: start-up to the first answer drops from ~120 ms to ~50 ms.
// --sourcemap keeps PENNANT_DEBUG stack traces readable (~0.8 MB).

import { rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export const ROOT = join(import.meta.dir, "..");
export const COMPILE_FLAGS = ["--compile", "--minify", "--bytecode", "--format=esm", "--sourcemap"] as const;
/**
 * Entry points embedded beside the main one: a render thread is a Worker
 * started from its own module (src/serve/drawing/render-pool.ts finds it by
 * the same path in the binary).
 */
export const WORKER_ENTRIES = ["src/serve/drawing/render-worker.ts"] as const;

export interface CompileOptions {
  /** Where the executable goes (Bun adds .exe for Windows targets). */
  outfile: string;
  /** A Bun target such as bun-linux-arm64; this machine's own runtime when left out. */
  target?: string;
  entry?: string;
}

/** Compiles with Bun (the one running this). Other targets' runtimes come from the npm registry (@oven/bun-*). */
export async function compile({ outfile, target, entry = "src/index.ts" }: CompileOptions): Promise<void> {
  const build = Bun.spawn(
    [process.execPath, "build", ...COMPILE_FLAGS, ...(target ? [`--target=${target}`] : []), entry, ...WORKER_ENTRIES, "--outfile", outfile],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, stderr, code] = await Promise.all([new Response(build.stdout).text(), new Response(build.stderr).text(), build.exited]);
  if (code !== 0) throw new Error(`bun build ${target ?? "(this machine)"} failed: ${(stderr || stdout).trim()}`);
  // The source maps are embedded; Bun also leaves copies beside the executable (the worker's under its own name).
  rmSync(`${outfile}.map`, { force: true });
  for (const entry of WORKER_ENTRIES) rmSync(join(dirname(outfile), `${basename(entry, ".ts")}.js.map`), { force: true });
}

export function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

if (import.meta.main) {
  const outfile = join(ROOT, "dist", "pennant");
  try {
    await compile({ outfile });
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  }
  console.log(`built dist/pennant (${mebibytes(statSync(outfile).size)})`);
}
