import { expect, test } from "bun:test";
import { ByteQueue } from "../../src/lookup/byte-queue.ts";

test("bytes pushed one at a time come out in order, and consumed bytes are dropped", () => {
  const queue = new ByteQueue();
  for (let i = 0; i < 5000; i++) queue.push(Uint8Array.of(i & 0xff));
  expect(queue.length).toBe(5000);
  expect(queue.view()[4999]).toBe(4999 & 0xff);
  queue.consume(4990);
  expect([...queue.view()]).toEqual([4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999].map((n) => n & 0xff));
  queue.push(Uint8Array.of(1, 2, 3));
  expect(queue.length).toBe(13);
  expect([...queue.view().subarray(10)]).toEqual([1, 2, 3]);
});
