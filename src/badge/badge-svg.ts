// Badges as SVG, element for element what shields' badge-maker 6 writes for
// the same label, message and colours: the same sizes (from the shared layout,
// badge-layout.ts, and shields' width tables), the same elements, attributes
// and ids, so a shields URL with .svg gives the badge shields would. Text is
// drawn ten times larger and scaled down (scale(.1)), as shields does for
// finer positions. Every text is escaped, and characters XML cannot hold are
// left out, so no label or message can add markup.

import { svgColor, takesLightText } from "./colors.ts";
import { layoutBadge, type BadgeContent, type PlacedText, type PlateLayout, type SocialLayout } from "./badge-layout.ts";
import type { Color } from "../render/index.ts";

type Attributes = Record<string, string | number>;

/**
 * Characters XML 1.0 cannot hold (C0 controls but tab, newline and return;
 * U+FFFE, U+FFFF; halves of a surrogate pair alone): left out of the texts
 * before they are laid out, so a badge is as wide as what it shows.
 */
const NOT_XML = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** `text` safe as XML text or an attribute value in double quotes. */
function xmlEscape(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** An element: self-closing without children (shields' form), else its children (markup already written) inside. */
function element(name: string, attributes: Attributes, ...children: string[]): string {
  let open = `<${name}`;
  for (const key in attributes) open += ` ${key}="${xmlEscape(String(attributes[key]))}"`;
  return children.length === 0 ? `${open}/>` : `${open}>${children.join("")}</${name}>`;
}

const text = (attributes: Attributes, content: string) => element("text", attributes, xmlEscape(content));

const SCALE_DOWN = "scale(.1)";
/** Text positions are written ten times larger (SCALE_DOWN). */
const UP = 10;
const FONT_FAMILY = "Verdana,Geneva,DejaVu Sans,sans-serif";
const SOCIAL_FONT_FAMILY = "Helvetica Neue,Helvetica,Arial,sans-serif";
const WHITE = "#fff";
const LABEL_GREY = "#555";
const VERTICAL = { x2: 0, y2: "100%" };

/** shields' text and shadow fills on `background`. */
function textFills(background: Color): { text: string; shadow: string } {
  return takesLightText(background) ? { text: WHITE, shadow: "#010101" } : { text: "#333", shadow: "#ccc" };
}

/** The fill, left out where the group's white already gives it (as shields shortens it). */
const withFill = (attributes: Attributes, fill: string): Attributes => (fill === WHITE ? attributes : { ...attributes, fill });

/** The svg element around `body`: its size, and its label and message as the title screen readers say. */
function svg(width: number, height: number, title: string, ...body: string[]): string {
  return element(
    "svg",
    { xmlns: "http://www.w3.org/2000/svg", width, height, role: "img", "aria-label": title },
    element("title", {}, xmlEscape(title)),
    ...body,
  );
}

const titleOf = (label: string, message: string) => (label ? `${label}: ${message}` : message);

/** A linear gradient from top to bottom; each stop [offset, colour or null (black), opacity]. */
function gradient(id: string, stops: ReadonlyArray<readonly [number | string, string | null, number | string]>): string {
  return element(
    "linearGradient",
    { id, ...VERTICAL },
    ...stops.map(([offset, color, opacity]) =>
      element("stop", color === null ? { offset, "stop-opacity": opacity } : { offset, "stop-color": color, "stop-opacity": opacity })),
  );
}

/** The flat family's overlay over both segments, by style, in shields' own numbers (styles.ts has them as colours); flat-square has none. */
const OVERLAYS: Record<string, ReadonlyArray<readonly [number | string, string | null, number | string]>> = {
  flat: [[0, "#bbb", ".1"], [1, null, ".1"]],
  plastic: [[0, "#fff", ".7"], [".1", "#aaa", ".1"], [".9", "#000", ".3"], [1, "#000", ".5"]],
};

/** One text of the flat family, with shields' shadows when `shadowed`: a blurred copy and a sharp one, 1 px down. */
function flatFamilyText(placed: PlacedText, background: Color, baseline: number, shadowed: boolean): string {
  const x = UP * (placed.x + placed.width / 2);
  const y = UP * baseline;
  const textLength = UP * placed.width;
  const fills = textFills(background);
  if (!shadowed) return text(withFill({ x, y, textLength, transform: SCALE_DOWN }, fills.text), placed.text);
  const shadows = element(
    "g",
    { "aria-hidden": "true", fill: fills.shadow },
    text({ x, y: y + UP, "fill-opacity": ".8", filter: "url(#blur)", textLength }, placed.text),
    text({ x, y: y + UP, "fill-opacity": ".3", textLength }, placed.text),
  );
  return element("g", { transform: SCALE_DOWN }, shadows, text(withFill({ x, y, textLength }, fills.text), placed.text));
}

function textOf(layout: PlateLayout | SocialLayout, part: PlacedText["part"]): PlacedText | undefined {
  return layout.texts.find((placed) => placed.part === part);
}

/** flat, flat-square and plastic. */
function flatFamily(content: BadgeContent, layout: PlateLayout): string {
  const { width, height, style } = layout;
  const overlay = OVERLAYS[content.style];
  const shadowed = style.shadow !== null;
  const label = textOf(layout, "label"), message = textOf(layout, "message");
  // Without a label segment shields still writes its rect, 0 wide, in the message's colour.
  const labelFill = layout.label ? (content.labelColor ? svgColor(content.labelColor) : LABEL_GREY) : svgColor(content.color);
  const labelBackground = layout.label?.color ?? content.color.rgba;
  const segments = [
    element("rect", { width: layout.message.x, height, fill: labelFill }),
    element("rect", { x: layout.message.x, width: layout.message.width, height, fill: svgColor(content.color) }),
  ];
  const foreground = element(
    "g",
    { fill: WHITE, "text-anchor": "middle", "font-family": FONT_FAMILY, "text-rendering": "geometricPrecision", "font-size": UP * style.labelFont.size },
    label ? flatFamilyText(label, labelBackground, style.baseline, shadowed) : "",
    message ? flatFamilyText(message, layout.message.color, style.baseline, shadowed) : "",
  );
  const title = titleOf(label?.text ?? "", message?.text ?? "");
  if (!overlay) return svg(width, height, title, element("g", { "shape-rendering": "crispEdges" }, ...segments), foreground);
  return svg(
    width, height, title,
    element("filter", { id: "blur" }, element("feGaussianBlur", { stdDeviation: "16" })),
    gradient("s", overlay),
    element("clipPath", { id: "r" }, element("rect", { width, height, rx: style.radius })),
    element("g", { "clip-path": "url(#r)" }, ...segments, element("rect", { width, height, fill: "url(#s)" })),
    foreground,
  );
}

function forTheBadge(content: BadgeContent, layout: PlateLayout): string {
  const { width, height, style } = layout;
  const label = textOf(layout, "label"), message = textOf(layout, "message");
  const y = UP * style.baseline;
  const placedText = (placed: PlacedText, background: Color, extra: Attributes) =>
    text(
      withFill({ transform: SCALE_DOWN, x: UP * (placed.x + placed.width / 2), y, textLength: UP * placed.width, ...extra }, textFills(background).text),
      placed.text,
    );
  const messageRect = { width: layout.message.width, height, fill: svgColor(content.color) };
  const background = layout.label
    ? [
      element("rect", { width: layout.label.width, height, fill: content.labelColor ? svgColor(content.labelColor) : LABEL_GREY }),
      element("rect", { x: layout.message.x, ...messageRect }),
    ]
    : [element("rect", messageRect)];
  return svg(
    width, height, titleOf(label?.text ?? "", message?.text ?? ""),
    element("g", { "shape-rendering": "crispEdges" }, ...background),
    element(
      "g",
      { fill: WHITE, "text-anchor": "middle", "font-family": FONT_FAMILY, "text-rendering": "geometricPrecision", "font-size": UP * style.labelFont.size },
      label && layout.label ? placedText(label, layout.label.color, {}) : "",
      message ? placedText(message, layout.message.color, { "font-weight": "bold" }) : "",
    ),
  );
}

/** social's message in its bubble: a white shadow 1 px down, then the text (shields' hover target, "rlink"). */
function socialMessage(bubble: NonNullable<SocialLayout["bubble"]>, message: PlacedText): string[] {
  const x = UP * (bubble.x + bubble.width / 2);
  const textLength = UP * message.width;
  return [
    text({ "aria-hidden": "true", x, y: 150, fill: WHITE, transform: SCALE_DOWN, textLength }, message.text),
    text({ id: "rlink", x, y: 140, transform: SCALE_DOWN, textLength }, message.text),
  ];
}

function social(layout: SocialLayout): string {
  const { width, height, style, labelBoxWidth, bubble } = layout;
  const inner = height - 1;
  const label = textOf(layout, "label"), message = textOf(layout, "message");
  const labelText = label?.text ?? "";
  const labelTextWidth = labelBoxWidth - 2 * style.labelPadding;
  const labelX = UP * (labelTextWidth / 2 + style.labelPadding);
  const bubbleParts = bubble
    ? [
      element("rect", { x: bubble.x + 0.5, y: ".5", width: bubble.width, height: inner, rx: style.radius, fill: "#fafafa" }),
      element("rect", { x: bubble.x, y: 7.5, width: ".5", height: 5, stroke: "#fafafa" }),
      element("path", { d: `M${bubble.x + 0.5} 6.5 l-3 3v1 l3 3`, fill: "#fafafa" }),
    ]
    : [];
  const labelLength = UP * labelTextWidth;
  return svg(
    width, height, titleOf(labelText, message?.text ?? ""),
    element("style", {}, "a:hover #llink{fill:url(#b);stroke:#ccc}a:hover #rlink{fill:#4183c4}"),
    gradient("a", [[0, "#fcfcfc", 0], [1, null, ".1"]]),
    gradient("b", [[0, "#ccc", ".1"], [1, null, ".1"]]),
    element(
      "g",
      { stroke: "#d5d5d5" },
      element("rect", { stroke: "none", fill: "#fcfcfc", x: ".5", y: ".5", width: labelBoxWidth, height: inner, rx: style.radius }),
      ...bubbleParts,
    ),
    element(
      "g",
      {
        "aria-hidden": "true", fill: "#333", "text-anchor": "middle", "font-family": SOCIAL_FONT_FAMILY, "text-rendering": "geometricPrecision",
        "font-weight": 700, "font-size": `${UP * style.font.size}px`, "line-height": "14px",
      },
      element("rect", { id: "llink", stroke: "#d5d5d5", fill: "url(#a)", x: ".5", y: ".5", width: labelBoxWidth, height: inner, rx: style.radius }),
      text({ "aria-hidden": "true", x: labelX, y: 150, fill: WHITE, transform: SCALE_DOWN, textLength: labelLength }, labelText),
      text({ x: labelX, y: 140, transform: SCALE_DOWN, textLength: labelLength }, labelText),
      ...(bubble && message ? socialMessage(bubble, message) : []),
    ),
  );
}

/** The SVG of `content`, as shields' badge-maker writes it. */
export function badgeSvg(given: BadgeContent): string {
  const content = { ...given, label: given.label.replace(NOT_XML, ""), message: given.message.replace(NOT_XML, "") };
  const layout = layoutBadge(content, { wholePixels: false });
  if (layout.kind === "social") return social(layout);
  return content.style === "for-the-badge" ? forTheBadge(content, layout) : flatFamily(content, layout);
}
