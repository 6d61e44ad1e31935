// Signed endpoint of a plugin: custom stats and metadata for badges and banners.

import { Elysia, t } from "elysia";
import { HttpError } from "./errors.ts";
import { PLUGIN_DATA, PLUGIN_LIMITS } from "./payloads/plugin.ts";
import { parseUuid } from "./uuid.ts";
import { errorResponses, mergeCodes } from "./openapi/responses.ts";
import {
  ACCEPTED_ONCE, SIGNED_PUSH_ERRORS, STANDARD_SIGNATURE, acceptSignedPush, pushAccepted, pushAnswer, signedHeaders, type SignedDeps,
} from "./signed-request.ts";

const DATA_PATH = "/api/plugins/:plugin_uuid/data";

export function pluginUuidFrom(raw: string): string {
  const uuid = parseUuid(raw);
  if (!uuid) throw new HttpError(400, "invalid_plugin_uuid", "the plugin UUID in the path must be a UUID");
  return uuid;
}

/** Described, not checked by Elysia: the route answers a bad UUID with its own 400 once the request is in. */
const PARAMS = t.NoValidate(t.Object({ plugin_uuid: t.String({ format: "uuid", description: "The plugin's UUID, in any case" }) }));

const HEADERS = signedHeaders("X-Plugin-Token", {}, STANDARD_SIGNATURE);

export function pluginRoutes(deps: SignedDeps) {
  return new Elysia().post(
    DATA_PATH,
    async ({ request, params, server, set }) => {
      const maxPerToken = deps.config.maxPluginsPerToken;
      const pushed = await acceptSignedPush(
        request,
        server,
        {
          scope: "plugin",
          subject: () => pluginUuidFrom(params.plugin_uuid),
          tokenHeader: "X-Plugin-Token",
          schemes: ["request", "standard"],
          route: `POST ${DATA_PATH}`,
          payload: PLUGIN_DATA,
        },
        deps,
        (uuid, fields) => ({ kind: "plugin", uuid, fields, maxPerToken }),
      );
      return pushAnswer(set, "Plugin data updated.", pushed);
    },
    {
      parse: "none",
      body: PLUGIN_DATA.schema,
      params: PARAMS,
      headers: HEADERS,
      detail: {
        summary: "Custom stats and metadata of a plugin, read by badges and plugin banners",
        description:
          `${ACCEPTED_ONCE} Every field is optional: a field left out (or null) keeps its stored value, ` +
          "one sent replaces it whole; unknown fields are ignored. The body is checked against its schema only once the signature holds. " +
          "The first accepted push binds the plugin to the token. Text over its maxLength is not refused: a name or meta text is cut to it, " +
          `any other string in meta to ${PLUGIN_LIMITS.metaFreeText} characters; a stats entry whose name is outside its bounds and a list item over its maxLength are dropped, ` +
          "then stats and lists keep their first entries up to their bound. The answer's trimmed names each field cut or dropped; the rest is stored. " +
          "Only a body of the wrong shape (a wrong type, a number out of range, nesting, keys or items over the JSON bounds) is refused, and then nothing is stored.",
        tags: ["plugin"],
        responses: {
          200: pushAccepted("Plugin data updated."),
          ...errorResponses(mergeCodes(SIGNED_PUSH_ERRORS, { 400: ["invalid_plugin_uuid"] })),
        },
      },
    },
  );
}
