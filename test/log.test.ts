import { describe, expect, test } from "bun:test";
import { createLogger, MAX_FIELD_CHARS, MAX_STACK_CHARS, type LogLevel } from "../src/log.ts";

function capture(level: LogLevel) {
  const lines: string[] = [];
  const log = createLogger({ level, write: (line) => lines.push(line), now: () => Date.UTC(2026, 10, 23, 12) });
  return { log, lines, parsed: () => lines.map((line) => JSON.parse(line)) };
}

describe("the operational log", () => {
  test("one JSON object per line with time, level, message and the fields given", () => {
    const { log, parsed } = capture("info");
    log.info("request", { method: "POST", status: 200, ms: 1.5, client: null, skipped: undefined });
    expect(parsed()).toEqual([
      { time: "2026-11-23T12:00:00.000Z", level: "info", msg: "request", method: "POST", status: 200, ms: 1.5, client: null },
    ]);
  });

  test("the level filters: error < warn < info < debug", () => {
    const seen = (level: LogLevel) => {
      const { log, parsed } = capture(level);
      log.error("e");
      log.warn("w");
      log.info("i");
      log.debug("d");
      return parsed().map((line) => line.msg);
    };
    expect(seen("error")).toEqual(["e"]);
    expect(seen("warn")).toEqual(["e", "w"]);
    expect(seen("info")).toEqual(["e", "w", "i"]);
    expect(seen("debug")).toEqual(["e", "w", "i", "d"]);
    expect(capture("warn").log.enabled("info")).toBe(false);
  });

  test("long values are cut and a line stays one line, whatever the text holds", () => {
    const { log, lines, parsed } = capture("debug");
    log.warn("x".repeat(10_000), { path: `/a\n/b${"y".repeat(100_000)}` });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    expect(lines[0]!.length).toBeLessThan(3 * MAX_FIELD_CHARS);
    const [line] = parsed();
    expect(line.msg).toHaveLength(MAX_FIELD_CHARS);
    expect(line.msg.endsWith("…")).toBe(true);
    expect(line.path.startsWith("/a\n/b")).toBe(true);
  });

  test("an error becomes its name, message and a bounded stack", () => {
    const { log, parsed } = capture("error");
    const deep = (n: number): Error => (n === 0 ? new Error("boom ".repeat(1000)) : deep(n - 1));
    const error = deep(50);
    error.stack = `Error: boom\n${"    at frame (file.ts:1:1)\n".repeat(1000)}`;
    log.error("unexpected error", { error });
    const [line] = parsed();
    expect(line.error.startsWith("Error: boom")).toBe(true);
    expect(line.error.length).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(line.stack.startsWith("at frame (file.ts:1:1)")).toBe(true);
    expect(line.stack.length).toBeLessThanOrEqual(MAX_STACK_CHARS);
    log.error("not an error object", { error: "a string" });
    expect(parsed()[1].error).toBe("a string");
  });
});
