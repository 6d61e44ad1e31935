// What an animated banner cycles through (src/banner/animation.ts) and what
// its drawing costs (draw-cost.ts, draw-memory.ts): pure functions.

import { describe, expect, test } from "bun:test";
import { animationStates, frameCount, frameSteps, MAX_DURATION_MS, MAX_FRAMES, MAX_STATES, stateData } from "../../src/banner/animation.ts";
import type { ServerBannerData } from "../../src/banner/model.ts";
import { drawCost } from "../../src/http/drawing/draw-cost.ts";
import { drawingMemory } from "../../src/serve/drawing/draw-memory.ts";

const DATA: ServerBannerData = {
  name: "Skyblock", status: "online", players: { online: 1284, max: 5000 }, motd: ["§aWelcome", "§bSecond"],
  version: "1.21.4", latencyMs: null, favicon: null, history: [], address: "play.example.com",
};

describe("states", () => {
  test("motd: each non-blank line alone; stats: the still banner, then players, version and join address", () => {
    expect(animationStates("motd", DATA)).toEqual([{ line: "§aWelcome" }, { line: "§bSecond" }]);
    expect(animationStates("motd", { ...DATA, motd: ["§aOnly", "§7  "] })).toEqual([{ line: "§aOnly" }]);
    expect(animationStates("stats", DATA)).toEqual([null, { line: "1284 / 5000 players online" }, { line: "Version 1.21.4" }, { line: "Join play.example.com" }]);
    expect(animationStates("stats", { ...DATA, uptime: 0.99996 }).at(-1)).toEqual({ line: "99.9% uptime, last 7 days" });
  });

  test("stats leaves out what is unknown or hidden; an offline server says so", () => {
    const hidden = new Set(["version", "address"] as const);
    expect(animationStates("stats", { ...DATA, hidden })).toEqual([null, { line: "1284 / 5000 players online" }]);
    expect(animationStates("stats", { ...DATA, status: "offline", players: null, version: null, address: null })).toEqual([null, { line: "Offline" }]);
  });

  test("a state's line takes the MOTD's row, or the name's where there is none or the MOTD is hidden", () => {
    expect(stateData(DATA, { line: "Version 1.21.4" }, "motd").motd).toEqual(["Version 1.21.4", ""]);
    expect(stateData(DATA, { line: "Version 1.21.4" }, "name")).toMatchObject({ name: "Version 1.21.4", motd: DATA.motd });
    expect(stateData({ ...DATA, hidden: new Set(["motd"]) }, { line: "x" }, "motd")).toMatchObject({ name: "x" });
    expect(stateData(DATA, null, "motd")).toBe(DATA);
  });
});

describe("frames", () => {
  test("a hold of 2.5 s and a fade of two 80 ms frames per state; at most 16 frames and 15 s", () => {
    expect(frameSteps(2).map((s) => [s.from, s.to, s.mix, s.durationMs])).toEqual([
      [0, 1, 0, 2500], [0, 1, 1 / 3, 80], [0, 1, 2 / 3, 80],
      [1, 0, 0, 2500], [1, 0, 1 / 3, 80], [1, 0, 2 / 3, 80],
    ]);
    expect(frameSteps(1)).toEqual([{ from: 0, to: 0, mix: 0, durationMs: 2500 }]);
    const longest = frameSteps(MAX_STATES);
    expect(longest.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(longest.reduce((sum, s) => sum + s.durationMs, 0)).toBeLessThanOrEqual(MAX_DURATION_MS);
    expect(frameCount("stats", DATA)).toBe(12);
    expect(frameCount("stats", { ...DATA, uptime: 0.98 })).toBe(15);
  });

  test("an animation costs a still per state and one more for its frames, and holds its states' pixmaps", () => {
    const strip = { pixels: 468 * 60, contentType: "image/gif" as const };
    expect(drawCost(strip)).toBe(4);
    expect(drawCost({ ...strip, frames: 1 })).toBe(4);
    expect(drawCost({ ...strip, frames: 9 })).toBe(16);
    expect(drawCost({ ...strip, frames: 15 })).toBe(24);
    expect(drawingMemory({ ...strip, frames: 15 })).toBeGreaterThan(drawingMemory(strip) + 4 * MAX_STATES * strip.pixels);
  });
});
