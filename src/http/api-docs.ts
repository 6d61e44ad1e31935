// The API's description: GET /openapi.json (OpenAPI 3.1, generated from the
// registered routes on first request) and GET /docs, a page that renders it.
// The page is one self-written file embedded by import (so the compiled binary
// serves it) and loads nothing but openapi.json: it works with no internet.
// The old addresses of the description, /openapi and /openapi/json, redirect.

import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import pageText from "./docs/docs.html" with { type: "text" };
import { MAX_UPDATE_BODY_BYTES } from "./server-routes.ts";
import { MAX_BODY_BYTES } from "./signed-request.ts";
import { openApiDocument, type DescribedRoute, type DocumentInfo } from "./openapi/document.ts";
import { jsonSuccess } from "./openapi/responses.ts";

// bun-types types every .html import as Bun.serve's HTMLBundle; imported as text it is the file's text.
const page = pageText as unknown as string;

/** A CSP source for the page's one inline <script> or <style>: only that exact text may run. */
function inlineSource(tag: "script" | "style"): string {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page);
  if (!match) throw new Error(`docs.html has no inline <${tag}>`);
  return `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`;
}

/** The page may run its own script and style and fetch from this server; nothing else. */
const DOCS_POLICY = [
  "default-src 'none'",
  `script-src ${inlineSource("script")}`,
  `style-src ${inlineSource("style")}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const DOCUMENT_SCHEMA = Type.Object(
  { openapi: Type.Literal("3.1.0"), info: Type.Object({ title: Type.String(), version: Type.String() }), paths: Type.Object({}) },
  { description: "An OpenAPI 3.1 document" },
);

const TAG = "service";

const ABOUT: Omit<DocumentInfo, "version"> = {
  title: "Pennant",
  description: [
    "Banner and badge server for Minecraft servers and plugins.",
    'Every error is JSON, {"error": {"code", "message"}}: codes are stable identifiers, messages one line for humans. ' +
      "Banners and .png badges answer a client that asked for an image with an image stating the problem.",
    "On any path: 404 not_found when no endpoint is there, 405 method_not_allowed (with Allow) for a method it does not serve, " +
      `413 payload_too_large for a declared body over ${MAX_BODY_BYTES} bytes (${MAX_UPDATE_BODY_BYTES} on POST /api/server/update), 500 internal for a fault (logged with the X-Request-Id every answer carries). ` +
      "HEAD is answered wherever GET is.",
    "Signed endpoints: with X-Signature-Version: 2, X-Signature is the hex HMAC-SHA256 of the method + \" \" + the path and query + \"\\n\" + X-Timestamp + \".\" + the raw body, keyed with the token; " +
      "the plugin's endpoints also take, without that header, the HMAC of X-Timestamp + \".\" + the raw body (docs/signed-api.md).",
  ].join("\n\n"),
  tags: [
    { name: "server", description: "Signed endpoints of a game server's plugin (X-Server-Token)" },
    { name: "plugin", description: "Signed endpoint of a plugin (X-Plugin-Token)" },
    { name: "banners", description: "Public banner images, per-IP rate limited" },
    { name: "badges", description: "Public shields-style badges" },
    { name: "lookup", description: "Public live status of any Minecraft server" },
    { name: "markets", description: "Public projects and authors of the plugin marketplaces (Modrinth, Spigot, Hangar, CurseForge, Polymart), as their badges and banners show them" },
    { name: "history", description: "Public player and uptime history of a pushed server" },
    { name: "pages", description: "Public pages of pushed servers and networks, their charts, link preview cards and widgets" },
    { name: "designer", description: "The designer page at / and its assets" },
    { name: "owner", description: "Signed reads and actions of a token's owner: its servers, plugins and networks (the console at /console)" },
    { name: "admin", description: "API tokens listed, created and revoked, signed with PENNANT_ADMIN_TOKEN; present only while it is set" },
    { name: TAG, description: "Health, metrics and this description" },
  ],
};

function redirect(location: string): Response {
  return new Response(null, { status: 301, headers: { Location: location, "Cache-Control": "public, max-age=86400" } });
}

const movedTo = (location: string) => ({
  summary: `Moved permanently to ${location}`,
  deprecated: true,
  tags: [TAG],
  responses: {
    301: { description: `Redirect to ${location}`, headers: { Location: { schema: Type.Literal(location) } } },
  },
});

export function apiDocs(routes: () => readonly DescribedRoute[], version: string) {
  const info = { ...ABOUT, version };
  // Built once every route is registered (the first request), then served as is.
  let documentText: string | undefined;
  const documentJson = () => (documentText ??= JSON.stringify(openApiDocument(routes(), info)));

  return new Elysia({ name: "pennant/api-docs" })
    .get(
      "/openapi.json",
      () => new Response(documentJson(), { headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" } }),
      {
        detail: {
          summary: "This description: OpenAPI 3.1, generated from the schemas the routes validate with",
          tags: [TAG],
          responses: { 200: jsonSuccess("The OpenAPI document", DOCUMENT_SCHEMA) },
        },
      },
    )
    .get(
      "/docs",
      () =>
        new Response(page, {
          headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": DOCS_POLICY, "Cache-Control": "public, max-age=300" },
        }),
      {
        detail: {
          summary: "A page that renders /openapi.json: endpoints, parameters, bodies, responses and their schemas (works offline)",
          tags: [TAG],
          responses: { 200: { description: "The page", content: { "text/html": { schema: Type.String() } } } },
        },
      },
    )
    .get("/openapi", () => redirect("/docs"), { detail: movedTo("/docs") })
    .get("/openapi/json", () => redirect("/openapi.json"), { detail: movedTo("/openapi.json") });
}
