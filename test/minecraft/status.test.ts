// A server's status at a time: a pushed record reads offline once it is stale.

import { describe, expect, test } from "bun:test";
import { statusAt } from "../../src/minecraft/status.ts";

describe("server status at a time", () => {
  const minute = 60_000;
  const row = (status: string | null, lastSeen: number) => ({ status, lastSeen });

  test("a fresh record shows what it pushed; anything but online is offline", () => {
    expect(statusAt(row("online", 0), 10 * minute, 15 * minute)).toBe("online");
    expect(statusAt(row("offline", 0), 10 * minute, 15 * minute)).toBe("offline");
    expect(statusAt(row("maintenance", 0), 0, 15 * minute)).toBe("offline");
    expect(statusAt(row(null, 0), 0, 15 * minute)).toBe("offline");
  });

  test("a record not refreshed within the stale time reads offline, whatever it said", () => {
    expect(statusAt(row("online", 0), 15 * minute, 15 * minute)).toBe("online");
    expect(statusAt(row("online", 0), 15 * minute + 1, 15 * minute)).toBe("offline");
  });
});
