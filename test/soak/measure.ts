// What the soak measures of a server process from outside: resident memory
// (from /proc), the database's bytes on disk (with its WAL), the bytes it has
// logged; and the checks it prints, pass or fail, one line each.

import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, statSync } from "node:fs";

function statusKb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1];
  if (kb === undefined) throw new Error(`no ${field} for process ${pid}`);
  return Number(kb) * 1024;
}

/** Resident set size of a process, in bytes (Linux). */
export function rssBytes(pid: number): number {
  return statusKb(pid, "VmRSS");
}

/** The most resident memory the process has had (its high-water mark). */
export function peakRssBytes(pid: number): number {
  return statusKb(pid, "VmHWM");
}

/** Open file descriptors of a process (sockets included). */
export function openFiles(pid: number): number {
  return Number(Bun.spawnSync(["sh", "-c", `ls /proc/${pid}/fd | wc -l`]).stdout.toString().trim());
}

/**
 * The database's logical size as a reader sees it (pages in use, whether in
 * the file or still in the WAL), and the WAL file's own bytes: the WAL grows
 * to SQLite's checkpoint size and is then reused, so file sizes alone would
 * show a jump of up to 4 MB after a few pushes and nothing after.
 */
export function databaseBytes(reader: Database): number {
  const { page_count } = reader.query("PRAGMA page_count").get() as { page_count: number };
  const { page_size } = reader.query("PRAGMA page_size").get() as { page_size: number };
  return page_count * page_size;
}

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

export interface Sample {
  rss: number;
  db: number;
  wal: number;
  log: number;
}

export interface Target {
  pid: number;
  dbPath: string;
  /** A read-only connection to the server's database. */
  reader: Database;
  logBytes: () => number;
}

export function sample(target: Target): Sample {
  return { rss: rssBytes(target.pid), db: databaseBytes(target.reader), wal: fileBytes(`${target.dbPath}-wal`), log: target.logBytes() };
}

export const MB = 1024 * 1024;

export function mb(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

export class Checks {
  readonly all: Check[] = [];

  check(name: string, pass: boolean, detail: string): void {
    this.all.push({ name, pass, detail });
    console.log(`  ${pass ? "PASS" : "FAIL"}  ${name}: ${detail}`);
  }

  /** `value` at most `limit`, shown with `unit`. */
  atMost(name: string, value: number, limit: number, show: (n: number) => string = String): void {
    this.check(name, value <= limit, `${show(value)} (limit ${show(limit)})`);
  }

  get failed(): Check[] {
    return this.all.filter((check) => !check.pass);
  }
}

/** Runs `total` jobs, at most `concurrency` at once. */
export async function pool(total: number, concurrency: number, job: (index: number, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async (_, worker) => {
      while (next < total) await job(next++, worker);
    }),
  );
}
