// The headers answers share, written once: every answer's, public reads',
// and images'. The image pipeline (image-pipeline.ts) builds its answers with
// them, those made before Elysia included; observe.ts adds them to every
// answer Elysia makes. A header added here reaches every answer of its kind
// (test/http/answer-headers.test.ts checks each kind of answer of every
// image route against this table).

import type { ImageType } from "../image-plan.ts";

export interface AnswerHeaders {
  /** On every answer. */
  every: Readonly<Record<string, string>>;
  /** Public reads (PUBLIC_READ_ROUTES), whatever their status. */
  publicRead: Readonly<Record<string, string>>;
  /** Images, besides the two above (every image route is a public read). */
  image: Readonly<Record<string, string>>;
}

export const ANSWER_HEADERS: AnswerHeaders = {
  // A browser takes the declared Content-Type, never a guess from the bytes (an error text read as HTML).
  every: { "X-Content-Type-Options": "nosniff" },
  // Any web page may fetch images, badge JSON, lookups and templates (as shields.io allows): they need no secret.
  publicRead: { "Access-Control-Allow-Origin": "*" },
  // Pages of other origins may embed the images even when they isolate themselves (Cross-Origin-Embedder-Policy).
  image: { "Cross-Origin-Resource-Policy": "cross-origin" },
};

/**
 * The routes any web page may read: the images (banners, badges, the pages'
 * charts and cards), badge JSON, live lookups,
 * server histories and the template list. Not the signed API (a browser has no business
 * holding a token), /metrics, /healthz or the documentation.
 */
export const PUBLIC_READ_ROUTES: ReadonlySet<string> = new Set([
  "/api/banner",
  "/api/templates",
  "/api/lookup",
  "/api/servers/:server_uuid/history",
  "/shields/plugins/:plugin_uuid/:metric",
  "/shields/servers/:server_uuid/:metric",
  "/s/:server_uuid/chart.svg",
  "/s/:server_uuid/chart.png",
  "/s/:server_uuid/og.png",
]);

/** The headers of every image answer, in one record (a fresh copy, for the answer to complete). */
export function imageHeaders(): Record<string, string> {
  return { ...ANSWER_HEADERS.every, ...ANSWER_HEADERS.publicRead, ...ANSWER_HEADERS.image };
}

/**
 * The headers of an image's body, by its type. An SVG opened on its own is a
 * document of this origin: its text is escaped (src/badge/badge-svg.ts), and
 * should anything slip through, its policy lets it run no script and load
 * nothing (the social style's <style> is inline).
 */
export function imageBodyHeaders(type: ImageType): Record<string, string> {
  return type === "image/svg+xml" ? { "Content-Type": type, "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" } : { "Content-Type": type };
}
