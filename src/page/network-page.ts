// A network's public page (/n/{slug}): its servers with their states, and
// the total, read by the rules its banner and badges read them with
// (src/minecraft/network-totals.ts: a stale server counts offline).

import { networkTotals } from "../minecraft/network-totals.ts";
import { shownPlayers } from "../minecraft/players.ts";
import { statusAt } from "../minecraft/status.ts";
import type { NetworkView } from "../store/network-records.ts";
import type { ServerRow } from "../store/records.ts";
import { html } from "./html.ts";
import { pageDocument, type PageAssets, type PageDocument } from "./page-document.ts";
import { snippetSection } from "./page-parts.ts";
import { shownServerName } from "./page-view.ts";
import { imageSnippets, pageLinkSnippets } from "./snippets.ts";

export interface NetworkPageInput {
  network: NetworkView;
  /** This page's address, and a member's page (null when its owner switched it off). */
  links: { page: string; banner: string; server(row: ServerRow): string | null };
  assets: PageAssets;
  now: number;
  staleAfterMs: number;
}

export function networkPage(input: NetworkPageInput): PageDocument {
  const { network, links, now, staleAfterMs } = input;
  const totals = networkTotals(network.servers, now, staleAfterMs);
  const players = totals.players ? `${totals.players.online} / ${totals.players.max} players` : "no players";
  const summary = `${totals.online}/${totals.servers} servers online · ${players}`;
  const rows = network.servers.map((row) => {
    const status = statusAt(row, now, staleAfterMs);
    const name = shownServerName(row);
    const page = links.server(row);
    const count = status === "online" && row.playersOnline !== null ? shownPlayers(row.playersOnline, row.playersMax) : null;
    return html`<tr><th scope="row">${page ? html`<a href="${page}">${name}</a>` : name}</th><td><span class="state ${status}"><span class="dot" aria-hidden="true"></span>${status === "online" ? "Online" : "Offline"}</span></td><td>${count ? `${count.online} / ${count.max}` : "–"}</td></tr>`;
  });
  const body = html`<main class="page">
<header class="head">
<h1>${network.name}</h1>
<p class="state ${totals.online > 0 ? "online" : "offline"}"><span class="dot" aria-hidden="true"></span><strong>${summary}</strong></p>
</header>
<section class="card" aria-labelledby="servers-heading">
<h2 id="servers-heading">Servers</h2>
<table class="members">
<thead><tr><th scope="col">Server</th><th scope="col">State</th><th scope="col">Players</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row">Total</th><td>${totals.online}/${totals.servers} online</td><td>${totals.players ? `${totals.players.online} / ${totals.players.max}` : "–"}</td></tr></tfoot>
</table>
</section>
${snippetSection([pageLinkSnippets("link", network.name, links.page), { title: "Banner", snippets: imageSnippets("banner", network.name, links.banner, links.page) }], "Share")}
<footer class="foot">Status page served by Pennant.</footer>
</main>`;
  return pageDocument({
    title: `${network.name}: ${summary}`,
    head: html`<meta name="description" content="${summary}">
<meta property="og:type" content="website">
<meta property="og:title" content="${network.name}">
<meta property="og:description" content="${summary}">
`,
    body, kind: "network", assets: input.assets, script: true,
  });
}
