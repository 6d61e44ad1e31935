// A real Redis for tests, from Debian's redis-server package: on a free
// loopback port, nothing saved to disk, stopped after the test file (or the
// test) that started it (cleanup.ts). It answers in about 40 ms.

import type { Subprocess } from "bun";
import { track } from "./cleanup.ts";
import { missingPackage } from "./debian.ts";
import { freePort } from "./services.ts";

export interface Redis {
  /** redis://127.0.0.1:PORT */
  url: string;
  /** Stops the server (also done after the file or the test). */
  close(): Promise<void>;
}

export function redisServer(): string {
  const path = Bun.which("redis-server");
  if (!path) throw missingPackage("redis-server", "redis-server");
  return path;
}

/**
 * Resolves once the server says it accepts connections; rejects with its
 * output if it exits first. Its later lines are read and dropped, so that a
 * full pipe never stalls it.
 */
async function ready(child: Subprocess<"ignore", "pipe", "inherit">): Promise<void> {
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let output = "";
  while (!output.includes("Ready to accept connections")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`redis-server exited: ${output.trim()}`);
    output += decoder.decode(value, { stream: true });
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
}

export interface RedisOptions {
  /** A Redis stopped earlier in the test, started again (empty) on its port; else a free port. */
  port?: number;
  /** Required of clients (requirepass); the URL carries it. */
  password?: string;
}

export async function startRedis({ port, password }: RedisOptions = {}): Promise<Redis> {
  const program = redisServer();
  const asked = port !== undefined;
  const auth = password === undefined ? [] : ["--requirepass", password];
  // The port is free when chosen, but another process may take it first: try again on another.
  for (let attempt = 1; ; attempt++) {
    port ??= await freePort();
    const child = Bun.spawn([program, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...auth], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
    });
    const close = track(
      async () => {
        child.kill("SIGKILL");
        await child.exited;
      },
      () => child.kill("SIGKILL"),
    );
    try {
      await ready(child);
      return { url: `redis://${password === undefined ? "" : `:${password}@`}127.0.0.1:${port}`, close };
    } catch (error) {
      await close();
      if (attempt === 3 || asked) throw error;
      port = undefined;
    }
  }
}
