// The pages' images as image plans (src/image-plan.ts), for the image
// pipeline to answer: the chart as PNG and SVG (chart.png, chart.svg) and the
// link preview's card (og.png). Each key is a digest of everything drawn (the
// layout, the palette, the scale, the card's text), so a chart whose data has
// not moved is one image, held once and answered with a 304. The jobs are
// plain data; the SVG is written here (writeChartSvgJob), the PNGs drawn by
// page-jobs.ts on a render thread (apart, so that what makes plans loads no engine).

import { imageKey, type ImagePlan } from "../image-plan.ts";
import { charactersBeyondTables } from "../render/basics.ts";
import type { ChartLayout } from "./chart-layout.ts";
import type { ChartTheme } from "./chart-palette.ts";
import { chartSvg } from "./chart-svg.ts";
import { CARD_SIZE, type CardText } from "./card-frame.ts";

/** The frames chart.png and chart.svg are laid out in (CSS pixels; chart.png's scale=2 doubles its pixels). */
export const CHART_IMAGE_FRAME = { width: 800, height: 300 } as const;

export type PageImageJob =
  | { kind: "chart png"; layout: ChartLayout; theme: ChartTheme; scale: 1 | 2 }
  | { kind: "chart svg"; layout: ChartLayout }
  | { kind: "card"; text: CardText; chart: ChartLayout };

/** A plan's bookkeeping besides its layout's text: the job's objects, the key. */
const PLAN_OVERHEAD_BYTES = 512;
const memoryOf = (described: string) => PLAN_OVERHEAD_BYTES + 2 * described.length;

export function chartPngImage(layout: ChartLayout, theme: ChartTheme, scale: 1 | 2): ImagePlan<PageImageJob> {
  const described = JSON.stringify(layout);
  return {
    key: imageKey(["chart png", described, theme, String(scale)]),
    contentType: "image/png",
    pixels: layout.width * layout.height * scale * scale,
    memory: memoryOf(described),
    job: { kind: "chart png", layout, theme, scale },
  };
}

/** The SVG: written in microseconds whatever its size (draw-cost.ts: the minimum unit). */
export function chartSvgImage(layout: ChartLayout): ImagePlan<PageImageJob> {
  const described = JSON.stringify(layout);
  return {
    key: imageKey(["chart svg", described]),
    contentType: "image/svg+xml",
    pixels: layout.width * layout.height,
    memory: memoryOf(described),
    job: { kind: "chart svg", layout },
  };
}

/** The card: its text beyond the faces' tables (a CJK name) charged beside its pixels. */
export function cardImage(text: CardText, chart: ChartLayout): ImagePlan<PageImageJob> {
  const described = JSON.stringify([text, chart]);
  return {
    key: imageKey(["card", described]),
    contentType: "image/png",
    pixels: CARD_SIZE.width * CARD_SIZE.height,
    textBeyondTables: charactersBeyondTables(text.name) + charactersBeyondTables(text.facts) + text.motd.reduce((sum, line) => sum + charactersBeyondTables(line), 0),
    memory: memoryOf(described),
    job: { kind: "card", text, chart },
  };
}

/** The SVG of a "chart svg" job, as UTF-8. */
export function writeChartSvgJob(job: Extract<PageImageJob, { kind: "chart svg" }>): Uint8Array {
  return new TextEncoder().encode(chartSvg(job.layout, { standalone: true }));
}
