// classic: the look of the game's multiplayer list. Icon at the left, the
// name and a two-line MOTD in the pixel face with the game's drop shadow,
// the player count and signal bars at the top right (a cross when offline).

import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { plainRun, stripFormatting } from "../../minecraft/format.ts";
import { motdLineRuns } from "../../minecraft/motd.ts";
import { STATUS_WORD, drawBlockTexture, drawPanel, drawServerIcon, drawSignalBars, signalBarCount } from "../parts.ts";
import { drawSlot, formattedBlock, textInSlot, type TextSlot } from "../slots.ts";
import type { Box } from "../surface.ts";
import { backdrops } from "../theme.ts";
import { fitPlayers } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

export interface ClassicLayout {
  radius: number;
  /** Side of the texture's squares. */
  block: number;
  icon: Box;
  /** The box wraps a long name onto a second row beside the icon. */
  name: TextBlock;
  /** Right-aligned against the signal bars. */
  players: TextSlot;
  bars: Box;
  /** Both MOTD lines share one size, as in the game; the box wraps each onto two rows. */
  motd: TextBlock;
  /** Version and latency under the MOTD, where the box has room. */
  footer: { version: TextSlot; latency: TextSlot } | null;
}

// Pixel sizes step by 8 device pixels (4 CSS pixels in the 2x layout) so the face stays sharp.
const PIXEL_16 = { max: 16, min: 16, step: 8 };
const PIXEL_16_TO_8 = { max: 16, min: 8, step: 8 };

const layouts: Record<LayoutKey, ClassicLayout> = {
  "468x60": {
    radius: 6,
    block: 6,
    icon: { x: 6, y: 6, width: 48, height: 48 },
    name: { x: 62, width: 290, baseline: 22, lineHeight: 1, size: PIXEL_16, wrap: 1 },
    players: { x: 356, width: 84, baseline: 22, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 445, y: 10, width: 15, height: 12 },
    motd: { x: 62, width: 398, baseline: 38, lineHeight: 1.375, size: { max: 8, min: 8, step: 8 }, wrap: 1 },
    footer: null,
  },
  "728x90": {
    radius: 8,
    block: 8,
    icon: { x: 13, y: 13, width: 64, height: 64 },
    name: { x: 89, width: 445, baseline: 31, lineHeight: 1, size: PIXEL_16, wrap: 1 },
    players: { x: 540, width: 146, baseline: 31, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 694, y: 17, width: 20, height: 14 },
    motd: { x: 89, width: 626, baseline: 53, lineHeight: 1.25, size: PIXEL_16_TO_8, wrap: 1 },
    footer: null,
  },
  "300x250": {
    radius: 10,
    block: 10,
    icon: { x: 20, y: 20, width: 64, height: 64 },
    name: { x: 94, width: 186, baseline: 36, lineHeight: 1.25, size: PIXEL_16_TO_8, wrap: 2 },
    players: { x: 96, width: 154, baseline: 80, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 256, y: 66, width: 24, height: 14 },
    motd: { x: 20, width: 260, baseline: 122, lineHeight: 1.25, size: PIXEL_16_TO_8, wrap: 2 },
    footer: {
      version: { x: 20, width: 160, baseline: 228, size: PIXEL_16_TO_8 },
      latency: { x: 180, width: 100, baseline: 228, size: PIXEL_16_TO_8, align: "right" },
    },
  },
  "600x150": {
    radius: 12,
    block: 6,
    icon: { x: 27, y: 27, width: 96, height: 96 },
    name: { x: 139, width: 290, baseline: 54, lineHeight: 1, size: { max: 24, min: 16, step: 4 }, wrap: 1 },
    players: { x: 434, width: 108, baseline: 54, size: { max: 16, min: 8, step: 4 }, align: "right" },
    bars: { x: 549, y: 36, width: 24, height: 18 },
    motd: { x: 139, width: 434, baseline: 88, lineHeight: 1.5, size: { max: 16, min: 8, step: 4 }, wrap: 1 },
    footer: null,
  },
};

/** What the game shows in place of the MOTD of a server it cannot reach. */
const UNREACHABLE = "§cCan't connect to server";

export const classic: ServerTemplate<ClassicLayout> = {
  key: "classic",
  title: "Classic",
  description: "The game's server list: icon, name, two-line MOTD, signal bars and players.",
  kind: "server",
  defaultTheme: "dark",
  uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "version", "favicon", "latency"],
  layouts,
  draw(surface, layout, data, palette) {
    const dark = palette.theme === "dark";
    drawPanel(surface, palette, layout.radius);
    drawBlockTexture(surface, layout.radius, layout.block, dark ? 0.05 : 0.035);
    drawServerIcon(surface, data.favicon, layout.icon, 0, palette.well);
    const offline = data.status === "offline";
    const pixel = { face: "pixel" } as const;

    const nameRuns = [plainRun(stripFormatting(data.name))];
    const style = { defaultColor: palette.motd, backdrops: backdrops(palette) };
    // The game's shadow reads as depth on dark panels and as smudge on light ones.
    formattedBlock(surface, layout.name, [nameRuns], "pixel", { ...style, defaultColor: palette.text, shadow: dark });
    drawSignalBars(surface, layout.bars, signalBarCount(data.latencyMs), offline, {
      lit: palette.status.online, unlit: palette.well, cross: palette.status.offline,
    });
    // The game shows no count for a server it cannot reach; the word says why.
    if (offline && !data.players) textInSlot(surface, layout.players, STATUS_WORD.offline, pixel, palette.statusText.offline);
    else drawSlot(surface, layout.players, fitPlayers(surface, layout.players, data.players, pixel), palette.muted);

    const empty = data.motd.every((line) => stripFormatting(line).trim() === "");
    const lines = offline && empty ? [motdLineRuns(UNREACHABLE)] : data.motd.map(motdLineRuns);
    formattedBlock(surface, layout.motd, lines, "pixel", { ...style, shadow: dark });

    if (layout.footer) {
      textInSlot(surface, layout.footer.version, data.version ?? "", pixel, palette.muted);
      const measured = !offline && signalBarCount(data.latencyMs) !== null;
      const latency = measured ? `${Math.round(data.latencyMs!)} ms` : "";
      textInSlot(surface, layout.footer.latency, latency, pixel, palette.muted);
    }
  },
};
