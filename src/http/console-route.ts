// GET /console: the owner's console, and its stylesheet and script. The page
// is the same for everyone (src/page/console-page.ts); its script asks for
// an API token, keeps it in the tab's sessionStorage, and signs every
// request to the signed API in the browser (console-assets/console.js).
//
// Its policy lets it load only this server's stylesheet and script, connect
// only to this server, and show images from this server or made by its
// script (blob:, the charts it fetched signed); nothing may frame it, and it
// sends no Referer.

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { CHART_CSS } from "../page/chart-svg.ts";
import { consolePage } from "../page/console-page.ts";
import pageStyles from "./page-assets/page.css" with { type: "text" };
import consoleStyles from "./console-assets/console.css" with { type: "text" };
import script from "./console-assets/console.js" with { type: "text" };

export const CONSOLE_PATH = "/console";

export const CONSOLE_POLICY = [
  "default-src 'none'",
  "img-src 'self' blob: data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The pages' rules (colours, cards, tables, snippets), the chart's, then the console's own. */
const STYLESHEET = `${pageStyles}\n${CHART_CSS}\n${consoleStyles}\n`;
const assetVersion = Bun.hash(STYLESHEET + script).toString(36);
const ASSETS = { style: `${CONSOLE_PATH}/console.css?v=${assetVersion}`, script: `${CONSOLE_PATH}/console.js?v=${assetVersion}` };

const HEADERS = {
  "Content-Security-Policy": CONSOLE_POLICY,
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

function asset(body: string, contentType: string) {
  return () => new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=86400" } });
}

function described(summary: string, type: string) {
  return { detail: { summary, tags: ["owner"], responses: { 200: { description: summary, content: { [type]: { schema: Type.String() } } } } } };
}

export function consoleRoute(options: { admin: boolean }) {
  const page = consolePage({ assets: ASSETS, admin: options.admin }).text;
  return new Elysia({ name: "pennant/console" })
    .get(CONSOLE_PATH, () => new Response(page, { headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } }), described(
      "The owner's console: a token's servers, plugins, networks and webhooks, and with PENNANT_ADMIN_TOKEN the API tokens; signs in the browser (docs/console.md)",
      "text/html",
    ))
    .get(`${CONSOLE_PATH}/console.css`, asset(STYLESHEET, "text/css; charset=utf-8"), described("The console's stylesheet", "text/css"))
    .get(`${CONSOLE_PATH}/console.js`, asset(script, "text/javascript; charset=utf-8"), described("The console's script: signs requests with Web Crypto, shows what they answer", "text/javascript"));
}
