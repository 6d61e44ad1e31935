// Counts the lookup service's answers by outcome and reports its cache sizes,
// from outside: src/lookup knows nothing of metrics. Every caller of the
// instance (the lookup route, banners in query mode) is counted.

import type { LookupService } from "../lookup/lookup-service.ts";
import type { ServiceMetrics } from "./service-metrics.ts";

const counted = new WeakSet<LookupService>();

export function countLookups(service: LookupService, metrics: ServiceMetrics): LookupService {
  metrics.watchCache("lookup_results", () => service.cacheUsage.results);
  metrics.watchCache("lookup_favicons", () => service.cacheUsage.favicons);
  if (counted.has(service)) return service; // one instance shared by two apps (tests) is counted once
  counted.add(service);
  const lookup = service.lookup.bind(service);
  service.lookup = async (request) => {
    const result = await lookup(request);
    metrics.lookup(result.online ? "online" : (result.error?.code ?? "offline"));
    return result;
  };
  return service;
}
