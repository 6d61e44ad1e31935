// The five shields.io styles as data: sizes, corner radii, overlays, text
// fonts and positions, in badge pixels (scale 1). Numbers are shields'
// (badge-maker 6); badge-layout.ts turns them into positions, draw-badge.ts into pixels.

import { rgba, type Color, type GradientStop } from "../render/basics.ts";
import type { BadgeFont } from "./text-width.ts";

export const STYLE_NAMES = ["flat", "flat-square", "plastic", "for-the-badge", "social"] as const;
export type StyleName = (typeof STYLE_NAMES)[number];

/** How a text's box width follows from its measured width. */
export type WidthRule =
  /** Truncated to whole pixels, then up to odd (flat, flat-square, plastic, social). */
  | { kind: "odd" }
  /** Truncated, plus `spacing` pixels per character (for-the-badge's letter spacing), rounded to a whole pixel. */
  | { kind: "spaced"; spacing: number };

/** A label segment and a message segment side by side on one plate (every style but social). */
export interface PlateStyle {
  kind: "plate";
  height: number;
  /** Corner radius of the whole badge (0: square). */
  radius: number;
  /** A vertical gradient laid over both segments; empty for none. */
  overlay: readonly GradientStop[];
  /** Text baseline from the top. */
  baseline: number;
  /**
   * Text shadow one pixel down in the background's shadow colour: a sharp copy
   * at `opacity` and a blurred one (Gaussian, `blur` px) at `blurOpacity`.
   */
  shadow: { opacity: number; blur: number; blurOpacity: number } | null;
  labelFont: BadgeFont;
  messageFont: BadgeFont;
  /** Whether a label colour without a label still gets a segment (of margins only), as shields' flat family does. */
  labelSegmentAlone: boolean;
  uppercase: boolean;
  widthRule: WidthRule;
  /** Space between a segment's edge and its text. */
  margin: number;
  /** shields shifts the label 1 px right and the message 1 px left of their margins (flat family). */
  labelNudge: number;
  messageNudge: number;
}

/** GitHub-like: a light label box and the message in a speech bubble, dark text over a white shadow. */
export interface SocialStyle {
  kind: "social";
  height: number;
  font: BadgeFont;
  baseline: number;
  labelPadding: number;
  messagePadding: number;
  /** Gap between the label box and the bubble (its notch sits in it). */
  gutter: number;
  radius: number;
  /** Fills, border and text colours (fixed: social ignores color and labelColor). */
  labelFill: Color;
  labelOverlay: readonly GradientStop[];
  bubbleFill: Color;
  border: Color;
  text: Color;
  textShadow: Color;
}

export type BadgeStyle = PlateStyle | SocialStyle;

const VERDANA_11: BadgeFont = { size: 11, bold: false, widths: "11px Verdana" };
const ODD: WidthRule = { kind: "odd" };
/** The flat family's text: centred in its segment after a 5 px margin, nudged as shields does. */
const FLAT_TEXT = { labelFont: VERDANA_11, messageFont: VERDANA_11, labelSegmentAlone: true, uppercase: false, widthRule: ODD, margin: 5, labelNudge: 1, messageNudge: -1 };
const SHADOW = { opacity: 0.3, blur: 1.6, blurOpacity: 0.8 };

export const STYLES: Record<StyleName, BadgeStyle> = {
  flat: {
    kind: "plate",
    height: 20,
    radius: 3,
    overlay: [
      { offset: 0, color: rgba(0xbb, 0xbb, 0xbb, 0.1 * 255) },
      { offset: 1, color: rgba(0, 0, 0, 0.1 * 255) },
    ],
    baseline: 14,
    shadow: SHADOW,
    ...FLAT_TEXT,
  },
  "flat-square": {
    kind: "plate",
    height: 20,
    radius: 0,
    overlay: [],
    baseline: 14,
    shadow: null,
    ...FLAT_TEXT,
  },
  plastic: {
    kind: "plate",
    height: 18,
    radius: 4,
    overlay: [
      { offset: 0, color: rgba(0xff, 0xff, 0xff, 0.7 * 255) },
      { offset: 0.1, color: rgba(0xaa, 0xaa, 0xaa, 0.1 * 255) },
      { offset: 0.9, color: rgba(0, 0, 0, 0.3 * 255) },
      { offset: 1, color: rgba(0, 0, 0, 0.5 * 255) },
    ],
    baseline: 13,
    shadow: SHADOW,
    ...FLAT_TEXT,
  },
  "for-the-badge": {
    kind: "plate",
    height: 28,
    radius: 0,
    overlay: [],
    baseline: 17.5,
    shadow: null,
    labelFont: { size: 10, bold: false, widths: "10px Verdana" },
    messageFont: { size: 10, bold: true, widths: "bold 10px Verdana" },
    labelSegmentAlone: false,
    uppercase: true,
    widthRule: { kind: "spaced", spacing: 1.25 },
    margin: 12,
    labelNudge: 0,
    messageNudge: 0,
  },
  social: {
    kind: "social",
    height: 20,
    font: { size: 11, bold: true, widths: "bold 11px Helvetica" },
    baseline: 14,
    labelPadding: 5,
    messagePadding: 4,
    gutter: 6,
    radius: 2,
    labelFill: rgba(0xfc, 0xfc, 0xfc),
    labelOverlay: [
      { offset: 0, color: rgba(0xfc, 0xfc, 0xfc, 0) },
      { offset: 1, color: rgba(0, 0, 0, 0.1 * 255) },
    ],
    bubbleFill: rgba(0xfa, 0xfa, 0xfa),
    border: rgba(0xd5, 0xd5, 0xd5),
    text: rgba(0x33, 0x33, 0x33),
    textShadow: rgba(0xff, 0xff, 0xff),
  },
};

export function isStyleName(value: string | undefined): value is StyleName {
  return (STYLE_NAMES as readonly string[]).includes(value ?? "");
}
