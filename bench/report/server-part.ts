// The frame of a bench part that loads server processes (bench/http.ts,
// bench/threads.ts): a scratch folder for their databases, no server left
// running after a failure, the markdown printed, the --json file written, and
// a failure reported as one line (exit 1), as the server's own are.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit } from "../../test/support/cleanup.ts";
import { nodePath } from "../http/load.ts";

export interface PartOutput {
  figures: Record<string, unknown>;
  /** Tables by section name, for bench/index.ts. */
  markdown: Record<string, string>;
}

/** Runs `measure` with a scratch folder, which it fills `output` from. */
export async function runServerPart(name: string, json: string | undefined, output: PartOutput, measure: (dir: string) => Promise<void>): Promise<void> {
  // A failure part-way must not leave a server running.
  process.on("exit", killOnExit);
  const dir = mkdtempSync(join(tmpdir(), `pennant-bench-${name}-`));
  try {
    nodePath(); // fails at once, not after the first server started
    await measure(dir);
    for (const [section, text] of Object.entries(output.markdown)) console.log(`## ${section}\n\n${text}\n`);
    if (json) writeFileSync(json, JSON.stringify(output));
  } catch (error) {
    // One line; PENNANT_DEBUG=1 adds the stack, as for the server's own unexpected failures.
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.PENNANT_DEBUG === "1" && error instanceof Error) console.error(error.stack);
    process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
