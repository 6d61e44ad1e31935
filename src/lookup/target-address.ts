// The address an outgoing HTTP request (a webhook delivery) may connect to,
// by the same rules as live lookups: a name is resolved once (localhost and
// its subdomains to loopback without asking DNS), and every address it has
// must be public unless private targets are allowed. The caller connects to
// the address handed back, so a second, different answer from DNS (rebinding)
// is never used.

import { isIP } from "node:net";
import { classifyIp } from "./address-policy.ts";
import { askWithin, loopbackAddresses, systemResolver, type Resolver } from "./dns.ts";

export type TargetAddress = { address: string } | { refused: string };

export interface TargetRules {
  allowPrivate: boolean;
  resolver?: Resolver;
  /** How long resolving may take. */
  timeoutMs: number;
}

/** The address to connect to for `host` (a name, an IPv4 address or a bracketed IPv6 one), or why there is none. */
export async function targetAddress(host: string, rules: TargetRules): Promise<TargetAddress> {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const literal = isIP(bare) === 0 ? null : [bare];
  const addresses =
    literal ?? loopbackAddresses(bare.toLowerCase()) ?? (await askWithin((signal) => (rules.resolver ?? systemResolver).addresses(bare, signal), rules.timeoutMs, []));
  if (addresses.length === 0) return { refused: `${host} does not resolve` };
  if (!rules.allowPrivate) {
    // Every address must pass: which one DNS hands out first is the name owner's choice.
    const blocked = addresses.find((address) => classifyIp(address) !== "public");
    if (blocked !== undefined) return { refused: `${host} resolves to ${blocked}, a ${classifyIp(blocked)} address (PENNANT_WEBHOOK_PRIVATE=on allows it)` };
  }
  return { address: addresses[0]! };
}
