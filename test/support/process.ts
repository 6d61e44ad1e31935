// Runs the real CLI (`bun src/index.ts ...`) as a child process.

import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = Bun.spawn([process.execPath, "src/index.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

export interface RunningServer {
  url: string;
  kill(signal?: number | NodeJS.Signals): Promise<void>;
}

/** Starts `serve` on a free loopback port and waits for its "listening" line. */
export async function startServe(env: Record<string, string>): Promise<RunningServer> {
  const child = Bun.spawn([process.execPath, "src/index.ts", "serve"], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let output = "";
  const deadline = Date.now() + 20_000;
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline) throw new Error(`serve did not start: ${output}`);
    const { done, value } = await reader.read();
    if (done) throw new Error(`serve exited: ${output}`);
    output += new TextDecoder().decode(value);
  }
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  return {
    url,
    async kill(signal = "SIGKILL") {
      child.kill(signal);
      await child.exited;
    },
  };
}
