// Our SVG badges against shields' own badge-maker 6: for the same label,
// message and colours, in every style, the same element tree (names,
// attributes, text; ids normalised) and so the same width and height, over
// hundreds of pairs of ASCII, digits, punctuation, accented, CJK and RTL
// text and emoji. Then hostile text: whatever a label or message holds, the
// SVG reads as XML with the same elements, and the text comes back as it was.

import { describe, expect, test } from "bun:test";
import { makeBadge } from "badge-maker";
import { parseBadgeColor } from "../../src/badge/colors.ts";
import { badgeSvg } from "../../src/badge/badge-svg.ts";
import type { BadgeContent } from "../../src/badge/badge-layout.ts";
import { STYLE_NAMES, type StyleName } from "../../src/badge/styles.ts";
import { elementsOf, parseXml, textOf, withNormalizedIds } from "./support/svg-tree.ts";

const LABELS = [
  "version", "downloads", "rating", "status", "minecraft", "players", "tps", "build", "Discord", "EzShops API", "my custom label",
  "café", "Straße", "日本語", "סטטוס", "статус", "🎮 players", "ĳ", "a&b", "<tag>", "\"quoted\"", "it's", "1.8-1.21", "x",
];
const MESSAGES = [
  "v3.2.1", "12k", "1.1k", "999", "4.6/5 (87)", "active", "inactive", "1.20-1.21", "Paper/Folia+2", "N/A", "MIT", "Apache-2.0",
  "12/100", "online", "offline", "19.98", "not found", "v2.0.0-beta.1", "rate limited", "3/4 online", "🚀🚀", "👨‍👩‍👧", "ß", "日本",
  "naïve", "x>y", "a & b", "100%",
];
/** Colour parameters both read alike: palette names, aliases, bare hex, CSS keywords, #hex, rgb(). */
const COLORS = ["blue", "brightgreen", "informational", "ff69b4", "abc", "white", "#123456", "rgb(200,200,10)", "yellow", "lightgrey"];

/** Texts from a fixed seed over printable ASCII and a few scripts and emoji: the characters nobody thought of. */
function randomTexts(count: number): string[] {
  const alphabet = [...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)), "é", "ü", "Ø", "ж", "λ", "中", "文", "ا", "😀", "❤️", " ", "\u00a0", "\u200b"];
  let seed = 20_261_126;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () =>
    "a" + Array.from({ length: Math.floor(next() * 20) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(""));
}

function content(label: string, message: string, style: StyleName, color: string, labelColor?: string): BadgeContent {
  return { label, message, style, color: parseBadgeColor(color)!, labelColor: labelColor === undefined ? undefined : parseBadgeColor(labelColor)! };
}

function shields(label: string, message: string, style: StyleName, color: string, labelColor?: string): string {
  return makeBadge({ label, message, style, color, ...(labelColor === undefined ? {} : { labelColor }) });
}

const sizeOf = (svg: string) => {
  const { attributes } = parseXml(svg);
  return { width: Number(attributes.width), height: Number(attributes.height) };
};

describe("SVG badges as badge-maker writes them", () => {
  for (const style of STYLE_NAMES) {
    test(style, () => {
      const random = randomTexts(240);
      type Case = readonly [label: string, message: string, color: string, labelColor: string | undefined];
      const cases: Case[] = [
        ...LABELS.flatMap((label, i) => MESSAGES.map((message, j) => [label, message, COLORS[(i + j) % COLORS.length]!, undefined] as Case)),
        ...random.map((text, i) => [text, random[(i + 7) % random.length]!, COLORS[i % COLORS.length]!, COLORS[(i + 3) % COLORS.length]] as Case),
        // No label, with and without a label colour.
        ["", "12k", "blue", undefined], ["", "12k", "blue", "red"], ["  padded  ", " x ", "orange", undefined],
      ];
      expect(cases.length).toBeGreaterThan(900);
      const differing = cases.filter(([label, message, color, labelColor]) => {
        const ours = parseXml(badgeSvg(content(label, message, style, color, labelColor)));
        const theirs = parseXml(shields(label, message, style, color, labelColor));
        return !Bun.deepEquals(withNormalizedIds(ours), withNormalizedIds(theirs), true);
      });
      expect(differing).toEqual([]);
    });
  }

  test("one badge byte for byte, and its size", () => {
    const ours = badgeSvg(content("build", "passing", "flat", "brightgreen"));
    expect(ours).toBe(shields("build", "passing", "flat", "brightgreen"));
    expect(sizeOf(ours)).toEqual({ width: 88, height: 20 });
  });

  test("for-the-badge keeps its quarter pixels", () => {
    const ours = badgeSvg(content("stars", "1.2k", "for-the-badge", "blue"));
    expect(sizeOf(ours)).toEqual(sizeOf(shields("stars", "1.2k", "for-the-badge", "blue")));
    expect(sizeOf(ours).width % 1).not.toBe(0);
  });
});

describe("hostile text", () => {
  const HOSTILE = [
    "<script>alert(1)</script>", "\"><script>alert(1)</script>", "' onload='alert(1)", "a & b &amp; &#60;", "]]><script>x</script>",
    "<![CDATA[x]]>", "<!-- c -->", "<?xml x?>", "\u0000\u0001\u0008\u000b\u001f\u007f", "\ud800 lone \udfff", "\ufffe\uffff",
    "x".repeat(5_000), "😀".repeat(400), "&#x3C;script&#x3E;", "<svg onload=alert(1)>", "url(#blur)",
  ];
  /** What the SVG can show of `text`: characters XML cannot hold are left out (they measure nothing, or as "m"). */
  const shown = (text: string) =>
    text.replace(/[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "").trim();

  for (const style of STYLE_NAMES) {
    test(`${style}: reads as XML, no element a plain badge lacks, every text what was given`, () => {
      const plain = new Set(elementsOf(parseXml(badgeSvg(content("label", "message", style, "blue")))).map((element) => element.name));
      const cased = (text: string) => (style === "for-the-badge" ? text.toUpperCase() : text);
      for (const label of HOSTILE) {
        for (const message of [HOSTILE[0]!, label]) {
          const elements = elementsOf(parseXml(badgeSvg(content(label, message, style, "blue"))));
          expect(elements.filter((element) => !plain.has(element.name))).toEqual([]);
          const labelShown = cased(shown(label));
          const given = [style === "social" ? labelShown.charAt(0).toUpperCase() + labelShown.slice(1) : labelShown, cased(shown(message))];
          // Long text ends in "…" (badge-layout.ts): what is shown is how it began.
          const texts = elements.filter((element) => element.name === "text").map(textOf).filter((text) => text !== "");
          expect(texts.filter((text) => !given.some((whole) => whole.startsWith(text.replace(/…$/, ""))))).toEqual([]);
          expect(texts.length > 0).toBe(given.some((whole) => whole !== ""));
        }
      }
    });
  }

  test("an escaped text is the text: markup characters come back as characters", () => {
    const tree = parseXml(badgeSvg(content("<b>&\"'", "]]>", "flat", "blue")));
    expect(tree.attributes["aria-label"]).toBe("<b>&\"': ]]>");
    expect(textOf(elementsOf(tree).find((element) => element.name === "title")!)).toBe("<b>&\"': ]]>");
  });
});
