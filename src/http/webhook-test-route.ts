// POST /api/server/webhooks/{id}/test: its owner asks for one test delivery
// to a subscription and is told the receiver's answer. Signed as the
// subscriptions are (X-Server-Token, X-Server-UUID, X-Signature over method,
// path and body, X-Signature-Version: 2), by the server's own token only.
// The delivery is a `test` event in the subscription's format, signed with
// its secret and sent as every delivery is (alerts/delivery.ts: the address
// guard, no redirect, the deadline), at once: the answer waits for it.
//
// It changes nothing kept (the subscription's state, its queue), so like a
// read it is not remembered: the same request sent again within the clock
// window sends another test, to the owner's own receiver. Bounded per token
// (TEST_RATE_LIMIT, counted in Redis when shared), and in flight per token
// and per instance, so that no token holds more sockets than a few.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { send, succeeded, type ResolveTarget } from "../alerts/delivery.ts";
import { eventBody, formatBody, stateOf } from "../alerts/events.ts";
import type { DueDelivery } from "../store/webhook-records.ts";
import { HttpError } from "./errors.ts";
import { errorResponses, jsonSuccess, mergeCodes } from "./openapi/responses.ts";
import type { Limiter } from "./rate-limit.ts";
import { serverUuidFrom } from "./server-routes.ts";
import { acceptSignedBody, SIGNED_READ_ERRORS, signedHeaders, type SignedDeps } from "./signed-request.ts";

export const WEBHOOK_TEST_PATH = "/api/server/webhooks/:id/test";

/** Test deliveries per token: enough to try a receiver again and again by hand, never a flood. */
export const TEST_RATE_LIMIT = { count: 10, windowSeconds: 60 };
/** Tests one token may have under way on an instance, and all tokens together. */
const IN_FLIGHT_PER_TOKEN = 2;
const IN_FLIGHT_TOTAL = 50;

export interface WebhookTestDeps extends SignedDeps {
  /** The address guard webhooks are sent through (lookup/target-address.ts with this instance's rules). */
  resolve: ResolveTarget;
  /** Per token hash (TEST_RATE_LIMIT). */
  testLimiter: Limiter;
  /** How long the receiver has to answer (DELIVERY_TIMEOUT_MS unless a test shortens it). */
  deliveryTimeoutMs?: number;
}

const HEADERS = signedHeaders("X-Server-Token", { "x-server-uuid": t.String({ format: "uuid", description: "The server's UUID, in any case" }) });

const TESTED = Type.Object(
  {
    message: Type.String(),
    status: Type.Integer({ minimum: 0, description: "The receiver's answer's status code; 0 when there was none (refused address, no connection, no answer in 10 s)" }),
    delivered: Type.Boolean({ description: "Whether the receiver answered 2xx" }),
  },
  { title: "WebhookTested" },
);

export function webhookTestRoute(deps: WebhookTestDeps) {
  /** Tests under way on this instance, per token hash. */
  const running = new Map<string, number>();
  let total = 0;

  /** Holds a place for one test of the token, or refuses (429) when its places or the instance's are taken. */
  function hold(tokenHash: string): () => void {
    const mine = running.get(tokenHash) ?? 0;
    if (mine >= IN_FLIGHT_PER_TOKEN || total >= IN_FLIGHT_TOTAL) {
      throw new HttpError(429, "rate_limited", "test deliveries are under way already; wait for their answers", { "Retry-After": "10" });
    }
    running.set(tokenHash, mine + 1);
    total += 1;
    return () => {
      total -= 1;
      const left = (running.get(tokenHash) ?? 1) - 1;
      if (left === 0) running.delete(tokenHash);
      else running.set(tokenHash, left);
    };
  }

  return new Elysia({ name: "pennant/webhook-test" }).post(
    WEBHOOK_TEST_PATH,
    async ({ request, server, params }) => {
      const route = `POST ${WEBHOOK_TEST_PATH} ${params.id}`;
      const signed = await acceptSignedBody(
        request, server, { scope: "server", tokenHeader: "X-Server-Token", schemes: ["request"], subject: () => serverUuidFrom(request.headers), route }, deps, "closed",
      );
      const row = await deps.store.servers.get(signed.subject);
      if (!row || row.tokenId !== signed.auth.tokenId) throw new HttpError(404, "unknown_server", "this token has pushed no data for this server");
      const hook = (await deps.store.webhooks.list(row.uuid)).find((candidate) => candidate.id === params.id);
      if (!hook) throw new HttpError(404, "unknown_webhook", "this server has no webhook with this id");
      if (hook.format === "discord-live") {
        throw new HttpError(400, "invalid_request", "a discord-live subscription keeps one message current and sends no events: its message, posted at the next sweep, is its test");
      }
      const decision = await deps.testLimiter.take(signed.auth.tokenHash);
      if (!decision.allowed) {
        throw new HttpError(429, "rate_limited", `at most ${TEST_RATE_LIMIT.count} test deliveries a minute per token; slow down`, { "Retry-After": String(decision.retryAfterSeconds) });
      }
      const release = hold(signed.auth.tokenHash);
      try {
        const now = deps.now();
        const state = stateOf(row, now, deps.config.staleAfterSeconds * 1000);
        const body = formatBody(hook.format, eventBody("test", { ...row, playersPeak: null }, state, now, state === "online" ? row.playersOnline : null));
        const delivery: DueDelivery = { id: 0, webhookId: hook.id, url: hook.url, format: hook.format, secret: hook.secret, body, createdAt: now, attempts: 0 };
        const status = await send(delivery, deps.resolve, now, deps.deliveryTimeoutMs);
        const delivered = succeeded(status);
        const message = status === 0 ? "No answer: the address was refused, the connection failed or the receiver did not answer in time." : `The receiver answered ${status}.`;
        return { message, status, delivered };
      } finally {
        release();
      }
    },
    {
      parse: "none",
      body: Type.Object({}, { additionalProperties: true, title: "WebhookTest", description: "Nothing of it is read: send {}" }),
      params: t.Object({ id: t.String({ description: "The subscription's id" }) }),
      headers: HEADERS,
      detail: {
        summary: "Send one test delivery to one of a server's alert subscriptions and answer with the receiver's status code",
        description:
          "A `test` event ({\"event\": \"test\", ...} in json, an embed in discord), signed with the subscription's secret as every delivery is, sent through the same address guard, " +
          "waited for (the receiver has 10 s). Only the server's own token; another token's server reads as unknown. It changes nothing kept and is not remembered: " +
          `each request sends one. At most ${TEST_RATE_LIMIT.count} a minute per token, ${IN_FLIGHT_PER_TOKEN} at once. discord-live subscriptions have no test (400).`,
        tags: ["owner"],
        responses: {
          200: jsonSuccess("Sent (or tried): the receiver's answer", TESTED),
          ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, {
            400: ["invalid_server_uuid", "invalid_json", "invalid_payload", "invalid_request"], 404: ["unknown_server", "unknown_webhook"], 413: ["payload_too_large"], 415: ["unsupported_media_type"],
          })),
        },
      },
    },
  );
}
