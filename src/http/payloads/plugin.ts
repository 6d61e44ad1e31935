// Body of POST /api/plugins/{uuid}/data: its schema, mapped onto store fields.
//
// stats and meta are free-form within the generic JSON bounds, but the meta
// keys that badges read must have the type the badge expects, so that a wrong
// type is refused here instead of drawing nonsense later. Text over its bound
// is cut to it; a stat or list item over its bound is dropped (trim-to-bounds.ts).

import { Type, type Static } from "@sinclair/typebox";
import type { PluginFields } from "../../store/records.ts";
import { storedFreeForm } from "./trim-to-bounds.ts";
import { namedEntries, openObject, optional, payload, present, whenObject, type Payload } from "./payload.ts";

export const PLUGIN_LIMITS = {
  name: 128,
  version: 64,
  statsEntries: 128,
  statName: 64,
  versions: 256,
  versionLength: 32,
  software: 64,
  softwareLength: 64,
  metaText: 256,
  /** Any other string in meta, stored as sent. */
  metaFreeText: 4_096,
};

/** Meta values read by badges, by the type each must have when present. */
const count = optional(Type.Number({ minimum: 0 }));
const text = optional(Type.String({ maxLength: PLUGIN_LIMITS.metaText }));
const list = optional(Type.Array(Type.Unknown()));

const META = storedFreeForm(openObject(
  {
    status: text,
    alpha: whenObject(openObject({ downloads: count, latest_version: text })),
    beta: whenObject(openObject({ downloads: count, followers: count, latest_version: text })),
    gamma: whenObject(openObject({ downloads: count, stars: count, watchers: count, latest_version: text, license: text })),
    code: whenObject(openObject({ latest_release: text, stars: count, forks: count, watchers: count, open_issues: list })),
  },
  { description: `Free-form metadata; the keys listed are read by badges and must have their types. Any other string is cut to ${PLUGIN_LIMITS.metaFreeText} characters` },
), PLUGIN_LIMITS.metaFreeText);

const stringList = (maxItems: number, maxLength: number, description: string) =>
  optional(Type.Array(Type.String({ maxLength }), { maxItems, description }));

export const PLUGIN_DATA_BODY = openObject(
  {
    plugin: optional(
      openObject({
        name: optional(Type.String({ maxLength: PLUGIN_LIMITS.name, description: "Plugin name" })),
        version: optional(Type.String({ maxLength: PLUGIN_LIMITS.version, description: "Plugin version" })),
      }),
    ),
    stats: optional(
      namedEntries(
        Type.Number(),
        { maxEntries: PLUGIN_LIMITS.statsEntries, minName: 1, maxName: PLUGIN_LIMITS.statName },
        "Named numeric counters, replaced whole by each push that carries them",
      ),
    ),
    meta: optional(META),
    minecraft_versions: stringList(PLUGIN_LIMITS.versions, PLUGIN_LIMITS.versionLength, "Game versions the plugin supports"),
    server_software: stringList(PLUGIN_LIMITS.software, PLUGIN_LIMITS.softwareLength, "Server software the plugin runs on"),
  },
  { title: "PluginData" },
);

function pluginFields(body: Static<typeof PLUGIN_DATA_BODY>): PluginFields {
  return {
    name: present(body.plugin?.name),
    version: present(body.plugin?.version),
    stats: present(body.stats),
    meta: present(body.meta),
    minecraftVersions: present(body.minecraft_versions),
    serverSoftware: present(body.server_software),
  };
}

export const PLUGIN_DATA: Payload<PluginFields> = payload(PLUGIN_DATA_BODY, pluginFields);
