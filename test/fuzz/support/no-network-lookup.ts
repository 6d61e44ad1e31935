// A lookup service that never opens a socket, for fuzzing: addresses go
// through the real parser, resolver step and address policy (with a stub
// resolver: no DNS either), and where the real service would now connect,
// this one answers that nothing replied. Fuzzed addresses may be any public
// IP; none of them is ever contacted.

import { LookupService } from "../../../src/lookup/lookup-service.ts";
import type { Resolver } from "../../../src/lookup/dns.ts";
import { offline, type LookupResult, type Target } from "../../../src/lookup/result.ts";

/** Names the stub knows: public, private, mixed, IPv6, with SRV, failing, and one that never answers. */
const ADDRESSES = new Map<string, string[]>([
  ["play.example.com", ["93.184.216.34"]],
  ["mixed.example.com", ["10.0.0.5", "93.184.216.35"]],
  ["internal.example.com", ["10.1.2.3", "192.168.0.1"]],
  ["v6.example.com", ["2606:4700::6810:1"]],
  ["srv-target.example.com", ["93.184.216.36"]],
]);

export const STUB_NAMES = [...ADDRESSES.keys(), "srv.example.com", "broken.example.com", "silent.example.com", "nowhere.example.com"];

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
}

export const stubResolver: Resolver = {
  async addresses(host, signal) {
    if (host === "broken.example.com") throw Object.assign(new Error("SERVFAIL"), { code: "ESERVFAIL" });
    if (host === "silent.example.com") return untilAborted(signal);
    return ADDRESSES.get(host) ?? [];
  },
  async srv(name) {
    return name === "_minecraft._tcp.srv.example.com" ? [{ host: "srv-target.example.com.", port: 25570, priority: 0, weight: 5 }] : [];
  },
};

export class NoNetworkLookup extends LookupService {
  constructor() {
    // A short deadline: the name that never answers costs the fuzzer little.
    super({ resolver: stubResolver, deadlineMs: 150, srvBudgetMs: 50 });
  }

  protected override async ping(target: Target): Promise<LookupResult> {
    return offline(target, "timeout", "no reply (fuzzing: nothing is contacted)");
  }
}
