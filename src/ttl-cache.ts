// A TTL cache bounded in bytes: entries not read lately dropped first (a
// second chance: an entry read since it was last passed over moves to the
// back once, a close approximation of least recently used that leaves a read
// without writes), expired entries swept on write. Shared by the lookup service (results and
// favicons) and the image routes (encoded banners and badges), so that no
// cache an anonymous client can fill grows without bound.

/** Heap cost of one cache entry beyond its key and value: the Map slot and the entry record. */
export const CACHE_ENTRY_OVERHEAD = 96;
/** JS heap layout, rounded up: headers of strings, objects and arrays, one pointer per slot. */
const HEAP = { string: 24, object: 48, array: 32, typedArray: 96, slot: 8 };

/**
 * An estimate, on the high side, of the heap a JSON-like value holds: strings
 * at 2 bytes a character (engines keep non-Latin-1 text as UTF-16), every
 * object, array and slot, and the bytes of typed arrays.
 */
export function estimateBytes(value: unknown): number {
  if (typeof value === "string") return HEAP.string + 2 * value.length;
  if (value instanceof Uint8Array) return HEAP.typedArray + value.byteLength;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + HEAP.slot + estimateBytes(item), HEAP.array);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).reduce((sum, [key, item]) => sum + HEAP.slot + 2 * key.length + estimateBytes(item), HEAP.object);
  }
  return 0; // numbers, booleans and null live in their slot
}

export interface TtlCacheOptions<V> {
  /** The most the entries may hold together, keys included, as `sizeOf` estimates them. */
  maxBytes: number;
  sizeOf(value: V): number;
  /** A write scans the whole cache for expired entries at most this often. */
  sweepEveryMs: number;
  now(): number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
  bytes: number;
  /** Read since it was inserted or last given its second chance. */
  read: boolean;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private held = 0;
  private nextSweepAt: number;

  constructor(private readonly options: TtlCacheOptions<V>) {
    this.nextSweepAt = options.now() + options.sweepEveryMs;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.delete(key);
      return undefined;
    }
    entry.read = true;
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    const now = this.options.now();
    this.delete(key);
    if (now >= this.nextSweepAt) this.sweep();
    const bytes = CACHE_ENTRY_OVERHEAD + 2 * key.length + this.options.sizeOf(value);
    if (bytes > this.options.maxBytes) return; // could never fit
    this.makeRoom(bytes);
    this.insert(key, { value, expiresAt: now + ttlMs, bytes, read: false });
  }

  /**
   * Drops entries, oldest first, until `bytes` more fit; an entry read since
   * it was last passed over moves to the back instead, once. Ends: a moved
   * entry comes round again unread.
   */
  private makeRoom(bytes: number): void {
    for (const [oldest, entry] of this.entries) {
      if (this.held + bytes <= this.options.maxBytes) return;
      if (entry.read) {
        entry.read = false;
        this.entries.delete(oldest);
        this.entries.set(oldest, entry);
      } else {
        this.delete(oldest);
      }
    }
  }

  /** Drops every expired entry, read or not (an entry nobody asks for again would stay otherwise). */
  sweep(): void {
    const now = this.options.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.delete(key);
    this.nextSweepAt = now + this.options.sweepEveryMs;
  }

  private insert(key: string, entry: Entry<V>): void {
    this.entries.set(key, entry);
    this.held += entry.bytes;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held now (never above maxBytes). */
  get bytes(): number {
    return this.held;
  }
}

/** What a cache of drawn images reports as it works (the HTTP layer counts it in /metrics). */
export interface ImageCacheEvents {
  hit(): void;
  miss(): void;
  /** An image was drawn and encoded in `ms`. */
  drawn(ms: number): void;
}

export const IGNORED_EVENTS: ImageCacheEvents = { hit() {}, miss() {}, drawn() {} };
