// GET /metrics: the Prometheus text format. Traffic figures are nobody else's
// business, so without PENNANT_METRICS_TOKEN only a client on this machine may
// read them (a loopback socket and no forwarding header: a request relayed by
// a reverse proxy on the same machine comes from loopback too, but carries
// X-Forwarded-For). With a token, every scraper must send it as a bearer token.

import { createHash, timingSafeEqual } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { EXPOSITION_CONTENT_TYPE } from "../metrics/registry.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { HttpError } from "./errors.ts";
import { errorResponses } from "./openapi/responses.ts";
import type { SocketInfo } from "./client-ip.ts";

/** Described, not checked by Elysia: checkAccess answers a missing or wrong token with its own 401. */
const HEADERS = t.NoValidate(
  t.Object({
    authorization: t.Optional(t.String({ pattern: "^Bearer \\S+$", description: "Bearer PENNANT_METRICS_TOKEN; required when that is set" })),
  }),
);

export interface MetricsRouteDeps {
  metrics: ServiceMetrics;
  /** PENNANT_METRICS_TOKEN, or null: loopback clients only. */
  token: string | null;
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.replace(/^::ffff:/i, "");
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

/** Compared as digests: constant time, whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function checkAccess(request: Request, socket: SocketInfo | null, token: string | null): void {
  if (token !== null) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (given === undefined || !sameSecret(given, token)) {
      throw new HttpError(401, "unauthorized", "send PENNANT_METRICS_TOKEN as Authorization: Bearer <token>", {
        "WWW-Authenticate": 'Bearer realm="metrics"',
      });
    }
    return;
  }
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers.has(name));
  if (forwarded || !isLoopback(socket?.requestIP(request)?.address)) {
    throw new HttpError(403, "forbidden", "/metrics is served to this machine only; set PENNANT_METRICS_TOKEN to scrape it from elsewhere");
  }
}

export function metricsRoute(deps: MetricsRouteDeps) {
  return new Elysia().get(
    "/metrics",
    ({ request, server }) => {
      checkAccess(request, server as SocketInfo | null, deps.token);
      return new Response(deps.metrics.render(), {
        headers: { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" },
      });
    },
    {
      headers: HEADERS,
      detail: {
        summary: "Metrics in the Prometheus text format (loopback clients, or a bearer token: PENNANT_METRICS_TOKEN)",
        description: "Without PENNANT_METRICS_TOKEN only a client on this machine may read them, and not through a proxy (no X-Forwarded-For).",
        tags: ["service"],
        responses: {
          200: { description: "Requests, render times, caches, lookups, rate limits", content: { [EXPOSITION_CONTENT_TYPE]: { schema: Type.String() } } },
          ...errorResponses({ 401: ["unauthorized"], 403: ["forbidden"] }),
        },
      },
    },
  );
}
