// The finished pixels of badge label segments, kept to be copied into the
// next badge with the same label: on a running server a handful of labels
// ("downloads", "version", ...) go with many messages, and the label's fill,
// text and shadow are about a third of a badge's drawing. Bounded in bytes and
// entries, least recently used dropped first (as the glyph caches are).

/** Bytes of label pixels kept: ~200 flat labels of ~60 px at 1x (a 1x flat label is 20 rows x 4 bytes a column). */
export const LABEL_PIXELS_BYTES = 1024 * 1024;
/** Labels kept at most, whatever their size. */
export const MAX_LABEL_PIXELS = 512;
/** Bookkeeping bytes counted per entry on top of its pixels (Map slot, key, array header). */
const ENTRY_OVERHEAD = 160;

/**
 * A label's columns, every row of the badge, row after row: `columns` pixels
 * per row. SPILLS instead: the label's ink reaches past its segment, so it is
 * drawn in full every time (draw.ts).
 */
export interface LabelColumns {
  columns: number;
  pixels: Int32Array;
}
export const SPILLS = "spills";
export type LabelEntry = LabelColumns | typeof SPILLS;

export interface LabelPixelsStats {
  entries: number;
  /** Entries that are SPILLS. */
  spilling: number;
  bytes: number;
  hits: number;
  misses: number;
}

const bytesOf = (key: string, entry: LabelEntry) => ENTRY_OVERHEAD + 2 * key.length + (entry === SPILLS ? 0 : entry.pixels.byteLength);

export class LabelPixels {
  private readonly entries = new Map<string, LabelEntry>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly maxBytes = LABEL_PIXELS_BYTES,
    readonly maxEntries = MAX_LABEL_PIXELS,
  ) {}

  get(key: string): LabelEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-inserting moves the entry to the young end of the map's order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps `entry` unless it alone would take more than an eighth of the bound (a rare long label must not flush the common ones). */
  set(key: string, entry: LabelEntry): void {
    const bytes = bytesOf(key, entry);
    if (bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= bytesOf(key, old);
    }
    this.entries.set(key, entry);
    this.bytes += bytes;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      this.bytes -= bytesOf(oldest, kept);
    }
  }

  /** Drops every entry (the bench measures badges with nothing kept). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  stats(): LabelPixelsStats {
    let spilling = 0;
    for (const entry of this.entries.values()) if (entry === SPILLS) spilling++;
    return { entries: this.entries.size, spilling, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }
}

/** The process-wide label pixels every badge draw uses unless given its own. */
export const sharedLabelPixels = new LabelPixels();
