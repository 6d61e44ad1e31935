// Keeping a discord-live subscription's one message current: a leased
// message (the store's lease: one instance at a time) is posted when it has
// none, else edited, with what its server shows now; then it rests for its
// interval. Discord's word is followed as its documentation gives it:
//
// - a 429 waits its retry_after (a global one holds every message of this
//   instance), and X-RateLimit-Remaining: 0 waits X-RateLimit-Reset-After
//   before the webhook is asked again (docs/topics/rate-limits);
// - an edit answered 404 Unknown Message (deleted in Discord) posts the
//   message anew, once, in the same attempt unless Discord asked to wait;
// - a post answered 401 or 404, or an edit answered 401 or a 404 other than
//   Unknown Message, is a webhook that is gone: the subscription is paused
//   ("If a webhook returns a 404 status you should not attempt to use it
//   again", docs/topics/rate-limits); anything else is a failure, tried
//   again after the interval, and a day of them pauses it like any delivery.

import type { Store } from "../store/store.ts";
import type { LiveLease, LiveOutcome } from "../store/webhook-records.ts";
import { callDiscord, UNKNOWN_MESSAGE, type DiscordAnswer } from "./discord-api.ts";
import { stateOf } from "./events.ts";
import { liveLinks, liveMessage, liveShown, type ReadLiveView } from "./live-embed.ts";
import { discordWebhook } from "./webhook-url.ts";

/** A 429 that names no wait is waited this long. */
const LEAST_WAIT_MS = 1_000;

export interface LiveMessageDeps {
  store: Store;
  now: () => number;
  staleAfterMs: number;
  /** Discord's API (DISCORD_API; a test's stand-in of it). */
  discordApi: string;
  /** PENNANT_PUBLIC_URL: links and the banner need it; without it the message has neither. */
  publicUrl: string | null;
  view: ReadLiveView;
  /** How long Discord has to answer each request. */
  timeoutMs: number;
  /** A message whose requests have all failed for this long is paused. */
  pauseAfterMs: number;
}

export class LiveMessages {
  /** Until when Discord's global limit holds every request of this instance. */
  #globalUntil = 0;

  constructor(private readonly deps: LiveMessageDeps) {}

  /** Whether this instance may ask Discord anything at `now`. */
  open(now: number): boolean {
    return now >= this.#globalUntil;
  }

  /** Posts or edits the leased message and records how it went; a request cut off by `cancel` is not recorded (the lease ends, and it is tried again). */
  async attempt(lease: LiveLease, cancel: AbortSignal): Promise<void> {
    const outcome = await this.#send(lease, cancel);
    if (outcome && !(cancel.aborted && outcome.status === 0)) await this.deps.store.webhooks.settleLive(outcome);
  }

  async #send(lease: LiveLease, cancel: AbortSignal): Promise<LiveOutcome | null> {
    const { deps } = this;
    const row = await deps.store.servers.get(lease.serverUuid);
    // Removed with its server: its subscriptions went with it.
    if (!row) return null;
    const parsed = discordWebhook(lease.url);
    // Checked when subscribing; a URL stored otherwise (a copy of an older database) names no webhook to ask.
    if ("refused" in parsed) return this.#outcome(lease, { status: 0, waitMs: 0, global: false, code: null, messageId: null }, lease.messageId, null, "gone");
    const now = deps.now();
    const shown = liveShown(row, stateOf(row, now, deps.staleAfterMs));
    const message = liveMessage(await deps.view(row, now), liveLinks(deps.publicUrl, row.uuid, row.pageEnabled, shown), now);
    const call = (messageId: string | null) =>
      callDiscord({ api: deps.discordApi, webhook: parsed.webhook, messageId, body: JSON.stringify(message), timeoutMs: deps.timeoutMs, cancel });
    let answer = await call(lease.messageId);
    if (lease.messageId !== null && answer.status === 404 && answer.code === UNKNOWN_MESSAGE) {
      // Deleted in Discord: posted anew once, now or after the wait Discord asked for.
      if (answer.waitMs > 0) return this.#outcome(lease, answer, null, null, "waited");
      answer = await call(null);
      return this.#judged(lease, answer, null, shown);
    }
    return this.#judged(lease, answer, lease.messageId, shown);
  }

  /** The outcome of `answer` to a post (`messageId` null) or an edit of `messageId`. */
  #judged(lease: LiveLease, answer: DiscordAnswer, messageId: string | null, shown: string): LiveOutcome {
    const { status } = answer;
    if (status >= 200 && status < 300) {
      const kept = messageId ?? answer.messageId;
      // A post whose answer names no message could not be edited: posting again would fill the channel.
      return kept === null ? this.#outcome(lease, answer, null, null, "gone") : this.#outcome(lease, answer, kept, shown, "done");
    }
    if (status === 429) return this.#outcome(lease, answer, messageId, null, "waited");
    // An edit's 404 Unknown Message was handled before: any 404 here is the webhook's.
    if (status === 401 || status === 404) return this.#outcome(lease, answer, messageId, null, "gone");
    return this.#outcome(lease, answer, messageId, null, "failed");
  }

  #outcome(lease: LiveLease, answer: DiscordAnswer, messageId: string | null, shown: string | null, result: LiveOutcome["result"]): LiveOutcome {
    const now = this.deps.now();
    if (result === "waited" && answer.global) this.#globalUntil = Math.max(this.#globalUntil, now + answer.waitMs);
    const restMs = result === "waited" ? Math.max(answer.waitMs, LEAST_WAIT_MS) : Math.max(lease.intervalMs, answer.waitMs);
    return { webhookId: lease.webhookId, now, result, status: answer.status, messageId, shown, nextAt: now + restMs, pauseAfterMs: this.deps.pauseAfterMs };
  }
}
