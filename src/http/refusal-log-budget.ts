// Which refused requests get a log line (observe.ts): enough to see what goes
// wrong, never a flood, and never one kind of refusal hidden behind another.
//
// Within a window (one for all clients, started by the first refusal after
// the last one ended), a client (its rate-limit key: an IPv4 address, an
// IPv6 /64) gets `perClient` lines. Past them, the first refusal of each error
// code it has had no line for in this window still gets one: a plugin refused
// for an hour as `stale_timestamp` still shows its first `unknown_server`.
// All clients together get `total` lines; past them nothing is written until
// the window ends. A window that held lines back is followed by a line
// saying how many (written with the next refusal's), so the count is exact.
//
// Bounds per window: a client's lines are at most perClient plus the number
// of error codes (a fixed set in the code); all lines at most `total`. The
// table of clients holds only clients that had a line in this window, so at
// most `total` entries of at most that many codes each, and is dropped whole
// when the window ends.

export interface RefusalLogLimits {
  perClient: number;
  total: number;
  windowSeconds: number;
}

export type RefusalLogDecision = { write: false } | { write: true; note?: string };

/** Refusals of a window that got no line, told with the first line after it. */
export interface HeldBack {
  count: number;
  from: number;
  to: number;
}

interface ClientLines {
  written: number;
  codes: Set<string>;
}

export class RefusalLogBudget {
  private readonly windowMs: number;
  private windowStartedAt = -Infinity;
  private written = 0;
  private heldBack = 0;
  private clients = new Map<string, ClientLines>();

  constructor(
    private readonly limits: RefusalLogLimits,
    private readonly now: () => number,
    /** Called before the line that follows a window which held lines back. */
    private readonly reportHeldBack: (heldBack: HeldBack) => void,
  ) {
    this.windowMs = limits.windowSeconds * 1000;
  }

  /** Whether the refusal of `code` to `client` gets a line, and what the line adds. */
  admit(client: string, code: string): RefusalLogDecision {
    const now = this.now();
    if (now - this.windowStartedAt >= this.windowMs) this.startWindow(now);
    if (this.written >= this.limits.total) return this.holdBack();
    let lines = this.clients.get(client);
    const firstOfCode = !lines?.codes.has(code);
    if (lines && lines.written >= this.limits.perClient && !firstOfCode) return this.holdBack();
    if (!lines) {
      lines = { written: 0, codes: new Set() };
      this.clients.set(client, lines);
    }
    lines.written++;
    lines.codes.add(code);
    this.written++;
    return { write: true, note: this.note(lines, now) };
  }

  /** Clients with a line in the current window (the table's size). */
  get size(): number {
    return this.clients.size;
  }

  private note(lines: ClientLines, now: number): string | undefined {
    const seconds = Math.max(1, Math.ceil((this.windowStartedAt + this.windowMs - now) / 1000));
    if (this.written === this.limits.total) return `further refused requests from any client are not logged for ${seconds} s`;
    if (lines.written === this.limits.perClient) {
      return `further refused requests from this client are not logged for ${seconds} s, except the first with each other error code`;
    }
    if (lines.written > this.limits.perClient) return `the first with this error code; others from this client are not logged for ${seconds} s`;
    return undefined;
  }

  private holdBack(): RefusalLogDecision {
    this.heldBack++;
    return { write: false };
  }

  private startWindow(now: number): void {
    if (this.heldBack > 0) this.reportHeldBack({ count: this.heldBack, from: this.windowStartedAt, to: this.windowStartedAt + this.windowMs });
    this.windowStartedAt = now;
    this.written = 0;
    this.heldBack = 0;
    this.clients = new Map();
  }
}
