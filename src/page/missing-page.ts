// The one answer for every page that is not there: an unknown server, one
// whose owner switched its page off, a malformed UUID or slug all read the
// same, so the page tells nothing about which.

import { html } from "./html.ts";
import { pageDocument, type PageAssets, type PageDocument } from "./page-document.ts";

export function missingPage(assets: PageAssets): PageDocument {
  const body = html`<main class="page">
<h1>Not found</h1>
<p>There is no page at this address.</p>
</main>`;
  return pageDocument({ title: "Not found", body, kind: "missing", assets, script: false });
}
