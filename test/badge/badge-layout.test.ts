import { describe, expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { MAX_TEXT_WIDTH, ellipsizeToWidth, layoutBadge, type BadgeContent, type PlateLayout, type SocialLayout } from "../../src/badge/badge-layout.ts";
import { STYLES, type StyleName } from "../../src/badge/styles.ts";
import { preferredWidth, textWidth } from "../../src/badge/text-width.ts";

const content = (label: string, message: string, style: StyleName = "flat"): BadgeContent =>
  ({ label, message, color: badgeColor("brightgreen"), style });
const VERDANA_11 = { size: 11, bold: false, widths: "11px Verdana" } as const;

describe("flat family", () => {
  test("build | passing is 37 + 51 = 88 x 20, as shields draws it", () => {
    const layout = layoutBadge(content("build", "passing")) as PlateLayout;
    expect(layout.width).toBe(88);
    expect(layout.height).toBe(20);
    expect(layout.label).toMatchObject({ x: 0, width: 37 });
    expect(layout.message).toMatchObject({ x: 37, width: 51 });
    // Text boxes: 27 and 41 px (odd), the label 6 px in, the message 4 px past the split.
    expect(layout.texts.map(({ x, width, baseline }) => ({ x, width, baseline }))).toEqual([
      { x: 6, width: 27, baseline: 14 },
      { x: 41, width: 41, baseline: 14 },
    ]);
  });

  test("text widths are truncated, then made odd", () => {
    expect(preferredWidth("build", VERDANA_11)).toBe(27); // 26.7 -> 26 -> 27
    expect(preferredWidth("passing", VERDANA_11)).toBe(41); // 41.75 -> 41
  });

  test("plastic is 18 high with its baseline at 13; flat-square 20 with square corners", () => {
    expect(layoutBadge(content("a", "b", "plastic"))).toMatchObject({ height: 18, texts: [{ baseline: 13 }, { baseline: 13 }] });
    expect(STYLES.plastic).toMatchObject({ radius: 4 });
    expect(STYLES["flat-square"]).toMatchObject({ radius: 0, overlay: [], shadow: null });
  });

  test("without a label there is only the message segment, text 5 px in", () => {
    const layout = layoutBadge(content("", "passing")) as PlateLayout;
    expect(layout.label).toBeNull();
    expect(layout.width).toBe(51);
    expect(layout.texts).toMatchObject([{ text: "passing", x: 5 }]);
  });

  test("text colour follows each segment's brightness", () => {
    const layout = layoutBadge({ ...content("label", "light"), color: badgeColor("white") }) as PlateLayout;
    expect(layout.texts[0]!.colors.text).toMatchObject({ r: 255, g: 255, b: 255 });
    expect(layout.texts[1]!.colors.text).toMatchObject({ r: 0x33, g: 0x33, b: 0x33 });
  });
});

test("for-the-badge: upper case, 28 high, 12 px margins, 1.25 px per character rounded to a whole pixel", () => {
  const layout = layoutBadge(content("build", "passing", "for-the-badge")) as PlateLayout;
  expect(layout.height).toBe(28);
  const [label, message] = layout.texts;
  expect(label!.text).toBe("BUILD");
  expect(message!.text).toBe("PASSING");
  expect(message!.font.bold).toBe(true);
  expect(label!.width).toBe(Math.round(Math.trunc(textWidth("BUILD", label!.font)) + 5 * 1.25));
  expect(layout.label!.width).toBe(label!.width + 24);
  expect(label!.x).toBe(12);
  expect(message!.x).toBe(layout.label!.width + 12);
});

test("social: capitalised label in a box, the message in a bubble 6 px on", () => {
  const layout = layoutBadge(content("stars", "1.2k", "social")) as SocialLayout;
  const [label, message] = layout.texts;
  expect(label!.text).toBe("Stars");
  expect(layout.labelBoxWidth).toBe(label!.width + 10);
  expect(layout.bubble!.x).toBe(layout.labelBoxWidth + 6);
  expect(layout.bubble!.width).toBe(message!.width + 8);
  expect(layout.width).toBe(layout.labelBoxWidth + 1 + 6 + layout.bubble!.width);
});

test("text wider than the limit ends in an ellipsis and keeps the badge within it", () => {
  const long = "W".repeat(400);
  const fitted = ellipsizeToWidth(long, VERDANA_11);
  expect(fitted.endsWith("\u2026")).toBe(true);
  expect(textWidth(fitted, VERDANA_11)).toBeLessThanOrEqual(MAX_TEXT_WIDTH);
  expect(ellipsizeToWidth("short", VERDANA_11)).toBe("short");
  const layout = layoutBadge(content(long, "\u2e3b".repeat(96)));
  expect(layout.width).toBeLessThanOrEqual(2 * MAX_TEXT_WIDTH + 20);
});
