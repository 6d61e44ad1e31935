// Networks (issue 24): a token owner names servers the token owns under a
// slug, and the network's banner and badges sum them. Signed like a server
// push (X-Server-Token, X-Timestamp, X-Signature) without X-Server-UUID, and
// only over method and path (X-Signature-Version: 2): the path's slug is the
// subject, and a DELETE has no body a signature could be told apart by. Both requests are
// accepted once (the replay guard, as every push): a PUT resent after a later
// one, or a DELETE resent after the slug was named again, changes nothing.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import {
  canonicalSlug, MAX_NETWORK_NAME_CHARS, MAX_NETWORK_SERVERS, MAX_NETWORKS_PER_TOKEN, NetworkLimitError, NetworkOwnerError, NetworkServersError, SLUG_RULE, UnknownNetworkError,
} from "../store/network-records.ts";
import { ReplayError } from "../store/write-refusals.ts";
import { HttpError } from "./errors.ts";
import { errorResponses, jsonSuccess, mergeCodes } from "./openapi/responses.ts";
import {
  ACCEPTED_ONCE, DUPLICATE_HEADER, SIGNED_READ_ERRORS, acceptSignedBody, signedHeaders, type SignedDeps, type SignedInput,
} from "./signed-request.ts";
import { parseUuid } from "./uuid.ts";

const PATH = "/api/networks/:slug";

/** Signed over method and path only (X-Signature-Version: 2): an older signature names no route, and a read's would remove the network. */
const HEADERS = signedHeaders("X-Server-Token", {});
/** A signed request with a body that writes no record: none of a push's registration or storage limits. */
const SIGNED_ERRORS = mergeCodes(SIGNED_READ_ERRORS, {
  400: ["invalid_slug"], 401: ["replayed_request"], 403: ["not_owner", "network_limit"], 413: ["payload_too_large"],
});

const SLUG_PARAMS = t.Object({ slug: t.String({ description: `The network's slug: ${SLUG_RULE}; read in lower case` }) });

const NETWORK = Type.Object(
  {
    name: Type.String({ minLength: 1, description: `Shown on the banner; whitespace around it dropped, cut to ${MAX_NETWORK_NAME_CHARS} characters` }),
    servers: Type.Array(Type.String({ format: "uuid" }), {
      minItems: 1,
      maxItems: MAX_NETWORK_SERVERS,
      description: "Servers this token has pushed, in the order to name them; a UUID given twice counts once",
    }),
  },
  { title: "Network" },
);

const SAVED = Type.Object(
  {
    message: Type.Literal("Network saved."),
    slug: Type.String(),
    servers: Type.Integer({ description: "How many servers the network names" }),
    trimmed: Type.Optional(Type.Array(Type.Literal("name"), { description: "Present when the name was cut to its bound" })),
  },
  { title: "NetworkSaved" },
);

/** The network asked for: its name (cut to its bound) and its servers (canonical, each once), or a 400 naming what is wrong. */
function network(json: unknown): { name: string; servers: string[]; trimmed: boolean } {
  const invalid = (message: string) => new HttpError(400, "invalid_payload", `${message}; nothing was stored`);
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw invalid("the body must be a JSON object");
  const { name, servers } = json as Record<string, unknown>;
  const chars = typeof name === "string" ? [...name.trim()] : [];
  if (chars.length === 0) throw invalid("name must be a non-empty string");
  if (!Array.isArray(servers) || servers.length === 0) throw invalid("servers must be a non-empty list of server UUIDs");
  const uuids = servers.map((raw, i) => {
    const uuid = typeof raw === "string" ? parseUuid(raw) : null;
    if (uuid === null) throw invalid(`servers[${i}] is not a UUID`);
    return uuid;
  });
  const unique = [...new Set(uuids)];
  if (unique.length > MAX_NETWORK_SERVERS) throw invalid(`servers names ${unique.length} servers; a network has at most ${MAX_NETWORK_SERVERS}`);
  return { name: chars.slice(0, MAX_NETWORK_NAME_CHARS).join(""), servers: unique, trimmed: chars.length > MAX_NETWORK_NAME_CHARS };
}

/** A store refusal as the answer's error; anything else thrown on. */
function refusal(error: unknown): unknown {
  if (error instanceof NetworkOwnerError) return new HttpError(403, "not_owner", "this network's slug belongs to another token; nothing was changed");
  if (error instanceof NetworkServersError) {
    if (error.otherTokens.length > 0) {
      return new HttpError(403, "not_owner", `servers bound to another token: ${error.otherTokens.join(", ")}; nothing was stored`);
    }
    return new HttpError(404, "unknown_server", `servers that have pushed no data yet: ${error.unknown.join(", ")}; push from each once, then name the network; nothing was stored`);
  }
  if (error instanceof NetworkLimitError) {
    return new HttpError(403, "network_limit", `this token already names ${error.limit} networks, the most allowed; delete one first; nothing was stored`);
  }
  if (error instanceof UnknownNetworkError) return new HttpError(404, "unknown_network", "no network has this slug");
  if (error instanceof ReplayError) return new HttpError(401, "replayed_request", error.message);
  return error;
}

export function networkRoutes(deps: SignedDeps) {
  function input(slug: string, method: "PUT" | "DELETE"): SignedInput & { route: string } {
    const subject = () => {
      const canonical = canonicalSlug(slug);
      if (canonical === null) throw new HttpError(400, "invalid_slug", `a network's slug is ${SLUG_RULE}`);
      return canonical;
    };
    return {
      scope: "server", tokenHeader: "X-Server-Token", schemes: ["request"], subject, route: `${method} ${PATH}`, ...(method === "DELETE" ? { bodiless: true as const } : {}),
    };
  }

  return new Elysia()
    .put(
      PATH,
      async ({ request, server, params, set }) => {
        const signed = await acceptSignedBody(request, server, input(params.slug, "PUT"), deps, "closed");
        const asked = network(signed.json);
        // Registration is closed here: a token that passed is a stored one.
        const tokenId = signed.auth.tokenId!;
        try {
          const status = await deps.store.networks.put({ slug: signed.subject, tokenId, name: asked.name, servers: asked.servers, replay: signed.replay, now: signed.now });
          if (status === "duplicate") set.headers[DUPLICATE_HEADER] = "true";
        } catch (error) {
          throw refusal(error);
        }
        return { message: "Network saved." as const, slug: signed.subject, servers: asked.servers.length, ...(asked.trimmed ? { trimmed: ["name" as const] } : {}) };
      },
      {
        parse: "none",
        params: SLUG_PARAMS,
        body: NETWORK,
        headers: HEADERS,
        detail: {
          summary: "Name a network: servers this token owns, summed by one banner and badge",
          description:
            `${ACCEPTED_ONCE} Creates the slug for this token, or replaces the name and servers of this token's network (idempotent). ` +
            `Every server must be one this token has pushed: one bound to another token is a 403 not_owner, one never pushed a 404 unknown_server, and nothing is stored. ` +
            `The slug is the first token's: another token's PUT or DELETE is a 403 not_owner. ` +
            `A token names at most ${MAX_NETWORKS_PER_TOKEN} networks: a new slug beyond is a 403 network_limit.`,
          tags: ["server"],
          responses: {
            200: { ...jsonSuccess("Saved, or an exact duplicate of a request already accepted (answered alike, nothing applied again)", SAVED) },
            ...errorResponses(mergeCodes(SIGNED_ERRORS, { 400: ["invalid_json", "invalid_payload"], 404: ["unknown_server"], 415: ["unsupported_media_type"] })),
          },
        },
      },
    )
    .delete(
      PATH,
      async ({ request, server, params, set }) => {
        const signed = await acceptSignedBody(request, server, input(params.slug, "DELETE"), deps, "closed");
        try {
          const status = await deps.store.networks.remove({ slug: signed.subject, tokenId: signed.auth.tokenId!, replay: signed.replay, now: signed.now });
          if (status === "duplicate") set.headers[DUPLICATE_HEADER] = "true";
        } catch (error) {
          throw refusal(error);
        }
        return { message: "Network removed." as const };
      },
      {
        params: SLUG_PARAMS,
        headers: HEADERS,
        detail: {
          summary: "Remove one of this token's networks",
          description: `Signed over its method and path with an empty body, and accepted once, as a push: ${ACCEPTED_ONCE.slice(ACCEPTED_ONCE.indexOf("its token"))}`,
          tags: ["server"],
          responses: {
            200: jsonSuccess("Removed", Type.Object({ message: Type.Literal("Network removed.") })),
            ...errorResponses(mergeCodes(SIGNED_ERRORS, { 404: ["unknown_network"] })),
          },
        },
      },
    );
}
