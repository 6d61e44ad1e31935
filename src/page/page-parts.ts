// Pieces the public pages share: a time, a copy button, the section of
// snippets to copy.

import { html, type Html } from "./html.ts";
import type { SnippetGroup } from "./snippets.ts";
import { utcWords } from "./time-words.ts";

/** <time> of an instant, in UTC words. */
export const timeElement = (at: number) => html`<time datetime="${new Date(at).toISOString()}">${utcWords(at)}</time>`;

/** A copy button for the element `id`: hidden without script, which shows it. */
export const copyButton = (id: string, what: string) => html`<button type="button" class="copy" data-copy="${id}" aria-label="Copy ${what}" hidden>Copy</button>`;

export function snippetSection(groups: readonly SnippetGroup[], heading = "Embed and share"): Html {
  return html`<section class="card snippets" aria-labelledby="embed-heading">
<h2 id="embed-heading">${heading}</h2>
${groups.map((group, i) => html`<details${i === 0 ? html` open` : ""}>
<summary>${group.title}</summary>
${group.snippets.map((snippet) => html`<div class="snippet"><span class="syntax">${snippet.syntax}</span><pre><code id="${snippet.id}" data-url-text>${snippet.text}</code></pre>${copyButton(snippet.id, `${group.title}, ${snippet.syntax}`)}</div>
`)}</details>
`)}</section>`;
}

