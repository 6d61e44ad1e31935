// MOTDs: the two lines the game's server list shows, and the padding that
// fakes centring in it trimmed.

import { describe, expect, test } from "bun:test";
import { parseFormatted } from "../../src/minecraft/format.ts";
import { motdLineRuns, splitMotd, trimPadding } from "../../src/minecraft/motd.ts";

describe("MOTD lines as the server list shows them", () => {
  test("splits what the plugin pushes into two § lines", () => {
    expect(splitMotd("§aWelcome\n§7Second line")).toEqual(["§aWelcome", "§7Second line"]);
    expect(splitMotd("Only one")).toEqual(["§rOnly one", ""]);
    expect(splitMotd("")).toEqual(["", ""]);
    expect(splitMotd("a\nb\nc")).toEqual(["§ra", "§rb"]);
  });

  test("a style carried over the line break is written on the second line", () => {
    const [first, second] = splitMotd("§c§lHot §rcold §6warm\nstill warm");
    expect(second).toBe("§6still warm");
    expect(parseFormatted(first)).toEqual(parseFormatted("§c§lHot §rcold §6warm"));
  });

  test("JSON chat components and hex colours become § text that parses back to the same runs", () => {
    const component = { text: "", extra: [{ text: "Hex ", color: "#ff8800", bold: true }, { text: "aqua\nline two", color: "aqua", underlined: true }] };
    const [first, second] = splitMotd(component);
    expect(first).toBe("§x§f§f§8§8§0§0§lHex §b§naqua");
    expect(second).toBe("§b§nline two");
    expect(splitMotd(first + "\n" + second)).toEqual([first, second]);
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
