// The player count with its label ("3/50" over "players online", or
// "3/50 players" on one baseline where a strip has no second row to spare).

import { playersUnknown, type ServerBannerData } from "./model.ts";
import { fitPlayers, PLAYERS_UNKNOWN } from "./fitted-counts.ts";
import { drawSlot, fitSlot, textInSlot, type TextSlot, SANS_BOLD } from "./slots.ts";
import type { Surface } from "./surface.ts";
import type { Palette } from "./theme.ts";

export interface CountLayout {
  count: TextSlot;
  label: TextSlot;
  /** The label follows the count on the count's baseline, both at the slot's right edge. */
  inline: boolean;
}

/**
 * Draws the count in bold and its label muted. An inline label keeps its
 * size and the count takes the rest; where even the compact count would be
 * cut, the count takes the whole slot and the label is left out. Players
 * unknown are said in words, muted, at the label's size on the count's row.
 */
export function drawPlayerCount(surface: Surface, layout: CountLayout, data: Pick<ServerBannerData, "players" | "status">, label: string, palette: Palette): void {
  const { players } = data;
  if (playersUnknown(data)) {
    textInSlot(surface, { ...layout.count, size: layout.label.size }, PLAYERS_UNKNOWN, { face: "sans" }, palette.muted);
    return;
  }
  const labelFit = fitSlot(surface, layout.label, label, { face: "sans" });
  if (!layout.inline) {
    drawSlot(surface, layout.count, fitPlayers(surface, layout.count, players, SANS_BOLD), palette.text);
    drawSlot(surface, layout.label, labelFit, palette.muted);
    return;
  }
  const count = { ...layout.count, width: layout.count.width - labelFit.width - layout.label.size.max * 0.4 };
  const beside = fitPlayers(surface, count, players, SANS_BOLD);
  if (beside.truncated) {
    drawSlot(surface, layout.count, fitPlayers(surface, layout.count, players, SANS_BOLD), palette.text);
    return;
  }
  drawSlot(surface, count, beside, palette.text);
  drawSlot(surface, layout.label, labelFit, palette.muted);
}
