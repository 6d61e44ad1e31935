// A server's widget (/s/{uuid}/widget): a small status box for an <iframe> on
// any site, reloading itself once a minute without script.

import { html } from "./html.ts";
import { pageDocument, type PageAssets, type PageDocument } from "./page-document.ts";
import type { ServerPageView } from "./page-view.ts";
import { statusWords } from "./status-words.ts";

/** How often the widget reloads: once a minute, as often as a pushed record moves its banner. */
export const WIDGET_REFRESH_SECONDS = 60;

export function widgetPage(view: ServerPageView, page: string, assets: PageAssets, now: number): PageDocument {
  const words = statusWords(view, now);
  const body = html`<main class="widget-box">
<a class="widget-name" href="${page}" target="_blank" rel="noopener">${view.name}</a>
<p class="state ${view.status}"><span class="dot" aria-hidden="true"></span><strong>${words.state}</strong> <span class="for">${words.since}</span></p>
${view.players ? html`<p class="widget-players">${view.players.online} / ${view.players.max} players</p>` : ""}
${view.address ? html`<p class="widget-join"><code>${view.address}</code></p>` : ""}
</main>`;
  return pageDocument({ title: `${view.name}: ${words.state}`, body, kind: "widget", assets, script: false, refreshSeconds: WIDGET_REFRESH_SECONDS });
}
