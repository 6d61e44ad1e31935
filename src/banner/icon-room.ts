// The room a hidden icon leaves (hide=icon): what stands right of it moves
// to the icon's left edge and keeps its right edge, so it gets the width.

import type { Box } from "./surface.ts";

/** `slot` as drawn: unchanged when the icon is shown or the slot is not right of it; else widened leftwards. */
export function besideIcon<T extends { x: number; width: number }>(slot: T, icon: Box | null, iconShown: boolean): T {
  if (!icon || iconShown || slot.x < icon.x + icon.width) return slot;
  const shift = slot.x - icon.x;
  return { ...slot, x: slot.x - shift, width: slot.width + shift };
}
