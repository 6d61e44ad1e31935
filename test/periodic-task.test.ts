// The runner of the server's sweeps: one run at a time, failures reported, stop waits for the run under way.

import { expect, test } from "bun:test";
import { PeriodicTask } from "../src/periodic-task.ts";

test("a run asked for while one is under way joins it; a failure is reported and the next run goes on", async () => {
  let runs = 0, release = () => {};
  const failures: unknown[] = [];
  const task = new PeriodicTask(async () => {
    runs += 1;
    await new Promise<void>((resolve) => (release = resolve));
    if (runs === 1) throw new Error("store down");
  }, (error) => failures.push(error));
  const first = task.run(), second = task.run();
  expect(second).toBe(first);
  release();
  await first;
  expect([runs, failures.length]).toEqual([1, 1]);
  const third = task.run();
  release();
  await third;
  expect([runs, failures.length]).toEqual([2, 1]);
});

test("stop waits for the run under way and no tick follows", async () => {
  let runs = 0, finished = false;
  const task = new PeriodicTask(async () => {
    runs += 1;
    await Bun.sleep(50);
    finished = true;
  }, () => {});
  task.start(10, true);
  await task.stop();
  expect(finished).toBe(true);
  const after = runs;
  await Bun.sleep(40);
  expect(runs).toBe(after);
});
