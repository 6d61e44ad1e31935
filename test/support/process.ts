// Runs the real CLI (`bun src/index.ts ...`) as a child process; every child
// is killed after its test even when the test fails first (cleanup.ts).

import { join } from "node:path";
import type { Subprocess } from "bun";
import { track } from "./cleanup.ts";

export const ROOT = join(import.meta.dir, "..", "..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The runner's environment without its `PENNANT_*` variables, then the test's own: a child
 * sees only the configuration its test gives it (and `PENNANT_SKIP_BROWSER_TESTS=1 npm test`
 * does not reach it, where it would be an unknown variable and draw a warning).
 */
function childEnv(env: Record<string, string>): Record<string, string | undefined> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("PENNANT_"));
  return { ...Object.fromEntries(inherited), ...env };
}

async function killed(child: Subprocess, signal: number | NodeJS.Signals = "SIGKILL"): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await child.exited;
}

/** Runs a command to its end; a safety deadline kills one that does not end (its code is then not 0-2). */
export async function runCli(args: string[], env: Record<string, string> = {}, deadlineMs = 20_000): Promise<CliResult> {
  const child = Bun.spawn([process.execPath, "src/index.ts", ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdout: "pipe",
    stderr: "pipe",
  });
  const kill = track(() => killed(child), () => child.kill("SIGKILL"));
  const deadline = setTimeout(() => void kill(), deadlineMs);
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(deadline);
    await kill();
  }
}

export interface RunningServer {
  url: string;
  /** The process id (the soak reads its memory from /proc). */
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Sends a signal without waiting for the process to end. */
  signal(signal: NodeJS.Signals): void;
  /** The exit code once the process has ended. */
  exited: Promise<number>;
  kill(signal?: number | NodeJS.Signals): Promise<void>;
}

export interface ServeCommand {
  /** The program and its arguments up to `serve`; `bun src/index.ts` by default. */
  command?: string[];
  cwd?: string;
}

/** Starts `serve` on a free loopback port and waits for its "listening" line. */
export async function startServe(env: Record<string, string>, { command = [process.execPath, "src/index.ts"], cwd = ROOT }: ServeCommand = {}): Promise<RunningServer> {
  const child = Bun.spawn([...command, "serve"], {
    cwd,
    env: childEnv({ HOST: "127.0.0.1", PORT: "0", ...env }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const kill = track(() => killed(child), () => child.kill("SIGKILL"));
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const reader = child.stdout.getReader();
  let output = "";
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    const { done, value } = await reader.read();
    if (done) {
      await kill();
      throw new Error(`serve exited: ${output}${stderr}`);
    }
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  return {
    url,
    pid: child.pid,
    stderr: () => stderr,
    signal: (signal) => child.kill(signal),
    exited: child.exited,
    async kill(signal = "SIGKILL") {
      child.kill(signal);
      await child.exited;
      await kill();
    },
  };
}
