// The CPU time of the PostgreSQL and Redis the bench started, read from
// outside like the servers' (/proc/<pid>/stat): the harness gives no process
// ids (pg_ctl starts PostgreSQL detached), so they are found by the port on
// their command lines, PostgreSQL's backends as its postmaster's children.

import { readdirSync, readFileSync } from "node:fs";
import { cpuSeconds } from "../report/proc.ts";

interface ProcessEntry {
  pid: number;
  ppid: number;
  command: string;
}

function processes(): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Field 4 (ppid) is the second after the ")" that ends the command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      found.push({ pid: Number(name), ppid, command });
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/**
 * The processes of the PostgreSQL listening on `postgresPort` (its
 * postmaster, with `-p PORT` on its command line, and every child) and of
 * the redis-server on `redisPort` (which names itself `redis-server
 * 127.0.0.1:PORT`). Read again before each measure: PostgreSQL starts a
 * backend per new connection.
 */
export function servicePids(postgresPort: number, redisPort: number): number[] {
  const all = processes();
  const postmasters = all.filter((p) => /\bpostgres\b/.test(p.command) && p.command.includes(`-p ${postgresPort} `)).map((p) => p.pid);
  const redis = all.filter((p) => p.command.includes("redis-server") && p.command.includes(`:${redisPort}`)).map((p) => p.pid);
  return [...postmasters, ...all.filter((p) => postmasters.includes(p.ppid)).map((p) => p.pid), ...redis];
}

/** User + system CPU seconds of `pids` so far, by pid (a process gone since is left out). */
export function cpuByPid(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      seconds.set(pid, cpuSeconds(pid));
    } catch {
      // Ended: its time is lost to the count, as its connection's was.
    }
  }
  return seconds;
}

/** CPU seconds used between two readings by the processes present at both, or new at the second. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
