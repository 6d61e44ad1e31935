// A chart layout (chart-layout.ts) written as SVG: standalone (chart.svg,
// with its own stylesheet and background) or to embed in a page, whose
// stylesheet then carries CHART_CSS. Every text is escaped; the numbers are
// the layout's own.

import { CHART_PALETTES, type ChartPalette } from "./chart-palette.ts";
import { ZONE, type ChartLayout, type ChartXY } from "./chart-layout.ts";
import { escapeText } from "./html.ts";

function rules(palette: ChartPalette): string {
  return [
    `.pc-bg{fill:${palette.background}}`,
    `.pc-off{fill:${palette.offline}}`,
    `.pc-grid{stroke:${palette.grid};stroke-width:1}`,
    `.pc-band{fill:${palette.band}}`,
    `.pc-mean{fill:none;stroke:${palette.line};stroke-width:2;stroke-linejoin:round;stroke-linecap:round}`,
    `.pc-dot{fill:${palette.line}}`,
    `.pc-text{fill:${palette.text};font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}`,
  ].join("");
}

/** The chart's classes, light, and dark where the reader prefers it: in chart.svg's <style>, and in the page's stylesheet. */
export const CHART_CSS = `${rules(CHART_PALETTES.light)}@media (prefers-color-scheme:dark){${rules(CHART_PALETTES.dark)}}`;

const pathOf = (points: readonly ChartXY[], close: boolean) =>
  points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x} ${y}`).join("") + (close ? "Z" : "");

/**
 * The chart as SVG. `standalone`: a document of its own (namespace, size,
 * stylesheet, background); else an element for a page that styles it, which
 * scales to its box. `id` names its title for aria-labelledby (unique in the page).
 */
export function chartSvg(layout: ChartLayout, options: { standalone: boolean; id?: string }): string {
  const { plot, fontSize } = layout;
  const titleId = options.id ? `${options.id}-title` : "chart-title";
  const right = plot.x + plot.width;
  const bottom = plot.y + plot.height;
  const parts: string[] = [];
  const open = options.standalone
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-labelledby="${titleId}">`
    : `<svg viewBox="0 0 ${layout.width} ${layout.height}"${options.id ? ` id="${escapeText(options.id)}"` : ""} class="chart-svg" role="img" aria-labelledby="${titleId}">`;
  parts.push(open, `<title id="${escapeText(titleId)}">${escapeText(layout.summary)}</title>`);
  if (options.standalone) parts.push(`<style>${CHART_CSS}</style>`, `<rect class="pc-bg" width="${layout.width}" height="${layout.height}"/>`);
  for (const stretch of layout.offline) parts.push(`<rect class="pc-off" x="${stretch.x}" y="${plot.y}" width="${stretch.width}" height="${plot.height}"/>`);
  for (const tick of layout.counts) parts.push(`<line class="pc-grid" x1="${plot.x}" x2="${right}" y1="${tick.at}" y2="${tick.at}"/>`);
  for (const tick of layout.times) parts.push(`<line class="pc-grid" x1="${tick.at}" x2="${tick.at}" y1="${plot.y}" y2="${bottom}"/>`);
  for (const outline of layout.band) parts.push(`<path class="pc-band" d="${pathOf(outline, true)}"/>`);
  for (const line of layout.mean) {
    parts.push(line.length === 1 ? `<circle class="pc-dot" cx="${line[0]![0]}" cy="${line[0]![1]}" r="2.5"/>` : `<path class="pc-mean" d="${pathOf(line, false)}"/>`);
  }
  const text = (x: number, y: number, anchor: "start" | "middle" | "end", label: string) =>
    `<text class="pc-text" x="${x}" y="${y}" text-anchor="${anchor}" font-size="${fontSize}">${escapeText(label)}</text>`;
  const countX = plot.x - fontSize / 2;
  for (const tick of layout.counts) parts.push(text(countX, tick.at + fontSize * 0.35, "end", tick.label));
  for (const tick of layout.times) parts.push(text(tick.at, layout.timeBaseline, "middle", tick.label));
  parts.push(text(countX, layout.timeBaseline, "end", ZONE));
  if (layout.note) parts.push(text(plot.x + plot.width / 2, plot.y + plot.height / 2, "middle", layout.note));
  parts.push("</svg>");
  return parts.join("");
}
