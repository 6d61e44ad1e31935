// What the PostgreSQL and Redis harnesses and their tests share: a free
// loopback port, a silent one, and a program run to its end.

import { createServer, type Socket } from "node:net";
import { track } from "./cleanup.ts";

/** A loopback port nothing listens on right now (the system chose it, then it was closed again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a program to its end; throws with its output when it fails. */
export async function run(command: string[], cwd?: string): Promise<void> {
  const child = Bun.spawn(command, { cwd, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited with ${code}: ${(stderr || stdout).trim()}`);
}

/**
 * A loopback port that accepts connections and never says a word: how a
 * server looks when it hangs, or a firewall that lets the handshake through.
 * Closed after the test.
 */
export async function silentPort(): Promise<number> {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  track(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  return (silent.address() as { port: number }).port;
}
