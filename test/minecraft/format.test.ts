import { describe, expect, test } from "bun:test";
import {
  FORMAT_LIMITS,
  cutFormatted,
  PLAIN,
  parseFormatted,
  plainRun,
  splitLines,
  stripFormatting,
  toHtml,
  toPlainText,
  toSectionText,
  type StyledRun,
} from "../../src/minecraft/format.ts";

function run(text: string, style: Partial<StyledRun> = {}): StyledRun {
  return { ...PLAIN, ...style, text };
}

describe("§ codes", () => {
  test("plain text is one default-coloured run", () => {
    expect(parseFormatted("A Minecraft Server")).toEqual([run("A Minecraft Server")]);
  });

  test("colour codes 0-f and Bedrock's g", () => {
    expect(parseFormatted("§aGreen §cRed §gCoin")).toEqual([
      run("Green ", { color: "#55ff55" }),
      run("Red ", { color: "#ff5555" }),
      run("Coin", { color: "#ddd605" }),
    ]);
    expect(parseFormatted("§0a§1b§2c§3d§4e§5f§6g§7h§8i§9j§bk§dl§em§fn").map((r) => r.color)).toEqual([
      "#000000", "#0000aa", "#00aa00", "#00aaaa", "#aa0000", "#aa00aa", "#ffaa00", "#aaaaaa",
      "#555555", "#5555ff", "#55ffff", "#ff55ff", "#ffff55", "#ffffff",
    ]);
  });

  test("style codes add up; a colour code clears them (Java); §r resets", () => {
    expect(parseFormatted("§l§obold italic§6gold§nunder§rplain")).toEqual([
      run("bold italic", { bold: true, italic: true }),
      run("gold", { color: "#ffaa00" }),
      run("under", { color: "#ffaa00", underlined: true }),
      run("plain"),
    ]);
    expect(parseFormatted("§kxx§mstruck")).toEqual([
      run("xx", { obfuscated: true }),
      run("struck", { obfuscated: true, strikethrough: true }),
    ]);
  });

  test("codes are case-insensitive", () => {
    expect(parseFormatted("§AGreen§LBold")).toEqual([run("Green", { color: "#55ff55" }), run("Bold", { color: "#55ff55", bold: true })]);
  });

  test("§x§R§R§G§G§B§B hex colours", () => {
    expect(parseFormatted("§x§F§F§0§0§8§8Pink§lBold")).toEqual([
      run("Pink", { color: "#ff0088" }),
      run("Bold", { color: "#ff0088", bold: true }),
    ]);
  });

  test("a broken hex sequence and unknown codes are dropped, a trailing § too", () => {
    expect(parseFormatted("§x§F§Fbad")).toEqual([run("bad", { color: "#ffffff" })]);
    expect(parseFormatted("a§zb§")).toEqual([run("ab")]);
  });
});

describe("JSON chat components", () => {
  test("an object with text, colour and styles", () => {
    expect(parseFormatted({ text: "Hello", color: "gold", bold: true })).toEqual([run("Hello", { color: "#ffaa00", bold: true })]);
  });

  test("extra children inherit and may override", () => {
    const motd = { text: "", color: "gray", extra: [{ text: "Sky", color: "aqua", bold: true }, { text: "block", italic: true }, "\n", { text: "Season 5", color: "#FF8800", underlined: true }] };
    const runs = parseFormatted(motd);
    expect(runs).toEqual([
      run("Sky", { color: "#55ffff", bold: true }),
      run("block", { color: "#aaaaaa", italic: true }),
      run("\n", { color: "#aaaaaa" }),
      run("Season 5", { color: "#ff8800", underlined: true }),
    ]);
    expect(splitLines(runs).map((line) => toPlainText(line))).toEqual(["Skyblock", "Season 5"]);
  });

  test("an array: the first element is the parent of the rest", () => {
    expect(parseFormatted([{ text: "A", color: "red" }, "B", { text: "C", color: "blue" }])).toEqual([
      run("AB", { color: "#ff5555" }),
      run("C", { color: "#5555ff" }),
    ]);
  });

  test("a JSON string is parsed; a string that only looks like JSON stays text", () => {
    expect(parseFormatted('{"text":"Hi","color":"green"}')).toEqual([run("Hi", { color: "#55ff55" })]);
    expect(parseFormatted('"quoted"')).toEqual([run("quoted")]);
    expect(parseFormatted("[Survival] §aOpen")).toEqual([run("[Survival] "), run("Open", { color: "#55ff55" })]);
  });

  test("§ codes inside a component's text apply within it", () => {
    expect(parseFormatted({ text: "§cRed §lbold", extra: [{ text: "after" }] })).toEqual([
      run("Red ", { color: "#ff5555" }),
      run("bold", { color: "#ff5555", bold: true }),
      run("after"),
    ]);
  });

  test("translate shows its fallback or key; numbers and booleans show as text; unknown keys are ignored", () => {
    expect(toPlainText(parseFormatted({ translate: "multiplayer.status.unknown" }))).toBe("multiplayer.status.unknown");
    expect(toPlainText(parseFormatted({ translate: "x.y", fallback: "Fallback" }))).toBe("Fallback");
    expect(toPlainText(parseFormatted({ text: 42, extra: [true, { text: "!", hoverEvent: { action: "x" }, clickEvent: 1 }] }))).toBe("42true!");
  });

  test("color reset, unknown colour names and non-boolean flags fall back to the inherited style", () => {
    expect(parseFormatted({ text: "a", color: "red", extra: [{ text: "b", color: "reset" }, { text: "c", color: "mauve", bold: "yes" }] })).toEqual([
      run("a", { color: "#ff5555" }),
      run("b"),
      run("c", { color: "#ff5555" }),
    ]);
  });

  test("null, objects without text and empty arrays give no runs", () => {
    expect(parseFormatted(null)).toEqual([]);
    expect(parseFormatted({})).toEqual([]);
    expect(parseFormatted([])).toEqual([]);
  });
});

describe("hostile input", () => {
  test("deep nesting stops at the depth limit without overflowing the stack", () => {
    let deep: unknown = { text: "bottom" };
    for (let i = 0; i < 100_000; i++) deep = { text: "", extra: [deep] };
    expect(parseFormatted(deep)).toEqual([]);
    let shallow: unknown = { text: "ok" };
    for (let i = 0; i < 10; i++) shallow = { text: "", extra: [shallow] };
    expect(toPlainText(parseFormatted(shallow))).toBe("ok");
  });

  test("text is capped at 32 KiB characters and the run count is bounded", () => {
    expect(toPlainText(parseFormatted("x".repeat(100_000))).length).toBe(FORMAT_LIMITS.characters);
    const many = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? "§a" : "§c") + "y").join("");
    expect(parseFormatted(many).length).toBeLessThanOrEqual(FORMAT_LIMITS.runs);
  });
});

describe("output forms", () => {
  test("plain text drops all codes", () => {
    expect(toPlainText(parseFormatted("§6§lHypixel§r §7Network"))).toBe("Hypixel Network");
  });

  test("HTML is escaped and styled inline", () => {
    const html = toHtml(parseFormatted({ text: "<b>&", color: "red", bold: true, extra: [{ text: "x", underlined: true, strikethrough: true, obfuscated: true }, "\nplain"] }));
    expect(html).toBe(
      '<span style="color:#ff5555;font-weight:bold">&lt;b&gt;&amp;</span>' +
        '<span style="color:#ff5555;font-weight:bold;text-decoration:underline line-through" class="mc-obfuscated">x</span>' +
        '<span style="color:#ff5555;font-weight:bold"><br>plain</span>',
    );
    expect(toHtml(parseFormatted("plain"))).toBe("plain");
  });
});

describe("cutting § text to a length", () => {
  // Each piece with whether the text may end right after it. The ends are
  // written out by hand, not worked out by the code under test.
  const PIECES: Array<[piece: string, mayEndAfter: boolean]> = [
    ["A", true],
    ["§a", true],
    ["B", true],
    ["§x§1§2§3§4§5§6", true], // a whole hex colour is one code
    ["C", true],
    ["§§", true], // § as a code character: an unknown code, both go together
    ["😀", true], // two UTF-16 units
    ["§l", true],
    ["§X§a§B§c§D§e§F", true], // upper-case x and digits
    ["D", true],
    ["§x", false], // an unfinished hex colour: the game reads it as codes, but a cut must not end in one
    ["§1", false],
    ["§x", false],
    ["§2", false],
    ["E", true],
    ["§x§1§2§3§4§5", false],
    ["§r", true],
    ["F", true],
    ["§", true], // a lone § at the very end
  ];
  const text = PIECES.map(([piece]) => piece).join("");
  const ends = [0];
  let length = 0;
  for (const [piece, mayEndAfter] of PIECES) {
    length += piece.length;
    if (mayEndAfter) ends.push(length);
  }

  test("at every length: the longest start of the text that ends after a whole code or character", () => {
    for (let max = 0; max <= text.length + 1; max++) {
      const expected = max >= text.length ? text : text.slice(0, Math.max(...ends.filter((end) => end <= max)));
      expect([max, cutFormatted(text, max)]).toEqual([max, expected]);
    }
  });

  test("a cut never changes what the kept characters look like", () => {
    const whole = parseFormatted(text);
    for (let max = 0; max < text.length; max++) {
      const kept = parseFormatted(cutFormatted(text, max));
      const keptText = toPlainText(kept);
      expect(toPlainText(whole).startsWith(keptText)).toBe(true);
      // Styles of the kept characters, one per character, match the whole text's.
      const styles = (runs: StyledRun[]) => runs.flatMap((r) => [...r.text].map(() => ({ ...r, text: "" })));
      expect(styles(kept)).toEqual(styles(whole).slice(0, [...keptText].length));
    }
  });

  test("an emoji after a § is its code character whole: dropped with the §, never cut in half", () => {
    expect(parseFormatted("§😀x")).toEqual([run("x")]);
    expect(cutFormatted("ab§😀cd", 4)).toBe("ab");
  });
});

describe("writing runs back as § text", () => {
  test("each run starts with its colour (§r for none, §x pairs off the palette), then its flags", () => {
    const hex = parseFormatted([{ text: "a", color: "#123456" }, { text: "b", color: "#654321" }]);
    expect(toSectionText(hex)).toBe("§x§1§2§3§4§5§6a§x§6§5§4§3§2§1b");
    expect(toSectionText([run("Go", { color: "#55ff55", bold: true, obfuscated: true }), run(" on")])).toBe("§a§l§kGo§r on");
    expect(toSectionText([])).toBe("");
  });

  test("parses back into the same runs: palette and hex colours, no colour, each flag, and a leading bracket", () => {
    const component = [
      { text: "[plain] " },
      { text: "hex", color: "#123abc", italic: true },
      { text: " gold", color: "gold", bold: true, underlined: true, strikethrough: true, obfuscated: true },
      { text: " none", bold: true },
    ];
    const runs = parseFormatted(component);
    expect(parseFormatted(toSectionText(runs))).toEqual(runs);
    expect(parseFormatted(toSectionText([plainRun('"quoted"')]))).toEqual([plainRun('"quoted"')]);
  });
});

describe("text without its codes", () => {
  test("every § goes with the character after it, hex colours pair by pair; JSON is not read", () => {
    expect(stripFormatting("§6§lGold§r §x§f§f§0§0§0§0red§")).toBe("Gold red");
    expect(stripFormatting('{"text":"x"}')).toBe('{"text":"x"}');
  });
});
