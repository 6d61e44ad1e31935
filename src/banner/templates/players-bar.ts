// players-bar: the player count as a filling bar, with the numbers. The
// fill's length is online/max of the bar (clamped; empty when max is 0 or
// the count is unknown). Around it: the name and status, both MOTD lines
// from 728x90 up, the join address as a chip, and in the header the icon
// and version.

import { Path, linearGradient, solid } from "../../render/index.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { drawAddressChip, fitAddressChip, type AddressPlace } from "../address-chip.ts";
import { besideIcon } from "../icon-room.ts";
import { bannerMotdLines } from "../motd-lines.ts";
import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { playersUnknown, shows, type PlayerCount, type ServerBannerData } from "../model.ts";
import { drawPanel, drawServerIcon, drawServerStatus } from "../parts.ts";
import { drawSlot, fitSlot, formattedBlock, textInSlot, type TextSlot, SANS_BOLD } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import { accentWash, backdrops, shade, type Palette } from "../theme.ts";
import { fitPlayers, PLAYERS_UNKNOWN } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

export interface PlayersBarLayout {
  radius: number;
  icon: Box | null;
  name: TextSlot;
  status: TextSlot;
  dot: number;
  bar: Box;
  count: TextSlot;
  /** "players online" and the fill as a percentage, where there is room. */
  label: TextSlot | null;
  percent: TextSlot | null;
  motd: TextBlock | null;
  /**
   * The join address. `besideName`: it shares the name's row, and is drawn
   * only when the name keeps its largest size uncut beside it.
   */
  address: AddressPlace & { besideName: boolean };
  /** Follows the address chip on its row (from the slot's left edge when there is none). */
  version: TextSlot | null;
}

/** CSS pixels between the name and a chip beside it, or a chip and the version after it. */
const GAP = 10;
/** PLAYERS_UNKNOWN in the count's slot: at most a caption's size, it is no number to read from afar. */
const UNKNOWN_SIZE = { max: 14, min: 10 };

const layouts: Record<LayoutKey, PlayersBarLayout> = {
  "468x60": {
    radius: 6,
    icon: null,
    name: { x: 14, width: 358, baseline: 25, size: { max: 15, min: 12 } },
    status: { x: 380, width: 74, baseline: 25, size: { max: 11, min: 10 }, align: "right" },
    dot: 3.5,
    bar: { x: 14, y: 35, width: 346, height: 12 },
    count: { x: 368, width: 86, baseline: 46, size: { max: 14, min: 10 }, align: "right" },
    label: null,
    percent: null,
    motd: null,
    address: { box: { x: 14, y: 12, width: 358, height: 17 }, size: { max: 10, min: 9 }, align: "right", whole: true, besideName: true },
    version: null,
  },
  "728x90": {
    radius: 8,
    icon: null,
    name: { x: 22, width: 460, baseline: 32, size: { max: 22, min: 15 } },
    status: { x: 494, width: 212, baseline: 31, size: { max: 14, min: 12 }, align: "right" },
    dot: 4.5,
    bar: { x: 22, y: 70, width: 460, height: 10 },
    count: { x: 494, width: 212, baseline: 59, size: { max: 22, min: 13 }, align: "right" },
    label: null,
    percent: null,
    motd: { x: 22, width: 460, baseline: 48, lineHeight: 1.2, size: { max: 12, min: 11 }, wrap: 1 },
    address: { box: { x: 494, y: 65, width: 212, height: 20 }, size: { max: 11.5, min: 10 }, align: "right", whole: false, besideName: false },
    version: null,
  },
  "300x250": {
    radius: 10,
    icon: null,
    name: { x: 22, width: 256, baseline: 66, size: { max: 22, min: 14 } },
    status: { x: 22, width: 160, baseline: 38, size: { max: 14, min: 12 } },
    dot: 4.5,
    bar: { x: 22, y: 160, width: 256, height: 18 },
    count: { x: 22, width: 256, baseline: 146, size: { max: 40, min: 22 } },
    label: { x: 22, width: 180, baseline: 198, size: { max: 13, min: 12 } },
    percent: { x: 202, width: 76, baseline: 198, size: { max: 13, min: 12 }, align: "right" },
    motd: { x: 22, width: 256, baseline: 88, lineHeight: 1.3, size: { max: 12, min: 11 }, wrap: 1 },
    address: { box: { x: 22, y: 213, width: 256, height: 21 }, size: { max: 12, min: 10 }, align: "left", whole: false, besideName: false },
    version: { x: 22, width: 256, baseline: 228, size: { max: 12, min: 11 } },
  },
  "600x150": {
    radius: 12,
    icon: { x: 24, y: 22, width: 52, height: 52 },
    name: { x: 90, width: 330, baseline: 44, size: { max: 26, min: 16 } },
    status: { x: 430, width: 146, baseline: 43, size: { max: 16, min: 13 }, align: "right" },
    dot: 5,
    bar: { x: 24, y: 92, width: 552, height: 16 },
    count: { x: 430, width: 146, baseline: 79, size: { max: 24, min: 16 }, align: "right" },
    label: null,
    percent: { x: 456, width: 120, baseline: 134, size: { max: 14, min: 12 }, align: "right" },
    motd: { x: 90, width: 330, baseline: 63, lineHeight: 1.25, size: { max: 13, min: 11 }, wrap: 1 },
    address: { box: { x: 24, y: 118, width: 300, height: 22 }, size: { max: 13, min: 11 }, align: "left", whole: false, besideName: false },
    version: { x: 24, width: 420, baseline: 134, size: { max: 14, min: 12 } },
  },
};

/** How much of the bar is filled: online/max within 0..1; 0 when unknown or max is 0. */
function fillRatio(players: PlayerCount | null): number {
  if (!players || !(players.max > 0) || !(players.online > 0)) return 0;
  return Math.min(1, players.online / players.max);
}

/** The empty track striped across, as a bar that cannot tell how full it is: an unknown count is not an empty server. */
function drawUnknownFill(surface: Surface, bar: Box, track: Path, palette: Palette): void {
  const step = bar.height, slant = bar.height;
  const stripes = new Path();
  for (let x = bar.x - slant; x < bar.x + bar.width; x += step) {
    stripes.moveTo(x, bar.y + bar.height).lineTo(x + step / 2, bar.y + bar.height).lineTo(x + step / 2 + slant, bar.y).lineTo(x + slant, bar.y).close();
  }
  surface.fill(stripes, solid({ ...palette.muted, a: 64 }), { clip: surface.mask(track) });
}

function drawBar(surface: Surface, bar: Box, ratio: number | null, online: boolean, palette: Palette): void {
  const track = new Path().roundRect(bar.x, bar.y, bar.width, bar.height, bar.height / 2);
  surface.fill(track, solid(palette.well));
  if (online) surface.fill(track, solid(accentWash(palette)));
  if (ratio === null) {
    drawUnknownFill(surface, bar, track, palette);
    return;
  }
  if (ratio <= 0) return;
  const color = online ? palette.accent : palette.muted;
  // The fill is a plain rectangle clipped to the track: its length stays exactly proportional, rounded ends included.
  surface.fill(new Path().rect(bar.x, bar.y, bar.width * ratio, bar.height), linearGradient(bar.x, 0, bar.x + bar.width, 0, [
    { offset: 0, color }, { offset: 1, color: shade(color, 0.2) },
  ]), { clip: surface.mask(track) });
}

/** The name, with the address chip beside it when both fit (468x60). */
function drawNameRow(surface: Surface, layout: PlayersBarLayout, nameSlot: TextSlot, data: ServerBannerData, palette: Palette): void {
  const fitted = fitSlot(surface, nameSlot, stripFormatting(data.name), SANS_BOLD);
  drawSlot(surface, nameSlot, fitted, palette.text);
  const { address } = layout;
  if (!address.besideName || !shows(data, "address")) return;
  // The name leads: the chip only takes room the name at its largest size leaves.
  const chip = fitAddressChip(surface, address, data.address);
  const nameKept = !fitted.truncated && fitted.size === nameSlot.size.max && fitted.width + GAP + (chip?.box.width ?? 0) <= nameSlot.width;
  if (chip && nameKept) drawAddressChip(surface, chip, palette);
}

export const playersBar: ServerTemplate<PlayersBarLayout> = {
  key: "players-bar",
  kind: "server",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    const iconShown = shows(data, "icon");
    if (layout.icon && iconShown) drawServerIcon(surface, data, layout.icon, layout.icon.width * 0.16, palette.well);
    drawNameRow(surface, layout, besideIcon(layout.name, layout.icon, iconShown), data, palette);
    if (shows(data, "status")) drawServerStatus(surface, layout.status, data.status, palette, layout.dot);

    if (shows(data, "players") && playersUnknown(data)) {
      drawBar(surface, layout.bar, null, true, palette);
      textInSlot(surface, { ...layout.count, size: UNKNOWN_SIZE }, PLAYERS_UNKNOWN, { face: "sans" }, palette.muted);
    } else if (shows(data, "players")) {
      const ratio = fillRatio(data.players);
      // Muted for an offline server (a hidden status reads online: renderBanner).
      drawBar(surface, layout.bar, ratio, data.status === "online", palette);
      drawSlot(surface, layout.count, fitPlayers(surface, layout.count, data.players, SANS_BOLD), palette.text);
      if (layout.label) textInSlot(surface, layout.label, "players online", { face: "sans" }, palette.muted);
      if (layout.percent && data.players) textInSlot(surface, layout.percent, `${Math.round(ratio * 100)}% full`, { face: "sans" }, palette.muted);
    }
    if (layout.motd) {
      formattedBlock(surface, besideIcon(layout.motd, layout.icon, iconShown), bannerMotdLines(data), "sans", { defaultColor: palette.motd, backdrops: backdrops(palette) });
    }

    const { address } = layout;
    const chip = !address.besideName && shows(data, "address") ? fitAddressChip(surface, address, data.address) : null;
    if (chip) drawAddressChip(surface, chip, palette);
    if (layout.version && shows(data, "version") && data.version) {
      // On the chip's row the version follows it; the slot's width is the most it may reach.
      const start = chip && address.align === "left" ? chip.box.x + chip.box.width + GAP : layout.version.x;
      const slot = { ...layout.version, x: start, width: layout.version.x + layout.version.width - start };
      textInSlot(surface, slot, data.version, { face: "sans" }, palette.muted);
    }
  },
};
