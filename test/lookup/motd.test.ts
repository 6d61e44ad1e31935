import { describe, expect, test } from "bun:test";
import { keptMotd, legacyCoded, MAX_MOTD_CHARS, motdRuns } from "../../src/lookup/motd.ts";
import { parseFormatted } from "../../src/minecraft/format.ts";
import { nearMaximalStatus } from "../support/lookup-replies.ts";

describe("the MOTD a result keeps", () => {
  test("is the raw text as sent: § text, or the chat component re-serialized, parsed again when shown", () => {
    expect(keptMotd("§aHello")).toEqual({ raw: "§aHello" });
    const component = { text: "Hi ", color: "gold", extra: [{ text: "there", bold: true }] };
    const kept = keptMotd(component);
    expect(JSON.parse(kept.raw)).toEqual(component);
    expect(motdRuns(kept)).toEqual(parseFormatted(component));
    expect(keptMotd(undefined)).toEqual({ raw: "" });
    expect(keptMotd(null)).toEqual({ raw: "" });
  });

  test("a MOTD over the cap is kept as §-codes with the same styles, cut to the cap", () => {
    const huge = nearMaximalStatus(1).description;
    expect(huge.length).toBeGreaterThan(MAX_MOTD_CHARS);
    const kept = keptMotd(huge);
    expect(kept.raw.length).toBe(MAX_MOTD_CHARS);
    const runs = motdRuns(kept);
    expect(runs.length).toBeGreaterThan(1000);
    // All but the last (maybe cut) run are exactly the ones the whole MOTD starts with.
    expect(runs.slice(0, -1)).toEqual(parseFormatted(huge).slice(0, runs.length - 1));
  });

  test("the cut keeps whole codes: never half a hex colour at the end", () => {
    const runs = parseFormatted([{ text: "a", color: "#123456" }, { text: "b", color: "#654321" }]);
    expect(legacyCoded(runs, 1_000)).toBe("§x§1§2§3§4§5§6a§x§6§5§4§3§2§1b");
    for (let max = 15; max < 29; max++) expect(legacyCoded(runs, max)).toBe("§x§1§2§3§4§5§6a");
    expect(legacyCoded(runs, 29)).toBe("§x§1§2§3§4§5§6a§x§6§5§4§3§2§1");
  });

  test("§-coding keeps every style: palette and hex colours, no colour, each flag, and a leading bracket", () => {
    const component = [
      { text: "[plain] " },
      { text: "hex", color: "#123abc", italic: true },
      { text: " gold", color: "gold", bold: true, underlined: true, strikethrough: true, obfuscated: true },
      { text: " none", bold: true },
    ];
    const runs = parseFormatted(component);
    expect(parseFormatted(legacyCoded(runs, 10_000))).toEqual(runs);
  });
});
