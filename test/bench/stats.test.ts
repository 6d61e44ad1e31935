// The bench's percentile helper: nearest rank over every sample.

import { describe, expect, test } from "bun:test";
import { middle, percentile, spread } from "../../bench/report/stats.ts";

describe("percentile", () => {
  const tens = Array.from({ length: 10 }, (_, i) => (i + 1) * 10); // 10, 20, ..., 100

  test("nearest rank: the smallest value with at least p of the samples at or below it", () => {
    expect(percentile(tens, 0.5)).toBe(50);
    expect(percentile(tens, 0.51)).toBe(60);
    expect(percentile(tens, 0.9)).toBe(90);
    expect(percentile(tens, 0.95)).toBe(100);
    expect(percentile(tens, 1)).toBe(100);
    expect(percentile(tens, 0)).toBe(10);
  });

  test("p99 of 1,000 samples is the 990th, not the largest", () => {
    const samples = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(percentile(samples, 0.99)).toBe(990);
    expect(percentile(samples, 0.5)).toBe(500);
  });

  test("one sample is every percentile", () => {
    expect(percentile([7], 0.01)).toBe(7);
    expect(percentile([7], 0.99)).toBe(7);
  });

  test("no samples or a rank outside 0..1 is an error, not a number", () => {
    expect(() => percentile([], 0.5)).toThrow("no samples");
    expect(() => percentile(tens, 1.5)).toThrow("from 0 to 1");
    expect(() => percentile(tens, Number.NaN)).toThrow("from 0 to 1");
  });
});

describe("spread", () => {
  test("sorts numerically (not as text) and leaves the input alone", () => {
    const samples = [9, 100, 1, 20, 3];
    const result = spread(samples);
    expect(result).toEqual({ median: 9, p95: 100, p99: 100, samples: 5 });
    expect(samples).toEqual([9, 100, 1, 20, 3]);
  });

  test("middle of rounds: the lower of two middles", () => {
    expect(middle([0.4, 0.9, 0.5])).toBe(0.5);
    expect(middle([2, 1, 4, 3])).toBe(2);
  });
});
