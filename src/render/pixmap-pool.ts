// Spare pixmaps for drawings that come and go: a banner's pixmap (112 KB at
// 468x60, 1.4 MB at 1200x300) lives only until it is encoded. A new buffer
// for each one is cheap to allocate but not to collect: every large buffer
// counts toward the collector's next cycle, and on a server whose heap holds
// tens of MiB of cached images that cycle costs more than the drawing
// (docs/performance-notes.md). Pixmaps given back are handed out again,
// cleared, to the next drawing of the same size. A pool of its own shape
// (a list searched by size), bounded by its share of the application's cache
// budget (context.ts) and reported with the caches.

import { Pixmap } from "./pixmap.ts";
import { freeNow } from "./free-now.ts";

/** What the pool holds and how it served: as the application's caches report it. */
export interface PoolUsage {
  entries: number;
  bytes: number;
  /** Pixmaps handed out again. */
  hits: number;
  /** Pixmaps made new: none of their size was spare. */
  misses: number;
  /** Spares dropped to make room for others. */
  evictions: number;
}

/** Frees a pixmap's pixel memory at once (free-now.ts); the pixmap is empty afterwards. */
function release(pixmap: Pixmap): void {
  freeNow(pixmap.data);
}

export class PixmapPool {
  private readonly spare: Pixmap[] = [];
  private spareBytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /** Keeps at most `maxBytes` of pixel data in spare pixmaps. */
  constructor(readonly maxBytes: number) {}

  /** A transparent pixmap: a spare one of this size, else a new one. */
  take(width: number, height: number): Pixmap {
    for (let i = this.spare.length - 1; i >= 0; i--) {
      const pixmap = this.spare[i]!;
      if (pixmap.width !== width || pixmap.height !== height) continue;
      this.spare.splice(i, 1);
      this.spareBytes -= pixmap.data.length;
      this.hits++;
      pixmap.pixels.fill(0);
      return pixmap;
    }
    this.misses++;
    return new Pixmap(width, height);
  }

  /**
   * Gives back a pixmap nothing refers to any more. Past the bound the oldest
   * spares make room, so the sizes drawn lately are the ones kept. A pixmap
   * the pool does not keep has its memory freed now (release()), not at the
   * thread's next collection: a 1200x300 at scale 2 (5.8 MB) is larger than
   * a render thread's share of the pool.
   */
  give(pixmap: Pixmap): void {
    const bytes = pixmap.data.length;
    if (this.spare.includes(pixmap)) return;
    if (bytes > this.maxBytes) return release(pixmap);
    while (this.spareBytes + bytes > this.maxBytes) {
      const evicted = this.spare.shift()!;
      this.spareBytes -= evicted.data.length;
      release(evicted);
      this.evictions++;
    }
    this.spare.push(pixmap);
    this.spareBytes += bytes;
  }

  /** Bytes held in spare pixmaps (for tests). */
  get bytes(): number {
    return this.spareBytes;
  }

  get usage(): PoolUsage {
    return { entries: this.spare.length, bytes: this.spareBytes, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }
}
