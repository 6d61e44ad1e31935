// The JSON form of a lookup, shared by the CLI and GET /api/lookup. It follows
// mcstatus.io's v2 status shape where it fits (online, host, port, ip_address,
// version, players, motd, icon, software, plugins, srv_record), plus our own
// edition, latency_ms, protocol_used, source (which way a Hytale server
// answered), error, and sleeping and sleeping_host (a host's placeholder
// answered for the stopped server: sleeping-signatures.ts).

import { parseFormatted, toHtml, toPlainText } from "../minecraft/format.ts";
import { faviconDataUrl } from "./favicon.ts";
import { parseKeptMotd, type Motd } from "./kept-motd.ts";
import type { LookupResult } from "./result.ts";

function motdJson(motd: Motd) {
  const runs = parseKeptMotd(motd);
  return { raw: motd.raw, clean: toPlainText(runs), html: toHtml(runs) };
}

/** Everything the public may see of a result (not the operator's note). */
export function lookupJson(result: LookupResult) {
  return {
    online: result.online,
    host: result.host,
    port: result.port,
    ip_address: result.ipAddress,
    edition: result.edition,
    srv_record: result.srvRecord,
    protocol_used: result.protocolUsed,
    source: result.source,
    latency_ms: result.latencyMs,
    version: result.version && {
      name_raw: result.version.name,
      name_clean: toPlainText(parseFormatted(result.version.name)),
      protocol: result.version.protocol,
    },
    players: result.players && {
      online: result.players.online,
      max: result.players.max,
      list: result.players.sample.map((name) => ({ name_raw: name, name_clean: toPlainText(parseFormatted(name)) })),
    },
    motd: result.motd && motdJson(result.motd),
    icon: result.favicon && faviconDataUrl(result.favicon),
    software: result.software,
    plugins: result.plugins,
    map: result.map,
    error: result.error,
    sleeping: result.sleepingHost !== null,
    sleeping_host: result.sleepingHost,
  };
}

export type LookupJson = ReturnType<typeof lookupJson>;
