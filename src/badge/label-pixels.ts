// The finished pixels of badge label segments, kept to be copied into the
// next badge with the same label: on a running server a handful of labels
// ("downloads", "version", ...) go with many messages, and the label's fill,
// text and shadow are about a third of a badge's drawing. Kept in the
// label_pixels cache (badge-caches.ts), bounded in bytes by its share (1 MiB by
// default: ~200 flat labels of ~60 px at 1x, 20 rows x 4 bytes a column) and
// in entries.

import type { CacheRules } from "../cache/bounded-cache.ts";

/**
 * A label's columns, every row of the badge, row after row: `columns` pixels
 * per row. SPILLS instead: the label's ink reaches past its segment, so it is
 * drawn in full every time (draw-badge.ts).
 */
export interface LabelColumns {
  columns: number;
  pixels: Int32Array;
}
export const SPILLS = "spills";
export type LabelEntry = LabelColumns | typeof SPILLS;

/** Labels kept at most, whatever their size. */
export const MAX_LABEL_PIXELS = 512;

export const LABEL_PIXEL_RULES: CacheRules<LabelEntry> = {
  // The record and the pixels' array header, beyond the pixels.
  sizeOf: (entry) => 64 + (entry === SPILLS ? 0 : entry.pixels.byteLength),
  maxEntries: MAX_LABEL_PIXELS,
  // A rare long label must not flush the common ones.
  maxEntryShare: 1 / 8,
};
