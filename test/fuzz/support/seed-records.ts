// Records for fuzzed badges and banners to find: servers (one offline) and
// plugins with every kind of meta, pushed through the signed routes of a
// running server, plus UUIDs that were never pushed.

import { newUuid, signedRequest } from "../../support/signing.ts";
import type { PublicContext } from "./public-cases.ts";

export async function seedRecords(baseUrl: string, token: string, now: () => number): Promise<PublicContext> {
  const serverUuids = [newUuid(), newUuid(), newUuid()];
  const pluginUuids = [newUuid(), newUuid()];
  const send = async (path: string, body: object, serverUuid?: string) => {
    const tokenHeader = path.startsWith("/api/plugins") ? "X-Plugin-Token" : "X-Server-Token";
    const response = await fetch(signedRequest(baseUrl, { path, token, body, serverUuid, tokenHeader }, now()));
    if (response.status !== 200) throw new Error(`seeding ${path} answered ${response.status}: ${await response.text()}`);
  };
  for (const [i, uuid] of serverUuids.entries()) {
    await send("/api/server/update", { name: `Server ${i}`, status: i === 2 ? "offline" : "online", stats: { players: { online: 5 + i, max: 50 }, tps: 19.5, motd: "§aHello\n§7World", version: "1.21.4" } }, uuid);
  }
  await send(`/api/plugins/${pluginUuids[0]}/data`, {
    plugin: { name: "FuzzPlugin", version: "2.0.1" },
    stats: { servers: 120, players: 3400 },
    meta: { status: "active", alpha: { downloads: 12000, latest_version: "2.0.1" }, code: { stars: 42, open_issues: [1, 2] } },
    minecraft_versions: ["1.20.4", "1.21.4"],
    server_software: ["paper", "spigot"],
  });
  await send(`/api/plugins/${pluginUuids[1]}/data`, { plugin: { name: "Bare" } });
  return { serverUuids: [...serverUuids, newUuid()], pluginUuids: [...pluginUuids, newUuid()] };
}
