// The address an outgoing HTTP request (a webhook delivery) may connect to,
// by the same rules as live lookups: a name is resolved once (localhost and
// its subdomains to loopback without asking DNS), and every address it has
// must be public unless private targets are allowed. The caller connects to
// the address handed back, so a second, different answer from DNS (rebinding)
// is never used.
//
// A refusal is shown to whoever asked (any token holder), so for a name it
// states the rule only: what the name resolves to, or whether it resolves at
// all, would tell them what the operator's internal DNS holds. An address
// typed as such is named with its kind: the asker wrote it, nothing is told.

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
  if (isIP(bare) !== 0) {
    const kind = classifyIp(bare);
    return rules.allowPrivate || kind === "public" ? { address: bare } : { refused: `${host} is a ${kind} address, not a public one (PENNANT_WEBHOOK_PRIVATE=on allows it)` };
  }
  const addresses =
    loopbackAddresses(bare.toLowerCase()) ?? (await askWithin((signal) => (rules.resolver ?? systemResolver).addresses(bare, signal), rules.timeoutMs, []));
  // Every address must pass: which one DNS hands out first is the name owner's choice.
  const usable = addresses.length > 0 && (rules.allowPrivate || addresses.every((address) => classifyIp(address) === "public"));
  if (!usable) {
    return { refused: rules.allowPrivate ? `${host} does not resolve` : `the url's host ${host} must resolve, and to public addresses only (PENNANT_WEBHOOK_PRIVATE=on lifts this rule)` };
  }
  return { address: addresses[0]! };
}
