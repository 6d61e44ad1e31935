// The machine a report was measured on, for its header: figures from another
// machine, or from this one under other load, are not comparable.

import { cpus, loadavg, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";

export interface Machine {
  cores: number;
  cpu: string;
  memoryBytes: number;
  os: string;
  bun: string;
  node: string;
  autocannon: string;
  /** File system of the temp folder, where the benches' databases live (an fsync on tmpfs is free). */
  tempFs: string;
}

/** A command's output, or "unknown" when it fails or is not installed (the header only describes). */
function output(command: string[]): string {
  try {
    const run = Bun.spawnSync(command);
    return run.exitCode === 0 ? run.stdout.toString().trim() : "unknown";
  } catch {
    return "unknown";
  }
}

export async function describeMachine(): Promise<Machine> {
  const autocannon = (await Bun.file(join(import.meta.dir, "../../test/node_modules/autocannon/package.json")).json()) as { version: string };
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    memoryBytes: totalmem(),
    os: `${process.platform} ${process.arch}, kernel ${release()}`,
    bun: Bun.version,
    node: output(["node", "--version"]),
    autocannon: autocannon.version,
    tempFs: output(["stat", "-f", "-c", "%T", tmpdir()]),
  };
}

/** The machine in one line, for a report's header. */
export function machineLine(machine: Machine): string {
  return (
    `${machine.cores} cores (${machine.cpu}), ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB, ${machine.os}; ` +
    `Bun ${machine.bun}, Node ${machine.node}, autocannon ${machine.autocannon}; temp folder on ${machine.tempFs}.`
  );
}

/** Load average over 1, 5 and 15 minutes. */
export function loadAverage(): [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return [one, five, fifteen];
}
