// The one cache type of Pennant: bounded in bytes and in entries, entries
// with an optional time to live, one computation in flight per key, and
// counts of hits, misses and evictions for /metrics. Entries not read lately
// go first: a second chance (an entry read since it was last passed over
// moves to the back once, a close approximation of least recently used that
// keeps a read to a map lookup and a flag, without writes). Expired entries
// are swept on write. Every instance is made by CacheBudget (budget.ts) from
// its share of the memory section of the configuration.

/** Heap cost of one cache entry beyond its key and value: the Map slot and the entry record. */
export const CACHE_ENTRY_OVERHEAD = 96;
/** JS heap layout, rounded up: headers of strings, objects and arrays, one pointer per slot. */
const HEAP = { string: 24, object: 48, array: 32, typedArray: 96, slot: 8 };
const SWEEP_EVERY_MS = 60_000;

/**
 * An estimate, on the high side, of the heap a JSON-like value holds: strings
 * at 2 bytes a character (engines keep non-Latin-1 text as UTF-16), every
 * object, array and slot, and the bytes of typed arrays.
 */
export function estimateBytes(value: unknown): number {
  if (typeof value === "string") return HEAP.string + 2 * value.length;
  if (ArrayBuffer.isView(value)) return HEAP.typedArray + value.byteLength;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + HEAP.slot + estimateBytes(item), HEAP.array);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).reduce((sum, [key, item]) => sum + HEAP.slot + 2 * key.length + estimateBytes(item), HEAP.object);
  }
  return 0; // numbers, booleans and null live in their slot
}

/** What a cache's owner says about its entries; the bound in bytes comes from the budget. */
export interface CacheRules<V> {
  /** Bytes a value holds (the key and CACHE_ENTRY_OVERHEAD are added). */
  sizeOf(value: V): number;
  /** Entries held at most, whatever their bytes. */
  maxEntries?: number;
  /** The most of the byte bound one entry may take and still be kept (default 1): a rare large one must not flush the common ones. */
  maxEntryShare?: number;
  /** The clock entries expire by (Date.now by default; only read for entries given a time to live). */
  now?: () => number;
  /** A write scans the whole cache for expired entries at most this often. */
  sweepEveryMs?: number;
}

export interface BoundedCacheOptions<V> extends CacheRules<V> {
  /** The bytes the entries may hold together, keys and overhead included. */
  maxBytes: number;
}

export interface CacheStats {
  entries: number;
  /** Estimated bytes held now (never above maxBytes). */
  bytes: number;
  maxBytes: number;
  /** Reads that found an entry, or a computation of it in flight. */
  hits: number;
  misses: number;
  /** Entries dropped to make room for others. */
  evictions: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  /** Infinity for an entry without a time to live. */
  expiresAt: number;
  /** Read since it was inserted or last given its second chance. */
  read: boolean;
}

export class BoundedCache<V, K extends string | number = string> {
  readonly maxBytes: number;
  private readonly maxEntries: number;
  private readonly maxEntryBytes: number;
  private readonly sizeOf: (value: V) => number;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private readonly entries = new Map<K, Entry<V>>();
  /** Computations running, by key (getOrComputeAsync); made on first use. */
  private running: Map<K, Promise<V>> | undefined;
  private held = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  /** Set by the first entry with a time to live: until then a write reads no clock and sweeps nothing. */
  private expiring = false;
  private nextSweepAt = 0;

  constructor(options: BoundedCacheOptions<V>) {
    this.maxBytes = options.maxBytes;
    this.maxEntries = options.maxEntries ?? Infinity;
    this.maxEntryBytes = options.maxBytes * (options.maxEntryShare ?? 1);
    this.sizeOf = options.sizeOf;
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = options.sweepEveryMs ?? SWEEP_EVERY_MS;
  }

  get(key: K): V | undefined {
    const value = this.peek(key);
    if (value === undefined) this.misses++;
    return value;
  }

  /**
   * The value under `key` when held (a hit), else undefined without counting a
   * miss: for a caller that asks getOrComputeAsync next, which counts it, so one
   * request is one hit or one miss.
   */
  peek(key: K): V | undefined {
    const entry = this.live(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    this.hits++;
    return entry.value;
  }

  /**
   * Whether `key` still holds `value` (not expired, replaced or pushed out;
   * undefined: still holds nothing): a value taken before, checked before it
   * is used again. Neither a hit nor a miss; a held value counts as read, as
   * a hit would.
   */
  holds(key: K, value: V | undefined): boolean {
    const entry = this.live(key);
    if (entry?.value !== value) return false;
    if (entry) entry.read = true;
    return true;
  }

  /** Keeps `value` under `key` for `ttlMs` (default: until pushed out), unless it alone could never fit. */
  set(key: K, value: V, ttlMs = Infinity): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.remove(key, old);
    let expiresAt = Infinity;
    if (this.expiring || ttlMs !== Infinity) {
      const now = this.now();
      if (!this.expiring) {
        this.expiring = true;
        this.nextSweepAt = now + this.sweepEveryMs;
      } else if (now >= this.nextSweepAt) {
        this.sweep();
      }
      expiresAt = now + ttlMs;
    }
    this.keep(key, value, expiresAt);
  }

  /**
   * Puts `next` in place of `current` under `key`, until the same expiry: a
   * value completed after it was kept (a lookup's late Query answer). Nothing
   * changes when `key` no longer holds `current` (expired, pushed out or
   * replaced since).
   */
  replace(key: K, current: V, next: V): void {
    const entry = this.live(key);
    if (entry === undefined || entry.value !== current) return;
    this.remove(key, entry);
    this.keep(key, next, entry.expiresAt);
  }

  /** The value under `key`, computed by `compute` and kept when missing. */
  getOrCompute(key: K, compute: () => V, ttlMs?: number): V {
    let value = this.get(key);
    if (value === undefined) {
      value = compute();
      this.set(key, value, ttlMs);
    }
    return value;
  }

  /**
   * The value under `key`; when missing, computed once however many ask for
   * it meanwhile: requests for a key being computed wait for that computation
   * (and count as hits). `keepFor` says how long to keep a value (ms; null:
   * not kept, the next request computes again); by default until pushed out.
   * A computation that fails keeps nothing and fails every request waiting.
   */
  getOrComputeAsync(key: K, compute: () => V | Promise<V>, keepFor?: (value: V) => number | null): Promise<V> {
    const entry = this.live(key);
    if (entry !== undefined) {
      entry.read = true;
      this.hits++;
      return Promise.resolve(entry.value);
    }
    const running = (this.running ??= new Map());
    const waiting = running.get(key);
    if (waiting !== undefined) {
      this.hits++;
      return waiting;
    }
    this.misses++;
    const promise = (async () => {
      const value = await compute();
      const ttlMs = keepFor ? keepFor(value) : Infinity;
      if (ttlMs !== null) this.set(key, value, ttlMs);
      return value;
    })().finally(() => running.delete(key));
    running.set(key, promise);
    return promise;
  }

  /** Whether a computation of `key` is running now (getOrComputeAsync): a request for it would wait for that one. */
  computing(key: K): boolean {
    return this.running?.has(key) ?? false;
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) this.remove(key, entry);
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Drops every expired entry, read or not (an entry nobody asks for again would stay otherwise). */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key, entry);
    this.nextSweepAt = now + this.sweepEveryMs;
  }

  /** The values held, oldest first (for tests and reports; reading them counts as nothing). */
  values(): IterableIterator<V> {
    return Array.from(this.entries.values(), (entry) => entry.value).values();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held now (never above maxBytes). */
  get bytes(): number {
    return this.held;
  }

  get stats(): CacheStats {
    return { entries: this.entries.size, bytes: this.held, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }

  /** The entry under `key` unless it has expired (then it is dropped). */
  private live(key: K): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt !== Infinity && entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    return entry;
  }

  /**
   * Drops entries, oldest first, until one more of `bytes` fits; an entry
   * read since it was last passed over moves to the back instead, once.
   * Ends: a moved entry comes round again unread.
   */
  private makeRoom(bytes: number): void {
    for (const [key, entry] of this.entries) {
      if (this.held + bytes <= this.maxBytes && this.entries.size < this.maxEntries) return;
      if (entry.read) {
        entry.read = false;
        this.entries.delete(key);
        this.entries.set(key, entry);
      } else {
        this.remove(key, entry);
        this.evictions++;
      }
    }
  }

  /** Keeps `value` under `key` until `expiresAt`, unless it alone could never fit. */
  private keep(key: K, value: V, expiresAt: number): void {
    const bytes = CACHE_ENTRY_OVERHEAD + (typeof key === "string" ? 2 * key.length : 8) + this.sizeOf(value);
    if (bytes > this.maxEntryBytes) return;
    this.makeRoom(bytes);
    this.entries.set(key, { value, bytes, expiresAt, read: false });
    this.held += bytes;
  }

  private remove(key: K, entry: Entry<V>): void {
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}
