// The owner's console (/console): the frame its script fills. What the
// console shows comes from the signed API, fetched and signed in the
// browser (src/http/console-assets/console.js); this page holds what is
// there before any request: the heading, the note an insecure page shows
// instead of asking for a token, and the tabs (Admin only while
// PENNANT_ADMIN_TOKEN is set) over the one panel the script fills.

import { html } from "./html.ts";
import { pageDocument, type PageAssets, type PageDocument } from "./page-document.ts";

export interface ConsolePageInput {
  assets: PageAssets;
  /** Whether PENNANT_ADMIN_TOKEN is set: the Admin tab is offered. */
  admin: boolean;
}

const TABS = [
  { id: "servers", title: "Servers" },
  { id: "plugins", title: "Plugins" },
  { id: "networks", title: "Networks" },
  { id: "admin", title: "Admin" },
] as const;

export function consolePage({ assets, admin }: ConsolePageInput): PageDocument {
  const tabs = TABS.filter((tab) => admin || tab.id !== "admin");
  const body = html`<main class="page console">
<header class="console-head">
<div><h1>Pennant console</h1><p class="note">Your servers, plugins and networks, read and managed with your API token.</p></div>
<button type="button" id="forget" class="button quiet" hidden>Forget the tokens</button>
</header>
<noscript><p class="card">The console signs every request in your browser: it needs JavaScript.</p></noscript>
<section id="insecure" class="card notice" hidden aria-labelledby="insecure-heading">
<h2 id="insecure-heading">This page needs HTTPS</h2>
<p>The console signs each request in your browser with Web Crypto, which browsers offer only to pages served over HTTPS or from localhost. This page came over plain HTTP from another address: it cannot sign, and asks for no token (over plain HTTP the token would cross the network in clear).</p>
<p>Put Pennant behind HTTPS. With Caddy, which obtains and renews the certificate itself, the whole Caddyfile is:</p>
<pre><code>pennant.example.com {
	reverse_proxy 127.0.0.1:8080
}</code></pre>
<p>then open <code>https://pennant.example.com/console</code>. nginx with certbot works as well: the deployment guide (docs/deploy.md, "Reverse proxy and HTTPS") gives both. Or, on the machine Pennant runs on, open <code>http://localhost:8080/console</code>, from elsewhere through an SSH tunnel: <code>ssh -L 8080:localhost:8080 your-host</code>.</p>
</section>
<div id="console" hidden>
<div role="tablist" aria-label="Console" class="tabs">
${tabs.map((tab, i) => html`<button type="button" role="tab" id="tab-${tab.id}" aria-controls="panel" aria-selected="${i === 0 ? "true" : "false"}"${i === 0 ? "" : html` tabindex="-1"`}>${tab.title}</button>
`)}</div>
<p id="status" class="status" role="status" aria-live="polite"></p>
<section role="tabpanel" id="panel" aria-labelledby="tab-servers" class="panel"></section>
</div>
</main>`;
  return pageDocument({ title: "Pennant console", body, kind: "console", assets, script: true });
}
