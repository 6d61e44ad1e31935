// Body of POST /api/plugins/{uuid}/data, validated and mapped onto store fields.
//
// stats and meta are free-form within the generic JSON bounds, but the meta
// keys that badges read must have the type the badge expects, so that a wrong
// type is refused here instead of drawing nonsense later.

import type { PluginFields } from "../../store/plugins.ts";
import { FieldReader, PayloadError, asObject } from "./reader.ts";

export const PLUGIN_LIMITS = {
  name: 128,
  version: 64,
  statsEntries: 128,
  statName: 64,
  versions: 256,
  versionLength: 32,
  software: 64,
  softwareLength: 64,
};

type MetaType = "count" | "text" | "list";

/** Meta keys read by badges, with the type each must have when present. */
export const TYPED_META_KEYS: Record<string, MetaType> = {
  status: "text",
  "alpha.downloads": "count",
  "alpha.latest_version": "text",
  "beta.downloads": "count",
  "beta.followers": "count",
  "beta.latest_version": "text",
  "gamma.downloads": "count",
  "gamma.stars": "count",
  "gamma.watchers": "count",
  "gamma.latest_version": "text",
  "gamma.license": "text",
  "code.latest_release": "text",
  "code.stars": "count",
  "code.forks": "count",
  "code.watchers": "count",
  "code.open_issues": "list",
};

function checkTypedMeta(meta: Record<string, unknown>): void {
  for (const [path, type] of Object.entries(TYPED_META_KEYS)) {
    const value = path.split(".").reduce<unknown>((node, key) => {
      return node !== null && typeof node === "object" && !Array.isArray(node)
        ? (node as Record<string, unknown>)[key]
        : undefined;
    }, meta);
    if (value === undefined || value === null) continue;
    const ok =
      (type === "count" && typeof value === "number" && Number.isFinite(value) && value >= 0) ||
      (type === "text" && typeof value === "string" && value.length <= 256) ||
      (type === "list" && Array.isArray(value));
    if (!ok) {
      const expected = { count: "a number of at least 0", text: "a string of at most 256 characters", list: "a list" };
      throw new PayloadError(`meta.${path}`, `must be ${expected[type]}`);
    }
  }
}

export function parsePluginData(body: unknown): PluginFields {
  const reader = new FieldReader(asObject(body, ""));
  const plugin = reader.object("plugin");
  const meta = reader.object("meta");
  if (meta) checkTypedMeta(meta.value);
  return {
    name: plugin?.string("name", PLUGIN_LIMITS.name),
    version: plugin?.string("version", PLUGIN_LIMITS.version),
    stats: reader.numberMap("stats", PLUGIN_LIMITS.statsEntries, PLUGIN_LIMITS.statName),
    meta: meta?.value,
    minecraftVersions: reader.stringList("minecraft_versions", PLUGIN_LIMITS.versions, PLUGIN_LIMITS.versionLength),
    serverSoftware: reader.stringList("server_software", PLUGIN_LIMITS.software, PLUGIN_LIMITS.softwareLength),
  };
}
