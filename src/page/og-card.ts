// The link preview's card (/s/{uuid}/og.png): 1200x630, the size Open Graph
// and Twitter's large card show whole, drawn by our engine on a render
// thread: the server's state, name, MOTD in its colours, players, version,
// join address, and the last day's chart (chart-layout.ts, in the dark
// palette). Plain data in (the view, the chart laid out), a Pixmap out.

import { motdLineRuns } from "../minecraft/motd.ts";
import {
  drawFormattedLine, drawTextLine, ellipsize, fillPath, layoutFormatted, layoutText, parseHexColor, Path, sansFamily, solid,
  type Color, type Pixmap, type RenderContext,
} from "../render/index.ts";
import type { ChartLayout } from "./chart-layout.ts";
import { CHART_PALETTES } from "./chart-palette.ts";
import { paintChart } from "./chart-png.ts";
import { CARD_SIZE, cardChart, type CardText } from "./card-frame.ts";

const MARGIN = 64;
const WIDTH = CARD_SIZE.width - 2 * MARGIN;
const hex = (text: string): Color => parseHexColor(text)!;
const COLORS = {
  background: hex(CHART_PALETTES.dark.background),
  well: hex("#0f1114"),
  text: hex("#eef1f5"),
  muted: hex(CHART_PALETTES.dark.text),
  motd: hex("#aaaaaa"),
  online: hex("#3ccf6e"),
  offline: hex("#ef5b5b"),
};

/** The card drawn onto `pixmap` (CARD_SIZE), its chart from `chart` (laid out in cardChart's frame). */
export function paintCard(pixmap: Pixmap, text: CardText, chart: ChartLayout, context: RenderContext): void {
  const family = sansFamily();
  const fill = (path: Path, color: Color) => fillPath(pixmap, path, solid(color), { context });
  const line = (words: string, size: number, x: number, baseline: number, color: Color, bold = false) => {
    const style = { family, size, bold };
    const laid = layoutText(ellipsize(words, style, WIDTH - (x - MARGIN), context), style, context);
    drawTextLine(pixmap, laid, x, baseline, color, { context });
  };
  fill(new Path().rect(0, 0, CARD_SIZE.width, CARD_SIZE.height), COLORS.background);
  const status = text.online ? COLORS.online : COLORS.offline;
  fill(new Path().rect(0, 0, CARD_SIZE.width, 10), status);
  fill(new Path().circle(MARGIN + 11, 78, 11), status);
  line(text.state, 30, MARGIN + 34, 89, COLORS.muted);
  line(text.name, 64, MARGIN, 176, COLORS.text, true);
  line(text.facts, 30, MARGIN, 230, COLORS.text);
  if (text.motd.length > 0) {
    fill(new Path().roundRect(MARGIN, 256, WIDTH, 102, 12), COLORS.well);
    text.motd.slice(0, 2).forEach((motd, i) => {
      const formatted = layoutFormatted(motdLineRuns(motd), family, 30, WIDTH - 48, context);
      drawFormattedLine(pixmap, formatted, MARGIN + 24, 298 + i * 40, { defaultColor: COLORS.motd, context });
    });
  }
  const place = cardChart(text.motd.length > 0);
  paintChart(pixmap, chart, CHART_PALETTES.dark, context, { scale: 1, left: place.left, top: place.top, background: false });
}
