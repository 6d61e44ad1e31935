// A served instance on PostgreSQL whose database server stops and starts
// again: pushes answer 503 with Retry-After while it is gone (never 500 or a
// hang), /healthz says why, and both recover by themselves once it is back.

import { expect, test } from "bun:test";
import { startPostgres } from "../support/postgres.ts";
import { runCli, startServe } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

test("PostgreSQL stopped and started again: pushes 503 with Retry-After, /healthz 503 saying why, then both recover", async () => {
  const postgres = await startPostgres();
  const env = { PENNANT_DATABASE_URL: await postgres.database(), PENNANT_RENDER_THREADS: "0" };
  const token = (await runCli(["token", "create"], env)).stdout.trimEnd().split("\n").at(-1)!;
  const server = await startServe(env);
  const uuid = newUuid();
  let online = 0;
  const push = () =>
    fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: { status: "online", stats: { players: { online: ++online, max: 20 } } } }, Date.now()));
  const health = async () => {
    const response = await fetch(`${server.url}/healthz`);
    return { status: response.status, body: (await response.json()) as { ok: boolean; error?: { message: string } } };
  };

  expect((await push()).status).toBe(200);
  expect(await health()).toEqual({ status: 200, body: { ok: true } });

  await postgres.stop();
  const refused = await push();
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("5");
  expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: "database_unavailable", message: expect.stringContaining("cannot be reached") });
  const down = await health();
  expect(down.status).toBe(503);
  expect(down.body.error?.message).toStartWith("the database cannot be read: the database server cannot be reached");

  await postgres.start();
  let accepted = await push();
  // The first call after the restart may still meet a connection the restart cut.
  for (let attempt = 0; accepted.status !== 200 && attempt < 20; attempt++) {
    await Bun.sleep(100);
    accepted = await push();
  }
  expect(accepted.status).toBe(200);
  expect(await health()).toEqual({ status: 200, body: { ok: true } });
  // The outage is logged as one (a store fault), never as an unexpected error answered 500.
  expect(server.stderr()).toContain("database unavailable: the database server cannot be reached");
  expect(server.stderr()).not.toContain("unexpected error");
  expect(server.stderr()).not.toContain('"status":500');
});
