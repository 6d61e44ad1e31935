// A pushed server's public page (/s/{uuid}): what it is and how it has been,
// complete without script. The chart is inline SVG, twice (one laid out for
// wide screens, one for phones, the stylesheet showing one); the range links
// are plain links; the copy buttons are hidden until the script shows them.

import { CHART_RANGE_LABELS, statusWords, summaryLine } from "./status-words.ts";
import type { ChartLayout } from "./chart-layout.ts";
import { chartSvg } from "./chart-svg.ts";
import { html, trustedHtml, type Html } from "./html.ts";
import { colourRules, motdHtml } from "./motd-html.ts";
import { pageDocument, type PageAssets, type PageDocument } from "./page-document.ts";
import type { ServerPageView } from "./page-view.ts";
import { copyButton, snippetSection, timeElement } from "./page-parts.ts";
import { serverSnippets, type SnippetLinks } from "./snippets.ts";
import { spanWords } from "./time-words.ts";
import { HISTORY_RANGES, type HistoryRange } from "../store/history-ranges.ts";

export interface ServerPageLinks extends SnippetLinks {
  /** The card a link preview shows (og.png). */
  card: string;
  /** This page showing another range. */
  range(range: HistoryRange): string;
}

export interface ServerPageInput {
  view: ServerPageView;
  /** The chart's range. */
  range: HistoryRange;
  /** The chart laid out for wide screens and for phones. */
  charts: { wide: ChartLayout; narrow: ChartLayout };
  links: ServerPageLinks;
  assets: PageAssets;
  now: number;
}

const percent = (fraction: number | null) => (fraction === null ? "–" : `${(Math.floor(fraction * 1000) / 10).toFixed(1)} %`);

/**
 * The link preview's tags: Open Graph, and Twitter's card (which reads og:
 * too, but wants its own card type). og:url only when absolute
 * (PENNANT_PUBLIC_URL set): a relative one names no page.
 */
function previewTags(title: string, description: string, image: string, alt: string, url: string): Html {
  return html`<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Pennant">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
${url.startsWith("/") ? "" : html`<meta property="og:url" content="${url}">\n`}<meta property="og:image" content="${image}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="${alt}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${image}">
<meta name="twitter:image:alt" content="${alt}">
`;
}

export function serverPage(input: ServerPageInput): PageDocument {
  const { view, links, now } = input;
  const motd = motdHtml(view.motd ?? []);
  const words = statusWords(view, now);
  const description = summaryLine(view, now);
  const body = html`<main class="page">
<header class="head">
<h1>${view.name}</h1>
<p class="state ${view.status}"><span class="dot" aria-hidden="true"></span><strong>${words.state}</strong> <span class="for">${words.since}</span></p>
</header>
${view.motd ? html`<div class="motd" aria-label="Message of the day">${motd.lines}</div>` : ""}
<dl class="facts">
<div><dt>Players</dt><dd>${view.players ? `${view.players.online} / ${view.players.max}` : "–"}</dd></div>
<div><dt>Version</dt><dd>${view.version ?? "–"}</dd></div>
<div><dt>Last push</dt><dd>${timeElement(view.lastPush)} <span class="ago">(${spanWords(now - view.lastPush)} ago)</span></dd></div>
</dl>
${view.address ? html`<div class="join"><span class="join-label">Join</span><code id="join-address">${view.address}</code>${copyButton("join-address", "the join address")}</div>` : ""}
<section class="card chart" aria-labelledby="chart-heading">
<div class="chart-head"><h2 id="chart-heading">Players, ${CHART_RANGE_LABELS[input.range]}</h2>
<nav class="ranges" aria-label="Range">${HISTORY_RANGES.map((range) => range === input.range
    ? html`<a href="${links.range(range)}" aria-current="page">${CHART_RANGE_LABELS[range]}</a>`
    : html`<a href="${links.range(range)}">${CHART_RANGE_LABELS[range]}</a>`)}</nav></div>
<figure>
<div class="chart-wide">${trustedHtml(chartSvg(input.charts.wide, { standalone: false, id: "chart-wide" }))}</div>
<div class="chart-narrow">${trustedHtml(chartSvg(input.charts.narrow, { standalone: false, id: "chart-narrow" }))}</div>
<figcaption>The band spans the fewest to the most players of each step, the line is their mean; shaded stretches were offline. Times in UTC.</figcaption>
</figure>
</section>
<section class="card" aria-labelledby="record-heading">
<h2 id="record-heading">Uptime and peak</h2>
<table class="record">
<thead><tr><th scope="col"></th>${HISTORY_RANGES.map((range) => html`<th scope="col">${CHART_RANGE_LABELS[range]}</th>`)}</tr></thead>
<tbody>
<tr><th scope="row">Uptime</th>${HISTORY_RANGES.map((range) => html`<td>${percent(view.ranges[range].uptime)}</td>`)}</tr>
<tr><th scope="row">Peak</th>${HISTORY_RANGES.map((range) => html`<td>${view.ranges[range].peak ?? "–"}</td>`)}</tr>
</tbody>
</table>
<p class="note">First seen ${timeElement(view.firstSeen)}.</p>
</section>
${snippetSection(serverSnippets(view.name, links))}
<footer class="foot">Status page served by Pennant.</footer>
</main>`;
  return pageDocument({
    title: `${view.name}: ${words.state}`,
    head: previewTags(view.name, description, links.card, `${view.name}: ${description}`, links.page),
    body,
    kind: "server",
    assets: input.assets,
    inlineStyle: colourRules(motd.colours),
    script: true,
  });
}
