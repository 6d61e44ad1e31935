// How a public page (src/page) is answered: its Content-Security-Policy, which
// lets it load only this server's stylesheet and script and names its one
// inline <style> by hash; a strong ETag of what it shows, and a 304 to a
// client holding it; and who may frame it: nobody, but the widget anyone.

import { createHash } from "node:crypto";
import type { PageDocument } from "../page/page-document.ts";
import { imageKey } from "../image-plan.ts";
import { matchesEtag } from "./image-response.ts";

/** Who may put the page in a frame: no one, or (the widget) any site. */
export type Framing = "none" | "anyone";

const hashSource = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** The policy of a page whose inline styles are `inlineStyles`, framed by `framing`; a page with `script` runs this server's. */
export function pagePolicy(inlineStyles: readonly string[], framing: Framing, script: boolean): string {
  return [
    "default-src 'none'",
    "img-src 'self' data:",
    `style-src ${["'self'", ...inlineStyles.map(hashSource)].join(" ")}`,
    `script-src ${script ? "'self'" : "'none'"}`,
    `connect-src ${script ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${framing === "anyone" ? "*" : "'none'"}`,
  ].join("; ");
}

export interface PageAnswerOptions {
  status: 200 | 404;
  cacheControl: string;
  framing: Framing;
  /** Whether the page runs the pages' script (the widget and the 404 do not). */
  script: boolean;
  /** Per-request headers (RateLimit-*). */
  headers?: Record<string, string>;
}

/** The answer of `page` to `request`: a 304 when the client holds it (a 200 only), else the page. */
export function pageAnswer(request: Request, page: PageDocument, options: PageAnswerOptions): Response {
  const policy = pagePolicy(page.inlineStyles, options.framing, options.script);
  const etag = `"${imageKey(["page", policy, page.text])}"`;
  const headers: Record<string, string> = {
    "Cache-Control": options.cacheControl,
    "Content-Security-Policy": policy,
    ...(options.framing === "none" ? { "X-Frame-Options": "DENY" } : {}),
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...options.headers,
  };
  if (options.status === 200) {
    headers.ETag = etag;
    if (matchesEtag(request, etag)) return new Response(null, { status: 304, headers });
  }
  return new Response(page.text, { status: options.status, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}
