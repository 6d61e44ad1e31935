// minimal-status (the default): the server's name, a status dot and word,
// the player count and the first MOTD line. Strips read as two rows (name
// and count, then status and MOTD); the box stacks them.

import { motdLineRuns } from "../motd.ts";
import { STATUS_WORD, drawPanel, drawStatusDot } from "../parts.ts";
import type { LayoutKey } from "../layout.ts";
import { drawSlot, formattedInSlot, textInSlot, type TextSlot } from "../slots.ts";
import { stripFormatting } from "../text.ts";
import { backdrop } from "../theme.ts";
import { fitPlayers } from "../values.ts";
import type { ServerTemplate } from "./template.ts";

export interface MinimalStatusLayout {
  radius: number;
  name: TextSlot;
  dot: { cx: number; cy: number; r: number };
  status: TextSlot;
  /** The MOTD's box; on strips it starts after the status word (plus `gap`) and keeps its right edge. */
  motd: TextSlot;
  gap: number;
  players: TextSlot;
  playersLabel: TextSlot;
}

const layouts: Record<LayoutKey, MinimalStatusLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 306, baseline: 26, size: { max: 17, min: 12 } },
    dot: { cx: 18, cy: 41.5, r: 3.5 },
    status: { x: 27, width: 60, baseline: 46, size: { max: 11, min: 10 } },
    motd: { x: 27, width: 293, baseline: 46, size: { max: 12, min: 10 } },
    gap: 10,
    players: { x: 330, width: 124, baseline: 28, size: { max: 20, min: 13 }, align: "right" },
    playersLabel: { x: 330, width: 124, baseline: 46, size: { max: 10, min: 10 }, align: "right" },
  },
  "728x90": {
    radius: 8,
    name: { x: 22, width: 478, baseline: 39, size: { max: 26, min: 16 } },
    dot: { cx: 27, cy: 61.5, r: 4.5 },
    status: { x: 38, width: 80, baseline: 67, size: { max: 15, min: 12 } },
    motd: { x: 38, width: 462, baseline: 67, size: { max: 15, min: 11 } },
    gap: 14,
    players: { x: 516, width: 190, baseline: 42, size: { max: 30, min: 18 }, align: "right" },
    playersLabel: { x: 516, width: 190, baseline: 67, size: { max: 13, min: 13 }, align: "right" },
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 84, size: { max: 24, min: 14 } },
    dot: { cx: 27, cy: 40, r: 4.5 },
    status: { x: 39, width: 120, baseline: 45, size: { max: 14, min: 12 } },
    motd: { x: 22, width: 256, baseline: 110, size: { max: 14, min: 11 } },
    gap: 0,
    players: { x: 22, width: 256, baseline: 192, size: { max: 44, min: 22 } },
    playersLabel: { x: 22, width: 256, baseline: 218, size: { max: 14, min: 14 } },
  },
  "600x150": {
    radius: 12,
    name: { x: 30, width: 380, baseline: 84, size: { max: 32, min: 18 } },
    dot: { cx: 35, cy: 41, r: 5 },
    status: { x: 48, width: 120, baseline: 46, size: { max: 15, min: 13 } },
    motd: { x: 30, width: 380, baseline: 116, size: { max: 17, min: 13 } },
    gap: 0,
    players: { x: 420, width: 150, baseline: 90, size: { max: 44, min: 24 }, align: "right" },
    playersLabel: { x: 420, width: 150, baseline: 116, size: { max: 15, min: 15 }, align: "right" },
  },
};

export const minimalStatus: ServerTemplate<MinimalStatusLayout> = {
  key: "minimal-status",
  title: "Minimal status",
  description: "Name, status, players and the first MOTD line.",
  kind: "server",
  defaultTheme: "dark",
  uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1"],
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    const bold = { face: "sans", bold: true } as const;
    textInSlot(surface, layout.name, stripFormatting(data.name), bold, palette.text);
    drawStatusDot(surface, layout.dot.cx, layout.dot.cy, layout.dot.r, palette.status[data.status]);
    const status = textInSlot(surface, layout.status, STATUS_WORD[data.status], bold, palette.statusText[data.status]);
    const players = fitPlayers(surface, layout.players, data.players, bold);
    drawSlot(surface, layout.players, players, palette.text);
    textInSlot(surface, layout.playersLabel, "players", { face: "sans" }, palette.muted);
    // On strips the MOTD follows the status word on its row.
    const motdSlot = layout.gap > 0
      ? { ...layout.motd, x: layout.status.x + status.width + layout.gap, width: layout.motd.x + layout.motd.width - (layout.status.x + status.width + layout.gap) }
      : layout.motd;
    formattedInSlot(surface, motdSlot, motdLineRuns(data.motd[0]), "sans", {
      defaultColor: palette.motd, backdrop: backdrop(palette), halo: palette.halo,
    });
  },
};
