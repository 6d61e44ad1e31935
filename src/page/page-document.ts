// The frame every public page shares: the document, its head (title, the
// viewport a phone reads without zooming, the stylesheet, the script) and
// the one inline <style> a page may have, whose text is handed back so that
// the route can name it in the page's Content-Security-Policy by its hash.

import { html, trustedHtml, type Html } from "./html.ts";

/** Where the pages' stylesheet and script are served (versioned by their contents). */
export interface PageAssets {
  style: string;
  script: string;
}

export interface PageParts {
  title: string;
  /** Further head elements (the link preview's tags). */
  head?: Html;
  body: Html;
  /** The class of <body>: the kind of page. */
  kind: "server" | "network" | "widget" | "missing" | "console";
  assets: PageAssets;
  /** Rules for this page alone (the MOTD's colours); none when empty. */
  inlineStyle?: string;
  /** With the script (copy buttons, refresh); a widget has none. */
  script: boolean;
  /** Reload after this many seconds without script (the widget). */
  refreshSeconds?: number;
}

export interface PageDocument {
  text: string;
  /** The text of each inline <style>, for the policy. */
  inlineStyles: string[];
}

export function pageDocument(parts: PageParts): PageDocument {
  const inlineStyles = parts.inlineStyle ? [parts.inlineStyle] : [];
  // Raw text inside <style> (entities are not read there): our own rules, which never hold a "<" that could end the element.
  if (inlineStyles.some((style) => style.includes("<"))) throw new Error("an inline style may not contain <");
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${parts.refreshSeconds !== undefined ? html`<meta http-equiv="refresh" content="${parts.refreshSeconds}">\n` : ""}<title>${parts.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${parts.assets.style}">
${inlineStyles.map((style) => html`<style>${trustedHtml(style)}</style>\n`)}${parts.script ? html`<script src="${parts.assets.script}" defer></script>\n` : ""}${parts.head ?? ""}</head>
<body class="${parts.kind}">
${parts.body}
</body>
</html>
`;
  return { text: document.text, inlineStyles };
}
