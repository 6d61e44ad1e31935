// What a page offers to copy: its link, the server's banner, badges, chart
// and widget, each as HTML, Markdown and BBCode where that can show it. The
// name is made safe for each syntax (escaped for HTML, its brackets escaped
// for Markdown, dropped for BBCode); the URLs are the routes' own.

import { escapeText } from "./html.ts";

/** The addresses a server's snippets name (absolute under PENNANT_PUBLIC_URL, else root-relative). */
export interface SnippetLinks {
  page: string;
  banner: string;
  badges: ReadonlyArray<{ label: string; url: string }>;
  chartSvg: string;
  chartPng: string;
  widget: string;
}

export interface Snippet {
  /** Unique in the page: the copy button names it. */
  id: string;
  syntax: "HTML" | "Markdown" | "BBCode";
  text: string;
}

export interface SnippetGroup {
  title: string;
  snippets: Snippet[];
}

const markdownText = (text: string) => text.replace(/[\\[\]()*_`<>]/g, (char) => `\\${char}`);
const bbcodeText = (text: string) => text.replace(/[[\]]/g, "");

/** An image linking to `link` (or none), in each syntax. */
export function imageSnippets(id: string, alt: string, src: string, link: string | null): Snippet[] {
  const tag = `<img src="${escapeText(src)}" alt="${escapeText(alt)}">`;
  return [
    { id: `${id}-html`, syntax: "HTML", text: link ? `<a href="${escapeText(link)}">${tag}</a>` : tag },
    { id: `${id}-md`, syntax: "Markdown", text: link ? `[![${markdownText(alt)}](${src})](${link})` : `![${markdownText(alt)}](${src})` },
    { id: `${id}-bbcode`, syntax: "BBCode", text: link ? `[url=${link}][img]${src}[/img][/url]` : `[img]${src}[/img]` },
  ];
}

/** The page's own link in each syntax. */
export function pageLinkSnippets(id: string, name: string, page: string): SnippetGroup {
  return {
    title: "Link to this page",
    snippets: [
      { id: `${id}-html`, syntax: "HTML", text: `<a href="${escapeText(page)}">${escapeText(name)}</a>` },
      { id: `${id}-md`, syntax: "Markdown", text: `[${markdownText(name)}](${page})` },
      { id: `${id}-bbcode`, syntax: "BBCode", text: `[url=${page}]${bbcodeText(name) || page}[/url]` },
    ],
  };
}

/** A server page's snippets. BBCode shows the chart as PNG: forums rarely take SVG. */
export function serverSnippets(name: string, links: SnippetLinks): SnippetGroup[] {
  const chart = imageSnippets("chart", `${name}: players`, links.chartSvg, links.page);
  chart[2] = imageSnippets("chart", `${name}: players`, links.chartPng, links.page)[2]!;
  return [
    pageLinkSnippets("link", name, links.page),
    { title: "Banner", snippets: imageSnippets("banner", name, links.banner, links.page) },
    ...links.badges.map((badge) => ({ title: `Badge: ${badge.label}`, snippets: imageSnippets(`badge-${badge.label}`, `${name}: ${badge.label}`, badge.url, links.page) })),
    { title: "Players chart", snippets: chart },
    {
      title: "Widget",
      snippets: [{
        id: "widget-html", syntax: "HTML",
        text: `<iframe src="${escapeText(links.widget)}" title="${escapeText(name)}" width="320" height="150" style="border:0"></iframe>`,
      }],
    },
  ];
}
