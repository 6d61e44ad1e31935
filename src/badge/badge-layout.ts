// Where a badge's parts go, as shields.io places them: pure functions from
// the content and the style's data to sizes and positions in badge pixels
// (scale 1). Nothing here draws.

import { ellipsizedPrefix, type Color } from "../render/basics.ts";
import { badgeColor, textColorsOn, type BadgeColor, type TextColors } from "./colors.ts";
import { STYLES, type PlateStyle, type SocialStyle, type StyleName, type WidthRule } from "./styles.ts";
import { preferredWidth, textWidth, type BadgeFont } from "./text-width.ts";

/** What a badge shows, resolved: the render cache and the ETag are keyed by exactly this. */
export interface BadgeContent {
  label: string;
  message: string;
  /** The message segment's colour. */
  color: BadgeColor;
  /** The label segment's colour; absent: shields' grey. */
  labelColor?: BadgeColor;
  style: StyleName;
}

export interface PlacedText {
  /** Which segment's text it is. */
  part: "label" | "message";
  text: string;
  font: BadgeFont;
  /** Left edge of the text box; the text is stretched to fill `width` exactly. */
  x: number;
  width: number;
  baseline: number;
  colors: TextColors;
}

export interface Segment {
  x: number;
  width: number;
  color: Color;
}

export interface PlateLayout {
  kind: "plate";
  style: PlateStyle;
  width: number;
  height: number;
  /** Absent when there is no label. */
  label: Segment | null;
  message: Segment;
  texts: PlacedText[];
}

export interface SocialLayout {
  kind: "social";
  style: SocialStyle;
  width: number;
  height: number;
  labelBoxWidth: number;
  /** The message bubble's left edge (its notch reaches 6 px further left) and width; null without a message. */
  bubble: { x: number; width: number } | null;
  texts: PlacedText[];
}

export type BadgeLayout = PlateLayout | SocialLayout;

/** shields' label grey. */
const DEFAULT_LABEL_COLOR = badgeColor("#555");
/**
 * Widest text drawn, in badge pixels; longer text ends in "…". It keeps a
 * badge within the pixmap limit even at scale 2 whatever characters it holds.
 */
export const MAX_TEXT_WIDTH = 960;
/** `text`, or its longest prefix followed by "…" whose width as shields measures fits `maxWidth`. */
export function ellipsizeToWidth(text: string, font: BadgeFont, maxWidth = MAX_TEXT_WIDTH): string {
  const widthOf = (line: string) => textWidth(line, font);
  return widthOf(text) <= maxWidth ? text : ellipsizedPrefix(text, maxWidth, widthOf);
}

export interface LayoutOptions {
  /**
   * Whether widths are rounded to whole pixels (a PNG's grid); an SVG keeps
   * for-the-badge's quarter pixels, as shields' does.
   */
  wholePixels: boolean;
}

function boxWidth(text: string, font: BadgeFont, rule: WidthRule, { wholePixels }: LayoutOptions): number {
  if (rule.kind === "odd") return preferredWidth(text, font);
  // shields counts UTF-16 units here (String.length), not characters. Its
  // box may end in a quarter pixel (1.25 px per unit); a PNG rounds it to a
  // whole one, so segments meet on a pixel edge and the badge ends in an opaque column.
  if (text.length === 0) return 0;
  const width = Math.trunc(textWidth(text, font)) + rule.spacing * text.length;
  return wholePixels ? Math.round(width) : width;
}

function layoutPlate(content: BadgeContent, style: PlateStyle, options: LayoutOptions): PlateLayout {
  const cased = (text: string) => (style.uppercase ? text.toUpperCase() : text);
  const label = ellipsizeToWidth(cased(content.label.trim()), style.labelFont);
  const message = ellipsizeToWidth(cased(content.message.trim()), style.messageFont);
  const hasLabelText = label.length > 0;
  const hasLabel = hasLabelText || (content.labelColor !== undefined && style.labelSegmentAlone);
  const labelColor = (content.labelColor ?? DEFAULT_LABEL_COLOR).rgba;
  const messageColor = content.color.rgba;

  const labelTextWidth = hasLabelText ? boxWidth(label, style.labelFont, style.widthRule, options) : 0;
  const leftWidth = hasLabel ? labelTextWidth + 2 * style.margin : 0;
  const messageTextWidth = boxWidth(message, style.messageFont, style.widthRule, options);
  const rightWidth = messageTextWidth + 2 * style.margin;

  const texts: PlacedText[] = [];
  if (hasLabelText) {
    texts.push({
      part: "label", text: label, font: style.labelFont, x: style.margin + style.labelNudge, width: labelTextWidth,
      baseline: style.baseline, colors: textColorsOn(labelColor),
    });
  }
  if (message.length > 0) {
    // Without a label the message keeps its plain margin (shields' nudges cancel out).
    const nudge = hasLabel ? style.messageNudge : 0;
    texts.push({
      part: "message", text: message, font: style.messageFont, x: leftWidth + style.margin + nudge, width: messageTextWidth,
      baseline: style.baseline, colors: textColorsOn(messageColor),
    });
  }
  return {
    kind: "plate",
    style,
    width: leftWidth + rightWidth,
    height: style.height,
    label: hasLabel ? { x: 0, width: leftWidth, color: labelColor } : null,
    message: { x: leftWidth, width: rightWidth, color: messageColor },
    texts,
  };
}

function layoutSocial(content: BadgeContent, style: SocialStyle): SocialLayout {
  // Social capitalises the label's first letter.
  const trimmed = content.label.trim();
  const label = ellipsizeToWidth(trimmed.charAt(0).toUpperCase() + trimmed.slice(1), style.font);
  const message = ellipsizeToWidth(content.message.trim(), style.font);
  // shields rounds even an empty label up to odd: its box is 11 px wide.
  const labelTextWidth = preferredWidth(label, style.font);
  const labelBoxWidth = labelTextWidth + 2 * style.labelPadding;
  const colors = { text: style.text, shadow: style.textShadow };
  const texts: PlacedText[] = [];
  if (label.length > 0) {
    texts.push({ part: "label", text: label, font: style.font, x: style.labelPadding, width: labelTextWidth, baseline: style.baseline, colors });
  }
  let bubble: SocialLayout["bubble"] = null;
  if (message.length > 0) {
    const messageTextWidth = preferredWidth(message, style.font);
    bubble = { x: labelBoxWidth + style.gutter, width: messageTextWidth + 2 * style.messagePadding };
    texts.push({
      part: "message", text: message, font: style.font, x: bubble.x + style.messagePadding, width: messageTextWidth, baseline: style.baseline, colors,
    });
  }
  return {
    kind: "social",
    style,
    // The label box's border is drawn half a pixel in: one more pixel holds it.
    width: labelBoxWidth + 1 + (bubble ? style.gutter + bubble.width : 0),
    height: style.height,
    labelBoxWidth,
    bubble,
    texts,
  };
}

/** Where the parts of `content` go: on whole pixels (a PNG's) unless `options` say otherwise. */
export function layoutBadge(content: BadgeContent, options: LayoutOptions = { wholePixels: true }): BadgeLayout {
  const style = STYLES[content.style];
  return style.kind === "social" ? layoutSocial(content, style) : layoutPlate(content, style, options);
}
