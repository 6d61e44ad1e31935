// The encoders' working buffers: reused while images of one size come, given
// back once the drawings since the last trim no longer needed their size.

import { describe, expect, test } from "bun:test";
import { WorkingBuffer } from "../../src/render/working-buffer.ts";

describe("WorkingBuffer", () => {
  test("grows to the largest asked for and hands out the same memory again", () => {
    const buffer = new WorkingBuffer();
    const first = buffer.take(1000);
    expect(first.length).toBe(1000);
    expect(buffer.take(400).buffer).toBe(first.buffer);
    const larger = buffer.take(5000);
    expect(larger.length).toBe(5000);
    expect(buffer.heldBytes).toBe(5000);
  });

  test("a trim keeps the largest size asked for since the last trim, and frees the larger buffer at once", () => {
    const buffer = new WorkingBuffer();
    const large = buffer.take(5_760_000); // a 1200x300 banner at scale 2, straight
    buffer.trim(); // asked for since the last trim: kept
    expect(buffer.heldBytes).toBe(5_760_000);
    buffer.take(4_000); // badges only, until the next trim
    buffer.take(7_000);
    buffer.trim();
    expect(buffer.heldBytes).toBe(7_000);
    expect(large.buffer.byteLength).toBe(0); // detached: its memory is back, not left for the collector
    buffer.trim(); // nothing asked for since: nothing kept
    expect(buffer.heldBytes).toBe(0);
    expect(buffer.take(10).length).toBe(10);
  });
});
