// A chart layout (chart-layout.ts) drawn by our engine, in one of the chart's
// palettes: what chart.png and the link preview's card show. The layout is in
// CSS pixels; `scale` device pixels each. Text is the engine's sans face,
// placed as the SVG writer anchors it (end, middle).

import {
  drawTextLine, fillPath, layoutText, parseHexColor, Path, sansFamily, scale as scaleTransform, solid, strokePath,
  type Color, type Pixmap, type RenderContext,
} from "../render/index.ts";
import { ZONE, type ChartLayout, type ChartXY } from "./chart-layout.ts";
import type { ChartPalette } from "./chart-palette.ts";

const color = (hex: string): Color => parseHexColor(hex)!;

/** A line of one device pixel on the pixel grid, whatever the scale: `at` in CSS pixels. */
const crisp = (at: number, scale: number) => (Math.floor(at * scale) + 0.5) / scale;

const polyline = (points: readonly ChartXY[], close: boolean) => {
  const path = new Path();
  for (const [x, y] of points) path.lineTo(x, y);
  return close ? path.close() : path;
};

/**
 * Draws `layout` onto `pixmap` (which is `layout.width` x `layout.height`
 * CSS pixels at `scale`) at CSS offset (`left`, `top`): the background only
 * when `background` (the card draws the chart on its own panel).
 */
export function paintChart(
  pixmap: Pixmap, layout: ChartLayout, palette: ChartPalette, context: RenderContext,
  placement: { scale: number; left?: number; top?: number; background?: boolean },
): void {
  const { scale } = placement;
  const left = placement.left ?? 0, top = placement.top ?? 0;
  const transform = { ...scaleTransform(scale), e: left * scale, f: top * scale };
  const fill = (path: Path, hex: string) => fillPath(pixmap, path, solid(color(hex)), { transform, context });
  const { plot } = layout;
  if (placement.background !== false) fill(new Path().rect(0, 0, layout.width, layout.height), palette.background);
  for (const stretch of layout.offline) fill(new Path().rect(stretch.x, plot.y, stretch.width, plot.height), palette.offline);
  const grid = solid(color(palette.grid));
  const hairline = { width: 1 / scale };
  for (const tick of layout.counts) {
    const y = crisp(top + tick.at, scale) - top;
    strokePath(pixmap, new Path().moveTo(plot.x, y).lineTo(plot.x + plot.width, y), hairline, grid, { transform, context });
  }
  for (const tick of layout.times) {
    const x = crisp(left + tick.at, scale) - left;
    strokePath(pixmap, new Path().moveTo(x, plot.y).lineTo(x, plot.y + plot.height), hairline, grid, { transform, context });
  }
  for (const outline of layout.band) fill(polyline(outline, true), palette.band);
  const line = solid(color(palette.line));
  for (const points of layout.mean) {
    if (points.length === 1) fill(new Path().circle(points[0]![0], points[0]![1], 2.5), palette.line);
    else strokePath(pixmap, polyline(points, false), { width: 2, join: "round", cap: "round" }, line, { transform, context });
  }
  const text = color(palette.text);
  const style = { family: sansFamily(), size: layout.fontSize * scale };
  const label = (x: number, baseline: number, anchor: "end" | "middle", words: string) => {
    const laid = layoutText(words, style, context);
    const start = (left + x) * scale - (anchor === "end" ? laid.width : laid.width / 2);
    drawTextLine(pixmap, laid, start, (top + baseline) * scale, text, { context });
  };
  const countX = plot.x - layout.fontSize / 2;
  for (const tick of layout.counts) label(countX, tick.at + layout.fontSize * 0.35, "end", tick.label);
  for (const tick of layout.times) label(tick.at, layout.timeBaseline, "middle", tick.label);
  label(countX, layout.timeBaseline, "end", ZONE);
  if (layout.note) label(plot.x + plot.width / 2, plot.y + plot.height / 2, "middle", layout.note);
}
