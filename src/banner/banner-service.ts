// Banners for parsed requests: gathers what a banner needs (a live lookup,
// the pushed record and its history, a plugin record), resolves it, and hands
// back what will be drawn: its key (a digest of everything drawn) and a
// description to draw it from (banner-jobs.ts, src/image-plan.ts). The HTTP layer parses the query into a
// BannerRequest and serves the plan (src/http/image-pipeline.ts: ETag, cache,
// headers).

import { createHash } from "node:crypto";
import { imageKey, type ImagePlan } from "../image-plan.ts";
import { nextTurn } from "../next-turn.ts";
import type { Edition } from "../minecraft/edition.ts";
import type { HistoryMarks } from "../store/history.ts";
import { ServerHistories, UNCHARGED, type ReadCharge } from "../store/history-ranges.ts";
import { CacheBudget } from "../cache/budget.ts";
import type { ServerRow } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { frameCount, UPTIME_RANGE, type Animate } from "./animation.ts";
import type { BannerJob, ImageFormat } from "./banner-jobs.ts";
import type { MarketService } from "../market/market-project.ts";
import type { BannerElement, BannerOptions, BannerSize, HistoryPoint, PluginBannerData, SparklineRange } from "./model.ts";
import {
  factsFromLookup, factsFromNetwork, factsFromRecord, historySince, HISTORY_BUCKET_MS, resolvePlugin, resolveServer, sumHistories,
  type CounterChoice, type DataMode, type LiveLookup, type LiveStatus, type ManualValues, type ResolvedServer, type SourceFacts,
} from "./resolve-banner-data.ts";
import { MarketRefusal, resolveResource, type IconSource, type MarketTarget, type ResolvedResource } from "./resolve-resource.ts";
import type { TemplateInfo } from "./templates/catalogue.ts";
import { bannerTextBeyondTables } from "./text-beyond-tables.ts";

export type { ImageFormat };

const CONTENT_TYPES = { png: "image/png", webp: "image/webp", gif: "image/gif" } as const;

export interface BannerRequest {
  template: TemplateInfo;
  options: BannerOptions;
  format: ImageFormat;
  /** animate=: a server template's animation (format gif or webp), else null: a still. */
  animate: Animate | null;
  mode: DataMode;
  manual: ManualValues;
  /** data_mode=query: what to look up. */
  lookup: { address: string; edition: Edition } | null;
  /** data_mode=plugin with a server template: the pushed record. */
  serverUuid: string | null;
  /** data_mode=network with a server template: the network's slug. */
  network: string | null;
  /** Plugin templates: the plugin record, and which of its counters to draw how (market templates: how to write numbers). */
  pluginUuid: string | null;
  counters: CounterChoice;
  /** Market templates: the project or author to draw. */
  market: MarketTarget | null;
  /** The parts not to draw (hide=); absent or empty: none. */
  hidden?: ReadonlySet<BannerElement>;
  /** The span a history chart covers (range=). */
  historyRange: SparklineRange;
}

export interface PreparedBanner extends ImagePlan<BannerJob> {
  /**
   * The query alone decides the image (manual values drawn by a server
   * template): no lookup or record behind it can change, so the answer for
   * its URL may be kept as long as the process draws the same way.
   */
  byQueryAlone: boolean;
  /**
   * A banner of a lookup alone (data_mode=query of a server template): true
   * while what it was planned from is still what a new plan would read (the
   * lookup's answer still cached, LiveLookup.isCurrent), so the plan may be
   * used again without planning; absent for every other banner.
   */
  stillCurrent?: () => boolean;
}

export interface BannerDeps {
  store: Store;
  /** Servers' histories, cached by what they are read from (createApp's, from its cache budget); by default a reader with a budget of its own. */
  histories?: ServerHistories;
  lookup: LiveLookup;
  now: () => number;
  /** PENNANT_STALE_AFTER in milliseconds. */
  staleAfterMs: number;
  /** The marketplaces and their icons (market templates); absent: those banners say marketplaces are off. */
  market?: { service: MarketService; icons: IconSource };
}

/** Digests of favicons and icons by their bytes' object: the lookup service's favicon cache (and the icons') hand out the same one each time. */
const faviconDigests = new WeakMap<Uint8Array, string>();

function faviconDigest(favicon: Uint8Array): string {
  let digest = faviconDigests.get(favicon);
  if (digest === undefined) {
    digest = createHash("sha256").update(favicon).digest("base64url");
    faviconDigests.set(favicon, digest);
  }
  return digest;
}

type Resolved = ResolvedServer | PluginBannerData | ResolvedResource;

/** The lookup's answer a server banner was resolved from, when a lookup was its source. */
interface Looked {
  answer?: LiveStatus;
}

function isPlugin(data: Resolved): data is PluginBannerData {
  return "counters" in data;
}

function isServer(data: Resolved): data is ResolvedServer {
  return !("counters" in data) && !("site" in data);
}

/**
 * What is drawn, as one string (the digest's cost is per string): the
 * favicon by a digest of its bytes, the hidden parts as a list (JSON writes
 * a set as {}), everything else as it is.
 */
function description(request: BannerRequest, data: Resolved): string {
  const { size, theme, scale, accent, background } = request.options;
  const hidden = data.hidden ? { hidden: [...data.hidden] } : {};
  const shown = isPlugin(data) ? { ...data, ...hidden }
    : isServer(data) ? { ...data, favicon: data.favicon && faviconDigest(data.favicon), ...hidden }
    : { ...data, icon: data.icon && faviconDigest(data.icon), ...hidden };
  // An animation's name after the rest, so a still's description is as it was.
  const animated = request.animate ? [request.animate] : [];
  return JSON.stringify([request.template.key, size.width, size.height, theme, scale, accent ?? null, background ?? null, request.format, shown, ...animated]);
}

/** A plan's own bookkeeping beside its description: the job's objects, the key. */
const PLAN_OVERHEAD_BYTES = 1_024;

const pixelsOf = (size: BannerSize, scale: number) => size.width * size.height * scale * scale;

export class BannerService {
  private readonly histories: ServerHistories;

  constructor(private readonly deps: BannerDeps) {
    this.histories = deps.histories ?? new ServerHistories(deps.store, new CacheBudget(), deps.staleAfterMs);
  }

  /** The banner's plan; `charge` is charged for the history read from the store (history-ranges.ts), by default nothing (callers that serve no client). */
  async prepare(request: BannerRequest, charge: ReadCharge = UNCHARGED): Promise<PreparedBanner> {
    const looked: Looked = {};
    const data = await this.resolve(request, charge, looked);
    const drawn = description(request, data);
    const animate = request.animate && isServer(data) ? request.animate : undefined;
    const { answer } = looked, { lookup } = this.deps;
    return {
      key: imageKey(["banner", drawn]),
      contentType: CONTENT_TYPES[request.format],
      byQueryAlone: request.mode === "manual" && request.template.kind === "server",
      ...(answer && lookup.isCurrent ? { stillCurrent: () => lookup.isCurrent!(answer) } : {}),
      pixels: pixelsOf(request.options.size, request.options.scale),
      ...(animate && isServer(data) ? { frames: frameCount(animate, data) } : {}),
      textBeyondTables: bannerTextBeyondTables(data),
      // The resolved data is held by the job; its description is about as large (UTF-16, and the objects besides).
      memory: PLAN_OVERHEAD_BYTES + 8 * drawn.length,
      job: { kind: "banner", template: request.template.key, data, options: request.options, format: request.format, ...(animate ? { animate } : {}) },
    };
  }

  /** A PNG stating `message` at `size` (see error-image.ts). */
  errorImage(message: string, size: BannerSize): ImagePlan<BannerJob> {
    return {
      key: imageKey(["banner error", JSON.stringify([size.width, size.height, message])]),
      contentType: "image/png",
      pixels: pixelsOf(size, 1),
      memory: PLAN_OVERHEAD_BYTES + 2 * message.length,
      job: { kind: "banner-error", message, size },
    };
  }

  private async resolve(request: BannerRequest, charge: ReadCharge, looked: Looked): Promise<Resolved> {
    const now = this.deps.now();
    if (request.template.kind === "market") return this.resource(request);
    if (request.template.kind === "plugin") {
      return resolvePlugin(request.pluginUuid === null ? undefined : await this.deps.store.plugins.get(request.pluginUuid), now, request.counters, request.hidden);
    }
    const server = resolveServer({
      mode: request.mode, manual: request.manual, facts: await this.facts(request, now, charge, looked), now, hidden: request.hidden, historyRange: request.historyRange,
    });
    // Only animate=stats shows the uptime: a still does not pay for reading it, nor change its key with it.
    return request.animate === "stats" ? { ...server, uptime: await this.uptime(request, now, charge) } : server;
  }

  /** A market template's project or author; MarketRefusal when there is none to draw (or no marketplaces). */
  private resource(request: BannerRequest): Promise<ResolvedResource> {
    const { market } = this.deps;
    if (!request.market) throw new RangeError(`template ${request.template.key} needs a project or an author`);
    if (!market) throw new MarketRefusal({ status: "unavailable", reason: "off" }, request.market);
    return resolveResource(market.service, market.icons, request.market, { hidden: request.hidden, numbers: request.counters.numbers });
  }

  /** A pushed server's uptime over UPTIME_RANGE, up to now; null for other modes. */
  private async uptime(request: BannerRequest, now: number, charge: ReadCharge): Promise<number | null> {
    if (request.mode !== "plugin" || request.serverUuid === null) return null;
    const row = await this.deps.store.servers.get(request.serverUuid);
    return row ? (await this.histories.read(row, UPTIME_RANGE, now, charge)).uptime : null;
  }

  /** What the banner shows of its source; a lookup's answer is kept in `looked` (the only source then: a query banner has no history). */
  private async facts(request: BannerRequest, now: number, charge: ReadCharge, looked: Looked): Promise<SourceFacts | null> {
    if (request.mode === "query" && request.lookup) return factsFromLookup((looked.answer = await this.deps.lookup.lookup(request.lookup)));
    const { store } = this.deps;
    const drawsHistory = request.template.uses.includes("history");
    if (request.mode === "network" && request.network !== null) {
      const network = await store.networks.get(request.network);
      const history = network && drawsHistory ? await this.networkHistory(network.servers, request.historyRange, now, charge) : [];
      return factsFromNetwork(network, request.network, now, this.deps.staleAfterMs, history);
    }
    if (request.mode !== "plugin" || request.serverUuid === null) return null;
    const row = await store.servers.get(request.serverUuid);
    // Only a template that draws the history pays for reading it.
    const history = row && drawsHistory ? await this.history(row, request.historyRange, now, charge) : [];
    return factsFromRecord(row, history, now, this.deps.staleAfterMs);
  }

  /**
   * A day from the minute samples, to the minute; longer ranges from the
   * roll-ups (src/store/history-ranges.ts): each step's highest count, steps
   * without an update (offline throughout) left out.
   */
  private async history(row: ServerRow, range: SparklineRange, now: number, charge: ReadCharge, marks?: HistoryMarks, keep = true): Promise<HistoryPoint[]> {
    const { histories } = this;
    if (range === "24h") return histories.recentPeaks(row, historySince(now), HISTORY_BUCKET_MS, charge, keep);
    const { points } = await histories.read(row, range, now, charge, marks, keep);
    return points.flatMap((point) => (point.max === null ? [] : [{ at: point.at, online: point.max }]));
  }

  /**
   * A network's chart: its members' summed, kept whole under what each
   * member's is read from (so a banner of another text, or another network
   * of the same servers, reads nothing). One member is read a turn (and a
   * long range a slice at a time: history-ranges.ts), so the answering thread
   * answers other requests between the reads of a large network.
   */
  private async networkHistory(servers: readonly ServerRow[], range: SparklineRange, now: number, charge: ReadCharge): Promise<HistoryPoint[]> {
    const { histories } = this;
    const marks = range === "24h" ? undefined : await histories.marks();
    const since = historySince(now);
    const keys = servers.map((row) => (marks ? histories.rangeKey(row, range, now, marks) : histories.peaksKey(row, since, HISTORY_BUCKET_MS)));
    const key = createHash("sha256").update(keys.join("\n")).digest("base64url");
    const summed = await histories.summed(key, async () => {
      const series: HistoryPoint[][] = [];
      for (const row of servers) {
        series.push(await this.history(row, range, now, charge, marks, false));
        await nextTurn();
      }
      return sumHistories(series);
    });
    return [...summed];
  }
}
