// Signed endpoint of a plugin: custom stats and metadata for badges and banners.

import { Elysia, t } from "elysia";
import { writePluginPush } from "../store/plugins.ts";
import { HttpError } from "./errors.ts";
import { PLUGIN_DATA } from "./payloads/plugin.ts";
import { parseUuid } from "./uuid.ts";
import { acceptSignedPush, type SignedDeps } from "./signed-request.ts";

const DATA_PATH = "/api/plugins/:plugin_uuid/data";

export function pluginUuidFrom(raw: string): string {
  const uuid = parseUuid(raw);
  if (!uuid) throw new HttpError(400, "invalid_plugin_uuid", "the plugin UUID in the path must be a UUID");
  return uuid;
}

export function pluginRoutes(deps: SignedDeps) {
  return new Elysia().post(
    DATA_PATH,
    async ({ request, params, server }) => {
      const maxPerToken = deps.config.maxPluginsPerToken;
      await acceptSignedPush(
        request,
        server,
        {
          scope: "plugin",
          subject: () => pluginUuidFrom(params.plugin_uuid),
          tokenHeader: "X-Plugin-Token",
          schemes: ["standard"],
          route: `POST ${DATA_PATH}`,
          payload: PLUGIN_DATA,
        },
        deps,
        (tx, { tokenId, subject: uuid, fields, now }) => writePluginPush(tx, { uuid, tokenId, now, fields, maxPerToken }),
      );
      return { message: "Plugin data updated." };
    },
    {
      parse: "none",
      body: PLUGIN_DATA.schema,
      params: t.Object({ plugin_uuid: t.String() }),
      detail: { summary: "Custom stats and metadata of a plugin", tags: ["plugin"] },
    },
  );
}
