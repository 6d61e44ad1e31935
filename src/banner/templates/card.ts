// card: a modern card. The icon, the name followed by a status pill and a
// version pill, the MOTD, and a large player count.

import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import type { ServerBannerData } from "../model.ts";
import { motdLineRuns } from "../../minecraft/motd.ts";
import { STATUS_WORD, drawDivider, drawPanel, drawPill, drawServerIcon, fitPill, type Pill, type PillStyle } from "../parts.ts";
import { drawSlot, fitSlot, formattedBlock, textInSlot, type TextSlot } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { backdrops, type Palette } from "../theme.ts";
import { fitPlayers } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

export interface CardLayout {
  radius: number;
  icon: Box;
  iconRadius: number;
  /** The name's row; the pills follow the name on it and share its width. */
  name: TextSlot;
  pills: { centerY: number; gap: number; height: number; size: number; padding: number; inline: boolean; x: number };
  motd: TextBlock;
  players: TextSlot;
  playersLabel: TextSlot;
  /** A hairline between the header and the count (the box only). */
  divider: { x: number; y: number; width: number } | null;
}

const layouts: Record<LayoutKey, CardLayout> = {
  "468x60": {
    radius: 6,
    icon: { x: 10, y: 10, width: 40, height: 40 },
    iconRadius: 8,
    name: { x: 60, width: 262, baseline: 27, size: { max: 15, min: 12 } },
    pills: { centerY: 22, gap: 6, height: 15, size: 9, padding: 6, inline: true, x: 0 },
    motd: { x: 60, width: 262, baseline: 45, lineHeight: 1.3, size: { max: 12, min: 10 }, wrap: 1 },
    players: { x: 330, width: 126, baseline: 33, size: { max: 26, min: 14 }, align: "right" },
    playersLabel: { x: 330, width: 126, baseline: 48, size: { max: 10, min: 10 }, align: "right" },
    divider: null,
  },
  "728x90": {
    radius: 8,
    icon: { x: 13, y: 13, width: 64, height: 64 },
    iconRadius: 13,
    name: { x: 91, width: 420, baseline: 39, size: { max: 22, min: 15 } },
    pills: { centerY: 32, gap: 8, height: 20, size: 11, padding: 8, inline: true, x: 0 },
    motd: { x: 91, width: 420, baseline: 65, lineHeight: 1.3, size: { max: 15, min: 11 }, wrap: 1 },
    players: { x: 520, width: 186, baseline: 50, size: { max: 38, min: 20 }, align: "right" },
    playersLabel: { x: 520, width: 186, baseline: 70, size: { max: 13, min: 13 }, align: "right" },
    divider: null,
  },
  "300x250": {
    radius: 10,
    icon: { x: 20, y: 20, width: 48, height: 48 },
    iconRadius: 10,
    name: { x: 80, width: 200, baseline: 39, size: { max: 18, min: 12 } },
    pills: { centerY: 57, gap: 6, height: 18, size: 10, padding: 7, inline: false, x: 80 },
    motd: { x: 20, width: 260, baseline: 198, lineHeight: 1.35, size: { max: 13, min: 11 }, wrap: 1 },
    players: { x: 20, width: 260, baseline: 146, size: { max: 46, min: 22 } },
    playersLabel: { x: 20, width: 260, baseline: 168, size: { max: 13, min: 13 } },
    divider: { x: 20, y: 88, width: 260 },
  },
  "600x150": {
    radius: 12,
    icon: { x: 30, y: 43, width: 64, height: 64 },
    iconRadius: 14,
    name: { x: 114, width: 296, baseline: 57, size: { max: 26, min: 16 } },
    pills: { centerY: 82, gap: 8, height: 22, size: 12, padding: 9, inline: false, x: 114 },
    motd: { x: 114, width: 296, baseline: 116, lineHeight: 1.4, size: { max: 15, min: 12 }, wrap: 1 },
    players: { x: 420, width: 152, baseline: 84, size: { max: 46, min: 24 }, align: "right" },
    playersLabel: { x: 420, width: 152, baseline: 108, size: { max: 14, min: 14 }, align: "right" },
    divider: null,
  },
};

function pillsOf(surface: Surface, layout: CardLayout, data: ServerBannerData, palette: Palette): Pill[] {
  const base = { height: layout.pills.height, size: layout.pills.size, padding: layout.pills.padding };
  const room = layout.name.width;
  const status: PillStyle = {
    ...base, dot: palette.status[data.status], fill: { ...palette.status[data.status], a: 40 }, text: palette.statusText[data.status],
  };
  const pills = [fitPill(surface, STATUS_WORD[data.status], status, room)];
  if (data.version) {
    const version: PillStyle = { ...base, dot: null, fill: palette.well, text: palette.muted };
    pills.push(fitPill(surface, data.version, version, Math.min(room * 0.6, room - pills[0]!.width - layout.pills.gap)));
  }
  return pills.filter((pill) => pill.width > 0);
}

const rowWidth = (pills: readonly Pill[], gap: number) => pills.reduce((sum, pill) => sum + pill.width + gap, 0);

export const card: ServerTemplate<CardLayout> = {
  key: "card",
  title: "Card",
  description: "A modern card: large player count, status pill, version and MOTD.",
  kind: "server",
  defaultTheme: "dark",
  uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "version", "favicon"],
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    drawServerIcon(surface, data.favicon, layout.icon, layout.iconRadius, palette.well);
    const { pills: row } = layout;
    const bold = { face: "sans", bold: true } as const;
    let pills = pillsOf(surface, layout, data, palette);
    let name = fitSlot(surface, layout.name, stripFormatting(data.name), bold);
    if (row.inline) {
      // Pills follow the name on its row: the version pill gives way first, then the name shrinks.
      const nameFor = (shown: readonly Pill[]) => fitSlot(surface, { ...layout.name, width: layout.name.width - rowWidth(shown, row.gap) - row.gap }, stripFormatting(data.name), bold);
      name = nameFor(pills);
      if (name.truncated && pills.length > 1) {
        pills = pills.slice(0, 1);
        name = nameFor(pills);
      }
    }
    drawSlot(surface, layout.name, name, palette.text);
    let x = row.inline ? layout.name.x + name.width + row.gap * 1.5 : row.x;
    for (const pill of pills) {
      drawPill(surface, pill, x, row.centerY);
      x += pill.width + row.gap;
    }

    if (layout.divider) drawDivider(surface, layout.divider, palette);
    const players = fitPlayers(surface, layout.players, data.players, { face: "sans", bold: true });
    drawSlot(surface, layout.players, players, palette.text);
    textInSlot(surface, layout.playersLabel, layout.divider ? "players online" : "players", { face: "sans" }, palette.muted);
    const lines = layout.motd.wrap > 1 || layout.divider ? data.motd.map(motdLineRuns) : [motdLineRuns(data.motd[0])];
    formattedBlock(surface, layout.motd, lines, "sans", { defaultColor: palette.motd, backdrops: backdrops(palette) });
  },
};
