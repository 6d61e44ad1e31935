// PUT /api/server/page: a server's owner switches its public page
// (/s/{uuid}, with its charts, card and widget) off or on. Signed as the
// alert subscriptions are (X-Server-Token, X-Server-UUID, X-Timestamp,
// X-Signature over method and path, X-Signature-Version: 2), by the token the
// server is bound to only, and accepted once. A page switched off answers
// the same plain 404 as a server that never pushed.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { UnknownServerError } from "../store/server-pages.ts";
import { ReplayError } from "../store/write-refusals.ts";
import { HttpError } from "./errors.ts";
import { errorResponses, jsonSuccess, mergeCodes } from "./openapi/responses.ts";
import { serverUuidFrom } from "./server-routes.ts";
import { ACCEPTED_ONCE, DUPLICATE_HEADER, SIGNED_READ_ERRORS, acceptSignedBody, signedHeaders, type SignedDeps } from "./signed-request.ts";

export const PAGE_SWITCH_PATH = "/api/server/page";

const HEADERS = signedHeaders("X-Server-Token", { "x-server-uuid": t.String({ format: "uuid", description: "The server's UUID, in any case" }) });

const SWITCH = Type.Object(
  { enabled: Type.Boolean({ description: "true: the page is shown (as it is from the first push); false: it answers 404" }) },
  { title: "PageSwitch", additionalProperties: true },
);

const SWITCHED = Type.Object(
  { message: Type.Union([Type.Literal("Page shown."), Type.Literal("Page switched off.")]), enabled: Type.Boolean() },
  { title: "PageSwitched" },
);

/** `{"enabled": true|false}`, or a 400 saying so. */
function enabledOf(json: unknown): boolean {
  const enabled = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>).enabled : undefined;
  if (typeof enabled !== "boolean") throw new HttpError(400, "invalid_payload", 'the body must be {"enabled": true} or {"enabled": false}; nothing was changed');
  return enabled;
}

export function pageSwitchRoute(deps: SignedDeps) {
  return new Elysia().put(
    PAGE_SWITCH_PATH,
    async ({ request, server, set }) => {
      const signed = await acceptSignedBody(
        request, server,
        { scope: "server", subject: () => serverUuidFrom(request.headers), tokenHeader: "X-Server-Token", schemes: ["request"], route: `PUT ${PAGE_SWITCH_PATH}` },
        deps, "closed",
      );
      const enabled = enabledOf(signed.json);
      try {
        // Registration is closed here: a token that passed is a stored one.
        const status = await deps.store.servers.switchPage({ uuid: signed.subject, tokenId: signed.auth.tokenId!, shown: enabled, replay: signed.replay, now: signed.now });
        if (status === "duplicate") set.headers[DUPLICATE_HEADER] = "true";
      } catch (error) {
        if (error instanceof UnknownServerError) throw new HttpError(404, "unknown_server", `${error.message}; nothing was changed`);
        if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
        throw error;
      }
      return { message: enabled ? ("Page shown." as const) : ("Page switched off." as const), enabled };
    },
    {
      parse: "none",
      body: SWITCH,
      headers: HEADERS,
      detail: {
        summary: "Switch a server's public page (/s/{server_uuid}, its charts, card and widget) off or on",
        description:
          `${ACCEPTED_ONCE} Only the token the server is bound to may switch it; another token's server reads as unknown. ` +
          "A page is on from the first push; switched off, the page and everything under /s/{server_uuid} answer the plain 404 of a server that never pushed.",
        tags: ["server"],
        responses: {
          200: jsonSuccess("Switched, or an exact duplicate of a request already accepted (answered alike, nothing applied again)", SWITCHED),
          ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, {
            400: ["invalid_server_uuid", "invalid_json", "invalid_payload"], 401: ["replayed_request"], 404: ["unknown_server"], 413: ["payload_too_large"], 415: ["unsupported_media_type"],
          })),
        },
      },
    },
  );
}
