// players-bar: the player count as a filling bar, with the numbers. The
// fill's length is online/max of the bar (clamped; empty when max is 0 or
// the count is unknown).

import { Path, linearGradient, solid } from "../../render/index.ts";
import type { LayoutKey } from "../layout-keys.ts";
import type { PlayerCount } from "../model.ts";
import { drawStatusHeader } from "../parts.ts";
import { drawSlot, textInSlot, type TextSlot } from "../slots.ts";
import type { Box } from "../surface.ts";
import { shade } from "../theme.ts";
import { fitPlayers } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

export interface PlayersBarLayout {
  radius: number;
  name: TextSlot;
  status: TextSlot;
  dot: number;
  bar: Box;
  count: TextSlot;
  /** "players online" and the fill as a percentage, where there is room. */
  label: TextSlot | null;
  percent: TextSlot | null;
}

const layouts: Record<LayoutKey, PlayersBarLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 316, baseline: 25, size: { max: 15, min: 12 } },
    status: { x: 340, width: 114, baseline: 25, size: { max: 11, min: 10 }, align: "right" },
    dot: 3.5,
    bar: { x: 14, y: 35, width: 346, height: 12 },
    count: { x: 368, width: 86, baseline: 46, size: { max: 14, min: 10 }, align: "right" },
    label: null,
    percent: null,
  },
  "728x90": {
    radius: 8,
    name: { x: 22, width: 490, baseline: 37, size: { max: 22, min: 15 } },
    status: { x: 520, width: 186, baseline: 37, size: { max: 14, min: 12 }, align: "right" },
    dot: 4.5,
    bar: { x: 22, y: 52, width: 530, height: 20 },
    count: { x: 562, width: 144, baseline: 69, size: { max: 22, min: 13 }, align: "right" },
    label: null,
    percent: null,
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 76, size: { max: 22, min: 14 } },
    status: { x: 22, width: 160, baseline: 44, size: { max: 14, min: 12 } },
    dot: 4.5,
    bar: { x: 22, y: 180, width: 256, height: 22 },
    count: { x: 22, width: 256, baseline: 152, size: { max: 44, min: 22 } },
    label: { x: 22, width: 180, baseline: 226, size: { max: 14, min: 12 } },
    percent: { x: 202, width: 76, baseline: 226, size: { max: 14, min: 12 }, align: "right" },
  },
  "600x150": {
    radius: 12,
    name: { x: 30, width: 400, baseline: 54, size: { max: 28, min: 18 } },
    status: { x: 430, width: 140, baseline: 54, size: { max: 16, min: 13 }, align: "right" },
    dot: 5,
    bar: { x: 30, y: 74, width: 540, height: 22 },
    count: { x: 330, width: 240, baseline: 126, size: { max: 24, min: 16 }, align: "right" },
    label: { x: 30, width: 290, baseline: 126, size: { max: 16, min: 13 } },
    percent: null,
  },
};

/** How much of the bar is filled: online/max within 0..1; 0 when unknown or max is 0. */
function fillRatio(players: PlayerCount | null): number {
  if (!players || !(players.max > 0) || !(players.online > 0)) return 0;
  return Math.min(1, players.online / players.max);
}

export const playersBar: ServerTemplate<PlayersBarLayout> = {
  key: "players-bar",
  title: "Players bar",
  description: "The player count as a filling bar, with the numbers.",
  kind: "server",
  defaultTheme: "dark",
  uses: ["server_name", "server_status", "online_players", "max_players", "accent"],
  layouts,
  draw(surface, layout, data, palette) {
    drawStatusHeader(surface, layout, data, palette);
    const bold = { face: "sans", bold: true } as const;

    const { bar } = layout;
    const track = new Path().roundRect(bar.x, bar.y, bar.width, bar.height, bar.height / 2);
    surface.fill(track, solid(palette.well));
    const ratio = fillRatio(data.players);
    if (ratio > 0) {
      const color = data.status === "online" ? palette.accent : palette.muted;
      // The fill is a plain rectangle clipped to the track: its length stays exactly proportional, rounded ends included.
      surface.fill(new Path().rect(bar.x, bar.y, bar.width * ratio, bar.height), linearGradient(bar.x, 0, bar.x + bar.width, 0, [
        { offset: 0, color }, { offset: 1, color: shade(color, 0.2) },
      ]), { clip: surface.mask(track) });
    }
    drawSlot(surface, layout.count, fitPlayers(surface, layout.count, data.players, bold), palette.text);
    if (layout.label) textInSlot(surface, layout.label, "players online", { face: "sans" }, palette.muted);
    if (layout.percent && data.players) textInSlot(surface, layout.percent, `${Math.round(ratio * 100)}%`, { face: "sans" }, palette.muted);
  },
};
