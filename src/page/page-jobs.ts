// Drawing the pages' PNGs (page-images.ts): chart.png in its palette and
// scale, and the link preview's card, on a pixmap from the render context's
// spares, encoded as PNG.

import { encodePng, type RenderContext } from "../render/index.ts";
import { CHART_PALETTES } from "./chart-palette.ts";
import { paintChart } from "./chart-png.ts";
import { CARD_SIZE } from "./card-frame.ts";
import { paintCard } from "./og-card.ts";
import { writeChartSvgJob, type PageImageJob } from "./page-images.ts";

export async function drawPageJob(job: PageImageJob, context: RenderContext): Promise<Uint8Array> {
  if (job.kind === "chart svg") return writeChartSvgJob(job);
  const [width, height] = job.kind === "card"
    ? [CARD_SIZE.width, CARD_SIZE.height]
    : [Math.round(job.layout.width * job.scale), Math.round(job.layout.height * job.scale)];
  const pixmap = context.pixmaps.take(width, height);
  try {
    if (job.kind === "card") paintCard(pixmap, job.text, job.chart, context);
    else paintChart(pixmap, job.layout, CHART_PALETTES[job.theme], context, { scale: job.scale });
    return encodePng(pixmap);
  } finally {
    context.pixmaps.give(pixmap);
  }
}
