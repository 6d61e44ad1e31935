// What one instance holds of the windows shared through Redis
// (shared-limits.ts): units of a client's window leased from Redis and not
// spent yet, so that most takes are decided here, at once, with no round trip
// (a cached banner is answered in Bun's router; a Redis script per request
// cost it about a fifth more CPU).
//
// Redis counts every unit leased, to any instance, against the window's
// limit, and an instance spends only what it leased: across N instances no
// client gets more than its limit. What a lease costs instead is early
// refusal: units leased to one instance and not spent there are not
// available to the others until the window ends (they expire with it). So
// leases stay small: a client's first lease of a window is what it needs
// (one unit for a request), the next one at most twice the last and sized to
// what the client spent at this instance over the last LEASE_SPAN_MS, and
// Redis never leases more than 1/LEASE_SHARE of what the window has left.

/** A lease is sized to last about this long at the rate the client spent its last one at this instance. */
export const LEASE_SPAN_MS = 250;
/** A lease takes at most 1/LEASE_SHARE of what the window has left (the Redis script applies it). */
export const LEASE_SHARE = 8;

export interface Lease {
  /** When the window ends by this instance's clock, Infinity until Redis has said. */
  endsAt: number;
  /** Units leased and not spent yet. */
  left: number;
  /**
   * What the window had left for every instance at the last answer, Infinity
   * until Redis has said. Only leases take from a window, so it never grows
   * back before the window ends: a take beyond `left + sharedLeft` is refused
   * here.
   */
  sharedLeft: number;
  /** Units of the last lease of this window (0: none yet), and when it was asked for. */
  size: number;
  askedAt: number;
  /** The lease being asked for: the key's other takes wait for it, so that this instance asks once at a time per key. */
  asking?: Promise<void>;
}

/** Units a take of `units` needs beyond what `lease` holds, and the units to ask for. */
export function leaseWanted(lease: Lease, units: number, now: number): { need: number; want: number } {
  const need = units - lease.left;
  if (lease.size === 0) return { need, want: need };
  const atRate = Math.floor((lease.size * LEASE_SPAN_MS) / Math.max(1, now - lease.askedAt));
  return { need, want: Math.max(need, Math.min(2 * lease.size, atRate)) };
}

/**
 * The leases of one budget, by key, bounded in entries. A lease dropped
 * before its window ends (the table full, Redis failing) loses its unspent
 * units: the client may be refused that much early, never let through more.
 */
export class LeaseTable {
  /** Oldest first (Map keeps insertion order; a lease is inserted when its window starts here). */
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly maxKeys: number) {}

  /** `key`'s lease in its live window, a new empty one when there is none. */
  of(key: string, now: number): Lease {
    const held = this.leases.get(key);
    if (held && now < held.endsAt) return held;
    if (held) this.leases.delete(key);
    this.makeRoom(now);
    const lease: Lease = { endsAt: Infinity, left: 0, sharedLeft: Infinity, size: 0, askedAt: now };
    this.leases.set(key, lease);
    return lease;
  }

  /** Forgets `lease` if it is still `key`'s. */
  forget(key: string, lease: Lease): void {
    if (this.leases.get(key) === lease) this.leases.delete(key);
  }

  get size(): number {
    return this.leases.size;
  }

  /** Drops ended leases from the front, then the oldest while the table is full. */
  private makeRoom(now: number): void {
    for (const [key, lease] of this.leases) {
      if (now < lease.endsAt && this.leases.size < this.maxKeys) return;
      this.leases.delete(key);
    }
  }
}
