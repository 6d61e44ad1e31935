// Stopping a real `serve` process with SIGTERM / SIGINT: new connections are
// refused at once, a push in flight is finished and answered, a request that
// never ends is cut off after PENNANT_SHUTDOWN_TIMEOUT, the database is closed
// cleanly (its WAL checkpointed and removed) and the exit code is 0.

import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { runCli, startServe, type RunningServer } from "../support/process.ts";
import { hmacHex, newUuid, signedRequest } from "../support/signing.ts";

/** Waits for a condition; the bound is a safety net, not a speed test. */
async function until(what: string, condition: () => boolean, boundMs = 10_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > boundMs) throw new Error(`gave up waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** A signed update whose body is sent in two parts, the second whenever the test says. */
async function slowUpdate(port: number, token: string, uuid: string) {
  const body = JSON.stringify({ name: "Survives Shutdown", status: "online", stats: { players: { online: 4, max: 20 } } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  let closed = false;
  socket.on("data", (data) => (received += data.toString("latin1")));
  socket.on("close", () => (closed = true));
  socket.on("error", () => (closed = true));
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    "POST /api/server/update HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n" +
      `X-Server-UUID: ${uuid}\r\nX-Server-Token: ${token}\r\nX-Timestamp: ${timestamp}\r\n` +
      `X-Signature: ${hmacHex(token, `${timestamp}.${body}`)}\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  // "100 Continue": the server has the request in hand and waits for its body.
  await until("100 Continue", () => received.includes("100 Continue"));
  socket.write(body.slice(0, 10));
  return {
    finish: () => socket.write(body.slice(10)),
    received: () => received,
    closed: () => closed,
    destroy: () => socket.destroy(),
  };
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

function logLines(serve: RunningServer): Array<Record<string, any>> {
  return serve
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

function expectCleanlyClosed(dbPath: string): void {
  // Closing the last connection checkpoints the WAL into the file and removes it.
  expect(!existsSync(`${dbPath}-wal`) || statSync(`${dbPath}-wal`).size === 0).toBe(true);
  const db = new Database(dbPath, { readonly: true });
  try {
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  } finally {
    db.close();
  }
}

async function setUp(env: Record<string, string> = {}) {
  const dbPath = join(tempDir("shutdown"), "pennant.db");
  const created = await runCli(["token", "create", "--db", dbPath]);
  const token = created.stdout.trimEnd().split("\n").at(-1)!;
  const serve = await startServe({ PENNANT_DB: dbPath, ...env });
  return { dbPath, token, serve, port: Number(new URL(serve.url).port) };
}

describe("graceful shutdown", () => {
  test("SIGTERM: new connections refused, the push in flight answered and stored, database closed, exit 0", async () => {
    const { dbPath, token, serve, port } = await setUp();
    const uuid = newUuid();
    const push = await slowUpdate(port, token, uuid);
    try {
      serve.signal("SIGTERM");
      await until("the shutdown line", () => serve.stderr().includes("shutting down"));
      expect(await refusesConnections(port)).toBe(true);

      push.finish();
      await until("the answer", () => push.received().includes("Server data updated.") || push.closed());
      expect(push.received()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"message":"Server data updated\."\}/);
      expect(await serve.exited).toBe(0);
    } finally {
      push.destroy();
    }
    expectCleanlyClosed(dbPath);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.query("SELECT name, players_online AS online FROM servers WHERE uuid = ?").get(uuid)).toEqual({ name: "Survives Shutdown", online: 4 });
    } finally {
      db.close();
    }
    const lines = logLines(serve);
    expect(lines.find((line) => line.msg.startsWith("shutting down"))).toMatchObject({ level: "info", in_flight: 1, timeout_s: 10 });
    expect(lines.find((line) => line.msg === "POST /api/server/update 200")).toMatchObject({ uuid });
    expect(lines.at(-1)).toMatchObject({ level: "info", msg: "stopped: database closed" });
  });

  test("a request that never ends is cut off after PENNANT_SHUTDOWN_TIMEOUT; nothing is stored, exit 0", async () => {
    const { dbPath, token, serve, port } = await setUp({ PENNANT_SHUTDOWN_TIMEOUT: "1" });
    const push = await slowUpdate(port, token, newUuid());
    try {
      serve.signal("SIGTERM");
      expect(await serve.exited).toBe(0);
      await until("the cut-off connection to close", push.closed);
      expect(push.received()).not.toContain("200 OK");
    } finally {
      push.destroy();
    }
    expectCleanlyClosed(dbPath);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.query("SELECT count(*) AS n FROM servers").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    expect(logLines(serve).find((line) => line.level === "warn")).toMatchObject({ msg: "requests still in flight were cut off", cut_off: 1 });
  });

  test("SIGINT (Ctrl+C) stops an idle server the same way; a second signal cuts off what is in flight at once", async () => {
    const idle = await setUp();
    idle.serve.signal("SIGINT");
    expect(await idle.serve.exited).toBe(0);
    expect(logLines(idle.serve).map((line) => line.msg)).toContain("received SIGINT");
    expectCleanlyClosed(idle.dbPath);

    const busy = await setUp({ PENNANT_SHUTDOWN_TIMEOUT: "600" });
    const push = await slowUpdate(busy.port, busy.token, newUuid());
    try {
      busy.serve.signal("SIGTERM");
      await until("the shutdown line", () => busy.serve.stderr().includes("shutting down"));
      busy.serve.signal("SIGTERM");
      // Well before the 600 s timeout: the second signal ended the wait.
      expect(await busy.serve.exited).toBe(0);
    } finally {
      push.destroy();
    }
    expectCleanlyClosed(busy.dbPath);
  });

  test("control: a server killed without a chance to stop leaves its WAL behind, which the checks above would see", async () => {
    const { dbPath, token, serve } = await setUp();
    const response = await fetch(signedRequest(serve.url, { path: "/api/server/update", token, serverUuid: newUuid(), body: { name: "x" } }, Date.now()));
    expect(response.status).toBe(200);
    await serve.kill("SIGKILL");
    expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);
  });
});
