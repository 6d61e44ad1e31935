// The banner domain's pure helpers: game versions, counts, MOTD lines.

import { describe, expect, test } from "bun:test";
import { compactCount, exactCount, THIN_SPACE } from "../../src/banner/numbers.ts";
import { motdLineRuns, splitMotd, toSectionText, trimPadding } from "../../src/minecraft/motd.ts";
import { gameVersion } from "../../src/minecraft/version.ts";
import { parseFormatted } from "../../src/minecraft/format.ts";

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

describe("counts", () => {
  test("exact counts group digits with thin spaces from five digits on", () => {
    expect(exactCount(3)).toBe("3");
    expect(exactCount(1234)).toBe("1234");
    expect(exactCount(12_345)).toBe(`12${THIN_SPACE}345`);
    expect(exactCount(1_234_567, ",")).toBe("1,234,567");
    expect(exactCount(-5)).toBe("0");
    expect(exactCount(Number.NaN)).toBe("0");
    expect(exactCount(7.9)).toBe("7");
  });

  test("compact counts keep at most one decimal and never round up a unit", () => {
    expect(compactCount(999)).toBe("999");
    expect(compactCount(1000)).toBe("1k");
    expect(compactCount(1234)).toBe("1.2k");
    expect(compactCount(12_345)).toBe("12.3k");
    expect(compactCount(123_456)).toBe("123k");
    expect(compactCount(999_999)).toBe("999k");
    expect(compactCount(1_250_000)).toBe("1.2M");
    expect(compactCount(4_100)).toBe("4.1k");
    expect(compactCount(3e9)).toBe("3B");
  });
});

describe("MOTD lines", () => {
  test("splits what the plugin pushes into two § lines", () => {
    expect(splitMotd("§aWelcome\n§7Second line")).toEqual(["§aWelcome", "§7Second line"]);
    expect(splitMotd("Only one")).toEqual(["Only one", ""]);
    expect(splitMotd("")).toEqual(["", ""]);
    expect(splitMotd("a\nb\nc")).toEqual(["a", "b"]);
  });

  test("a style carried over the line break is written on the second line", () => {
    const [first, second] = splitMotd("§c§lHot §rcold §6warm\nstill warm");
    expect(second).toBe("§6still warm");
    expect(parseFormatted(first)).toEqual(parseFormatted("§c§lHot §rcold §6warm"));
  });

  test("JSON chat components and hex colours become § text that parses back to the same runs", () => {
    const component = { text: "", extra: [{ text: "Hex ", color: "#ff8800", bold: true }, { text: "aqua\nline two", color: "aqua", underlined: true }] };
    const [first, second] = splitMotd(component);
    expect(first).toBe("§x§f§f§8§8§0§0§lHex §r§b§naqua");
    expect(second).toBe("§b§nline two");
    const runs = parseFormatted("§x§f§f§8§8§0§0§lHex §r§b§nx");
    expect(toSectionText(runs)).toBe("§x§f§f§8§8§0§0§lHex §r§b§nx");
  });

  test("padding spaces that fake centring are trimmed, through colour codes", () => {
    const runs = trimPadding(parseFormatted("   §6  §lCentred §atitle  §r   "));
    expect(runs.map((run) => run.text).join("")).toBe("Centred title");
    expect(runs[0]!.bold).toBe(true);
  });

  test("spaces that draw a line (struck through or underlined) stay", () => {
    const runs = trimPadding(parseFormatted("§8§m     §r §fTitle §8§m     §r   "));
    expect(runs.map((run) => run.text)).toEqual(["     ", " ", "Title ", "     "]);
    expect(runs[0]!.strikethrough).toBe(true);
  });

  test("a line of only codes or spaces has no runs; a bracketed line is not read as JSON", () => {
    expect(motdLineRuns("§a§l§r   ")).toEqual([]);
    expect(motdLineRuns("[1]").map((run) => run.text)).toEqual(["[1]"]);
    expect(motdLineRuns('"quoted"').map((run) => run.text)).toEqual(['"quoted"']);
  });
});
