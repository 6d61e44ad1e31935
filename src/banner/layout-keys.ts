// Layout keys: templates describe one layout per key, in CSS pixels. The
// 1200x300 banner is shown at half size or less (GitHub READMEs, Discord),
// so it is designed as a 600x150 layout drawn at 2x, not a stretched strip.

import type { BannerSize } from "./model.ts";

export type LayoutKey = "468x60" | "728x90" | "300x250" | "600x150";

export interface LayoutChoice {
  key: LayoutKey;
  /** Layout pixels per banner pixel (before the Hi-DPI scale). */
  factor: number;
  width: number;
  height: number;
}

/** The layout that draws `size`, or null for a size no template supports. */
export function layoutFor(size: BannerSize): LayoutChoice | null {
  const key = `${size.width}x${size.height}`;
  if (key === "1200x300") return { key: "600x150", factor: 2, width: 600, height: 150 };
  if (key === "468x60" || key === "728x90" || key === "300x250") return { key, factor: 1, width: size.width, height: size.height };
  return null;
}
