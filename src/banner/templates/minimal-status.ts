// minimal-status (the default): the server's name, a status dot and word,
// the player count and the first MOTD line. Strips read as two rows (name
// and count, then status and MOTD); the box stacks them.

import { motdLineRuns } from "../../minecraft/motd.ts";
import { drawDivider, drawStatusHeader } from "../parts.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { drawSlot, formattedInSlot, textInSlot, type TextSlot } from "../slots.ts";
import { backdrops } from "../theme.ts";
import { fitPlayers } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

export interface MinimalStatusLayout {
  radius: number;
  name: TextSlot;
  /** The status dot and word; its slot starts at the dot's ring. */
  status: TextSlot;
  dot: number;
  /** The MOTD's box; on strips it starts after the status word (plus `gap`) and keeps its right edge. */
  motd: TextSlot;
  gap: number;
  players: TextSlot;
  playersLabel: TextSlot;
  /** A hairline between the name block and the count (the box only). */
  divider: { x: number; y: number; width: number } | null;
}

const layouts: Record<LayoutKey, MinimalStatusLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 306, baseline: 26, size: { max: 17, min: 12 } },
    status: { x: 14, width: 80, baseline: 46, size: { max: 11, min: 10 } },
    dot: 3.5,
    motd: { x: 14, width: 306, baseline: 46, size: { max: 12, min: 10 } },
    gap: 12,
    players: { x: 330, width: 124, baseline: 28, size: { max: 20, min: 13 }, align: "right" },
    playersLabel: { x: 330, width: 124, baseline: 46, size: { max: 10, min: 10 }, align: "right" },
    divider: null,
  },
  "728x90": {
    radius: 8,
    name: { x: 22, width: 478, baseline: 40, size: { max: 26, min: 16 } },
    status: { x: 22, width: 100, baseline: 68, size: { max: 15, min: 12 } },
    dot: 4.5,
    motd: { x: 22, width: 478, baseline: 68, size: { max: 15, min: 11 } },
    gap: 16,
    players: { x: 516, width: 190, baseline: 43, size: { max: 30, min: 18 }, align: "right" },
    playersLabel: { x: 516, width: 190, baseline: 68, size: { max: 13, min: 13 }, align: "right" },
    divider: null,
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 82, size: { max: 24, min: 14 } },
    status: { x: 22, width: 140, baseline: 46, size: { max: 14, min: 12 } },
    dot: 4.5,
    motd: { x: 22, width: 256, baseline: 108, size: { max: 14, min: 11 } },
    gap: 0,
    players: { x: 22, width: 256, baseline: 194, size: { max: 44, min: 22 } },
    playersLabel: { x: 22, width: 256, baseline: 220, size: { max: 14, min: 14 } },
    divider: { x: 22, y: 134, width: 256 },
  },
  "600x150": {
    radius: 12,
    name: { x: 30, width: 380, baseline: 86, size: { max: 32, min: 18 } },
    status: { x: 30, width: 150, baseline: 48, size: { max: 15, min: 13 } },
    dot: 5,
    motd: { x: 30, width: 380, baseline: 118, size: { max: 17, min: 13 } },
    gap: 0,
    players: { x: 420, width: 150, baseline: 92, size: { max: 44, min: 24 }, align: "right" },
    playersLabel: { x: 420, width: 150, baseline: 118, size: { max: 15, min: 15 }, align: "right" },
    divider: null,
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
    const status = drawStatusHeader(surface, layout, data, palette);
    const bold = { face: "sans", bold: true } as const;
    drawSlot(surface, layout.players, fitPlayers(surface, layout.players, data.players, bold), palette.text);
    textInSlot(surface, layout.playersLabel, layout.divider ? "players online" : "players", { face: "sans" }, palette.muted);
    if (layout.divider) drawDivider(surface, layout.divider, palette);
    // On strips the MOTD follows the status word on its row, keeping its box's right edge.
    const start = layout.gap > 0 ? layout.status.x + status + layout.gap : layout.motd.x;
    const motd = { ...layout.motd, x: start, width: layout.motd.x + layout.motd.width - start };
    formattedInSlot(surface, motd, motdLineRuns(data.motd[0]), "sans", {
      defaultColor: palette.motd, backdrops: backdrops(palette),
    });
  },
};
