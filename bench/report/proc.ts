// The CPU time of a server process, read from outside (Linux /proc), which
// the HTTP benches divide by the requests it served. (Its memory comes from
// test/soak/measure.ts, which the soak reads the same way.)

import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat: USER_HZ, which Linux fixes at 100 for user space on x86 and ARM. */
const TICKS_PER_SECOND = 100;

/**
 * User + system CPU time in clock ticks from the text of /proc/<pid>/stat.
 * The command name (field 2) is in parentheses and may hold spaces and
 * parentheses itself, so fields are counted from the last ")".
 */
export function cpuTicks(stat: string): number {
  const end = stat.lastIndexOf(")");
  if (end < 0) throw new Error("not a /proc/<pid>/stat line");
  // After ")": field 3 (state) is index 0, so utime (field 14) is index 11 and stime (15) index 12.
  const fields = stat.slice(end + 2).trim().split(/\s+/);
  const utime = Number(fields[11]), stime = Number(fields[12]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error("no utime/stime in /proc/<pid>/stat");
  return utime + stime;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  return cpuTicks(readFileSync(`/proc/${pid}/stat`, "utf8")) / TICKS_PER_SECOND;
}

/**
 * CPU seconds the process's main thread has used (/proc/<pid>/task/<pid>/stat):
 * in `serve`, the thread that answers requests, beside the render threads.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuTicks(readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8")) / TICKS_PER_SECOND;
}
