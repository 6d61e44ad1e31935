// A real PostgreSQL for tests, from Debian's postgresql package: its own
// cluster in a temporary folder (initdb, ~1.7 s), on a free loopback port and a
// unix socket in that folder, trust authentication, stopped and removed after
// the test file (or the test) that started it (cleanup.ts). Start one per file
// in beforeAll and give each test its own empty database (database(): CREATE
// DATABASE copies the empty template1, a few milliseconds).
//
// initdb refuses to run as root: as root, the cluster runs as the postgres
// user the package creates, and its folder belongs to that user.

import { chownSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { tempDir, track } from "./cleanup.ts";
import { findPostgresBin, missingPackage } from "./debian.ts";
import { freePort, run } from "./services.ts";

export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/NAME for a database of this cluster. */
  url(database?: string): string;
  /** Creates a new empty database and returns its URL. */
  database(): Promise<string>;
  /** Stops the server as an outage would (fast shutdown: connections are cut), keeping its data and port. */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port. */
  start(): Promise<void>;
  /** Stops the cluster and removes its folder (also done after the file or the test). */
  close(): Promise<void>;
}

/** The bin folder of the newest PostgreSQL Debian installed, or of initdb on the PATH. */
export function postgresBin(): string {
  const bin = findPostgresBin();
  if (bin === undefined) throw missingPackage("PostgreSQL's initdb and pg_ctl (looked in /usr/lib/postgresql/*/bin and the PATH)", "postgresql");
  return bin;
}

/** How each PostgreSQL program is run: as the postgres user, who is given `dir`, when this process is root. */
function asClusterOwner(dir: string): string[] {
  if (process.getuid?.() !== 0) return [];
  const owner = Bun.spawnSync(["id", "-u", "postgres"]);
  if (owner.exitCode !== 0) throw missingPackage("the postgres user (initdb refuses to run as root)", "postgresql");
  const uid = Number(owner.stdout.toString());
  chownSync(dir, uid, -1);
  return ["runuser", "-u", "postgres", "--"];
}

/**
 * Settings for a throwaway cluster: no fsync (a crash of the machine loses
 * nothing a test needs; a killed process still loses nothing), and the
 * socket in the cluster's own folder rather than /var/run/postgresql.
 */
function serverOptions(port: number, dir: string): string {
  return `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
}

export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  const dir = tempDir("postgres");
  const owner = asClusterOwner(dir);
  const data = join(dir, "data");
  await run([...owner, join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);

  const pgCtl = (...args: string[]) => [...owner, join(bin, "pg_ctl"), "-D", data, ...args];
  const start = (port: number) => run(pgCtl("-l", join(dir, "log"), "-o", serverOptions(port, dir), "-w", "start"));
  // The port is free when chosen, but another process may take it first: try again on another.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start(port);
      break;
    } catch (error) {
      if (attempt === 3) throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${await Bun.file(join(dir, "log")).text()}`);
    }
  }
  let running = true;
  const stop = track(
    () => running && run(pgCtl("-m", "immediate", "-w", "stop")),
    () => Bun.spawnSync(pgCtl("-m", "immediate", "stop")),
  );

  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = new SQL(url(), { max: 1 });
  const closeAdmin = track(() => admin.close());
  let databases = 0;
  return {
    url,
    async database() {
      const name = `test_${++databases}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async stop() {
      await run(pgCtl("-m", "fast", "-w", "stop"));
      running = false;
    },
    async start() {
      await start(port);
      running = true;
    },
    async close() {
      await closeAdmin();
      await stop();
    },
  };
}
