// Version naming: the game version a banner or badge shows, from what servers report.

import { describe, expect, test } from "bun:test";
import { gameVersion } from "../../src/minecraft/version.ts";

describe("gameVersion", () => {
  test("takes the game version out of what Bukkit-based servers report", () => {
    expect(gameVersion("1.21.4-232-ab12cd3 (MC: 1.21.4)")).toBe("1.21.4");
    expect(gameVersion("git-Paper-196 (MC: 1.20.1)")).toBe("1.20.1");
    expect(gameVersion("1.21.4-R0.1-SNAPSHOT")).toBe("1.21.4");
  });

  test("keeps a version name a server chose, without its colour codes", () => {
    expect(gameVersion("Paper 1.21.4")).toBe("Paper 1.21.4");
    expect(gameVersion("§cBungeeCord 1.8.x-1.21.x")).toBe("BungeeCord 1.8.x-1.21.x");
    expect(gameVersion("1.21")).toBe("1.21");
  });

  test("has nothing to show for missing or blank versions", () => {
    expect(gameVersion(null)).toBeNull();
    expect(gameVersion("   ")).toBeNull();
    expect(gameVersion("§a§l")).toBeNull();
    expect(gameVersion("x".repeat(500))!.length).toBe(64);
  });
});
