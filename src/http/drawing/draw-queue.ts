// The queue in front of drawing: at most `concurrency` draws run at once (the
// drawer's slots: two per render thread, the one it draws and the one handed
// to it ahead), the others wait their turn, served round-robin across
// clients (budget keys: an IPv4 address, an IPv6 /64), so one client's
// hundred waiting draws delay another client's one by at most one turn each.
// Waiting is bounded twice: a few draws per client, and the units (cost,
// draw-cost.ts) of all waiting draws together; beyond either, a 503 at once
// instead of a wait without end. Only draws come here: cached answers, 304s
// and every other route never wait behind them.

import { HttpError } from "../errors.ts";

export interface DrawQueueSettings {
  /** Draws run at once: the drawer's slots (1 when drawing on the HTTP thread). */
  concurrency: number;
  /** Draws one client may have waiting (PENNANT_DRAW_QUEUE_PER_CLIENT). */
  perClient: number;
  /** Units all waiting draws may add up to (PENNANT_DRAW_QUEUE_UNITS); a draw finding nobody waiting is taken whatever its cost. */
  maxUnits: number;
}

/** What /metrics shows of the queue. */
export interface DrawQueueUsage {
  running: number;
  waiting: number;
  waitingUnits: number;
  /** Draws refused so far because their client had `perClient` waiting ("client") or the queue was full in units ("queue"). */
  refused: { client: number; queue: number };
}

/** What a refused client is told to wait: the default queue (4,096 units, ~0.3 ms each on one thread) drains in about that. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 2;

interface WaitingDraw {
  units: number;
  start(): void;
}

export class DrawQueue {
  private running = 0;
  private waiting = 0;
  private waitingUnits = 0;
  private readonly refused = { client: 0, queue: 0 };
  /** Each client's waiting draws, oldest first; the client served last goes to the back (a Map keeps insertion order). */
  private readonly lanes = new Map<string, WaitingDraw[]>();

  constructor(private readonly settings: DrawQueueSettings) {
    if (!(settings.concurrency >= 1)) throw new RangeError("a draw queue runs at least one draw at once");
  }

  /**
   * Runs `draw` (of `units`) for `client` now or when its turn comes. Throws
   * a 503 (draw_queue_full, with Retry-After) at once when it may not wait.
   */
  run<T>(client: string, units: number, draw: () => T | Promise<T>): Promise<T> {
    if (this.running < this.settings.concurrency && this.waiting === 0) return this.start(draw);
    const lane = this.lanes.get(client) ?? [];
    this.refuseBeyondBounds(lane, units);
    return new Promise<T>((resolve, reject) => {
      lane.push({ units, start: () => void this.start(draw).then(resolve, reject) });
      if (lane.length === 1) this.lanes.set(client, lane);
      this.waiting += 1;
      this.waitingUnits += units;
    });
  }

  usage(): DrawQueueUsage {
    return { running: this.running, waiting: this.waiting, waitingUnits: this.waitingUnits, refused: { ...this.refused } };
  }

  private refuseBeyondBounds(lane: readonly WaitingDraw[], units: number): void {
    const reason = lane.length >= this.settings.perClient ? "client"
      : this.waiting > 0 && this.waitingUnits + units > this.settings.maxUnits ? "queue"
      : null;
    if (reason === null) return;
    this.refused[reason] += 1;
    throw new HttpError(503, "draw_queue_full", "too many images are being drawn; try again shortly", {
      "Retry-After": String(QUEUE_FULL_RETRY_AFTER_SECONDS),
    });
  }

  /** Runs a draw in a slot; the slot is given to the next waiting draw however this one ends. */
  private async start<T>(draw: () => T | Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await draw();
    } finally {
      this.running -= 1;
      this.startNext();
    }
  }

  private startNext(): void {
    while (this.running < this.settings.concurrency) {
      const turn = this.lanes.entries().next();
      if (turn.done) return;
      const [client, lane] = turn.value;
      const next = lane.shift()!;
      this.lanes.delete(client);
      if (lane.length > 0) this.lanes.set(client, lane);
      this.waiting -= 1;
      this.waitingUnits -= next.units;
      next.start();
    }
  }
}
