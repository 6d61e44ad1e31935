import { describe, expect, test } from "bun:test";
import { brightness, parseBadgeColor, parseCssColor, textColorsOn } from "../../src/badge/colors.ts";
import { rgba } from "../../src/render/index.ts";

const hexOf = (input: string) => {
  const color = parseBadgeColor(input);
  if (!color) return null;
  const { r, g, b, a } = color.rgba;
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}${a === 255 ? "" : a.toString(16).padStart(2, "0")}`;
};

describe("badge colours as shields reads them", () => {
  test("shields' palette wins over CSS keywords of the same name", () => {
    expect(parseBadgeColor("red")).toEqual({ css: "red", rgba: rgba(0xdd, 0x43, 0x43) });
    expect(hexOf("brightgreen")).toBe("#44bb00");
    expect(hexOf("green")).toBe("#67ac09");
    expect(hexOf("blue")).toBe("#007ec6");
    expect(hexOf("lightgrey")).toBe("#939393");
  });

  test("aliases name their palette colour", () => {
    expect(parseBadgeColor("success")?.css).toBe("brightgreen");
    expect(parseBadgeColor("critical")?.css).toBe("red");
    expect(parseBadgeColor("informational")?.css).toBe("blue");
    expect(parseBadgeColor("inactive")?.css).toBe("lightgrey");
    expect(hexOf("gray")).toBe("#555555");
  });

  test("3 or 6 hex digits without #", () => {
    expect(parseBadgeColor("ABC")).toEqual({ css: "#abc", rgba: rgba(0xaa, 0xbb, 0xcc) });
    expect(hexOf("ff69b4")).toBe("#ff69b4");
    expect(parseBadgeColor("ff69b")).toBeNull();
  });

  test("CSS colours: keywords, #hex with alpha, rgb() and hsl() in both syntaxes", () => {
    expect(hexOf("pink")).toBe("#ffc0cb");
    expect(hexOf("rebeccapurple")).toBe("#663399");
    expect(hexOf("#0f08")).toBe("#00ff0088");
    expect(hexOf("rgb(10, 20, 30)")).toBe("#0a141e");
    expect(hexOf("rgba(255,0,0,0.5)")).toBe("#ff000080");
    expect(hexOf("rgb(100% 0% 50% / 25%)")).toBe("#ff008040");
    expect(hexOf("hsl(120, 100%, 25%)")).toBe("#008000");
    expect(hexOf("hsla(0deg 100% 50% / 1)")).toBe("#ff0000");
    expect(parseBadgeColor("RGB(1,2,3)")?.css).toBe("rgb(1,2,3)");
  });

  test("anything else is no colour (the default stays)", () => {
    for (const bad of ["", "nocolor", "#12", "rgb(1,2)", "rgb(a,b,c)", "hsl(10, 20, 30)", "constructor", "__proto__", "toString", "x".repeat(100)]) {
      expect(parseBadgeColor(bad)).toBeNull();
    }
    expect(parseCssColor("url(x)")).toBeNull();
  });
});

describe("text colour by background brightness", () => {
  test("shields' formula, rounded to two decimals", () => {
    expect(brightness(rgba(255, 255, 255))).toBe(1);
    expect(brightness(rgba(0xd8, 0xb8, 0x00))).toBe(0.68); // shields' yellow: still white text
  });

  test("white over a dark shadow up to 0.69, #333 over #ccc above", () => {
    expect(textColorsOn(rgba(0xd8, 0xb8, 0x00))).toEqual({ text: rgba(255, 255, 255), shadow: rgba(1, 1, 1) });
    expect(textColorsOn(parseBadgeColor("pink")!.rgba)).toEqual({ text: rgba(0x33, 0x33, 0x33), shadow: rgba(0xcc, 0xcc, 0xcc) });
  });
});
