// Signed endpoint of a plugin: custom stats and metadata for badges and banners.

import { Elysia, t } from "elysia";
import { acceptPush } from "../store/push.ts";
import { writePluginPush } from "../store/plugins.ts";
import { HttpError } from "./errors.ts";
import { parsePluginData } from "./payloads/plugin.ts";
import { parseUuid } from "./uuid.ts";
import { asHttpError, verifySignedRequest, type SignedDeps } from "./signed-request.ts";

export function pluginUuidFrom(raw: string): string {
  const uuid = parseUuid(raw);
  if (!uuid) throw new HttpError(400, "invalid_plugin_uuid", "the plugin UUID in the path must be a UUID");
  return uuid;
}

export function pluginRoutes(deps: SignedDeps) {
  return new Elysia().post(
    "/api/plugins/:plugin_uuid/data",
    async ({ request, params }) => {
      const uuid = pluginUuidFrom(params.plugin_uuid);
      const { auth, json, now } = await verifySignedRequest(
        request,
        { scope: "plugin", subject: uuid, tokenHeader: "X-Plugin-Token", schemes: ["standard"], hasBody: true },
        deps,
      );
      try {
        const fields = parsePluginData(json);
        acceptPush(deps.db, auth, now, (tx, tokenId) => writePluginPush(tx, { uuid, tokenId, now, fields }));
      } catch (error) {
        throw asHttpError(error);
      }
      return { message: "Plugin data updated." };
    },
    {
      parse: "none",
      params: t.Object({ plugin_uuid: t.String() }),
      detail: { summary: "Custom stats and metadata of a plugin", tags: ["plugin"] },
    },
  );
}
