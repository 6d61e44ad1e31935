// Escaping by construction (src/page/html.ts) and the MOTD as classes
// (src/page/motd-html.ts): what a page may carry of a server's own text.

import { describe, expect, test } from "bun:test";
import { html, trustedHtml } from "../../src/page/html.ts";
import { colourRules, motdHtml } from "../../src/page/motd-html.ts";

describe("html", () => {
  test("every interpolation is escaped as text, in an attribute or between tags; Html is kept; nothing is written for null, undefined and false", () => {
    const hostile = `"><script>alert('x')</script>&`;
    expect(html`<a title="${hostile}">${hostile}</a>`.text).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
    expect(html`<p>${html`<b>${"<i>"}</b>`}${[1, "<", trustedHtml("<br>")]}${null}${undefined}${false}</p>`.text).toBe("<p><b>&lt;i&gt;</b>1&lt;<br></p>");
  });
});

describe("motdHtml", () => {
  test("runs become spans named by their colour and flags; the text is escaped; the colours used are listed once", () => {
    const { lines, colours } = motdHtml(["  §c§l<Red>§r & plain  ", "§x§1§2§3§4§5§6hex §cred"]);
    expect(lines.map((line) => line.text)).toEqual([
      '<span class="motd-line"><span class="mc-ff5555 mc-bold">&lt;Red&gt;</span> &amp; plain</span>',
      '<span class="motd-line"><span class="mc-123456">hex </span><span class="mc-ff5555">red</span></span>',
    ]);
    expect(colours).toEqual(["#123456", "#ff5555"]);
  });

  test("a colour rule is written only for #rrggbb", () => {
    expect(colourRules(["#123456", "#12345z", "#ff0000;}</style>", "red"])).toBe(".mc-123456{color:#123456}");
  });
});
