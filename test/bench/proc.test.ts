// Reading a process's CPU time from /proc/<pid>/stat.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { cpuSeconds, cpuTicks, mainThreadCpuSeconds } from "../../bench/report/proc.ts";

// Fields 3-15 of a real stat line: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime.
const tail = "S 1 5854 5854 0 -1 4194560 21004 0 3 0 1234 567 0 0 20 0 7 0";

describe("cpuTicks", () => {
  test("utime + stime (fields 14 and 15)", () => {
    expect(cpuTicks(`5898 (bun) ${tail}`)).toBe(1234 + 567);
  });

  test("a command name with spaces and parentheses does not shift the fields", () => {
    expect(cpuTicks(`42 (my (odd) name) ${tail}`)).toBe(1801);
  });

  test("this process's own line parses (Linux)", () => {
    const ticks = cpuTicks(readFileSync("/proc/self/stat", "utf8"));
    expect(Number.isInteger(ticks)).toBe(true);
    expect(ticks).toBeGreaterThanOrEqual(0);
  });

  test("text that is not a stat line is an error", () => {
    expect(() => cpuTicks("no parentheses here")).toThrow("not a /proc/<pid>/stat line");
    expect(() => cpuTicks("1 (bun) S 1 2")).toThrow("no utime/stime");
  });
});

describe("mainThreadCpuSeconds", () => {
  test("counts the main thread only: another thread's 400 ms of CPU show in the process's time, not in it", async () => {
    // The thread spins until it has had 400 ms of CPU by its own /proc count (40 ticks of 10 ms), not of the
    // clock: on a loaded machine a clock-timed spin gets less CPU than it waits.
    const busy = URL.createObjectURL(new Blob([`
      import { readFileSync } from "node:fs";
      const ticks = () => { const f = readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1].split(" "); return Number(f[11]) + Number(f[12]); };
      const start = ticks();
      while (ticks() - start < 40);
      postMessage("done");
    `], { type: "text/javascript" }));
    const [processBefore, mainBefore] = [cpuSeconds(process.pid), mainThreadCpuSeconds(process.pid)];
    const worker = new Worker(busy);
    await new Promise((resolve) => (worker.onmessage = resolve));
    worker.terminate();
    expect(cpuSeconds(process.pid) - processBefore).toBeGreaterThanOrEqual(0.39);
    expect(mainThreadCpuSeconds(process.pid) - mainBefore).toBeLessThan(0.15);
  });
});
