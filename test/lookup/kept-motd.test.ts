import { describe, expect, test } from "bun:test";
import { keptMotd, MAX_MOTD_CHARS, parseKeptMotd } from "../../src/lookup/kept-motd.ts";
import { parseFormatted } from "../../src/minecraft/format.ts";
import { nearMaximalStatus } from "../support/lookup-replies.ts";

describe("the MOTD a result keeps", () => {
  test("is the raw text as sent: § text, or the chat component re-serialized, parsed again when shown", () => {
    expect(keptMotd("§aHello")).toEqual({ raw: "§aHello" });
    const component = { text: "Hi ", color: "gold", extra: [{ text: "there", bold: true }] };
    const kept = keptMotd(component);
    expect(JSON.parse(kept.raw)).toEqual(component);
    expect(parseKeptMotd(kept)).toEqual(parseFormatted(component));
    expect(keptMotd(undefined)).toEqual({ raw: "" });
    expect(keptMotd(null)).toEqual({ raw: "" });
  });

  test("a MOTD over the cap is kept as §-codes with the same styles, cut to the cap", () => {
    const huge = nearMaximalStatus(1).description;
    expect(huge.length).toBeGreaterThan(MAX_MOTD_CHARS);
    const kept = keptMotd(huge);
    expect(kept.raw.length).toBe(MAX_MOTD_CHARS);
    const runs = parseKeptMotd(kept);
    expect(runs.length).toBeGreaterThan(1000);
    // All but the last (maybe cut) run are exactly the ones the whole MOTD starts with.
    expect(runs.slice(0, -1)).toEqual(parseFormatted(huge).slice(0, runs.length - 1));
  });
});
