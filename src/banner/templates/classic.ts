// classic: the look of the game's multiplayer list. Icon at the left, the
// name and a two-line MOTD in the pixel face with the game's drop shadow,
// the player count and signal bars at the top right (a cross when offline).
// Details (the join address, the version) stand right of the MOTD in the
// strips, below it in the box and the header; the MOTD gets what they leave.

import { fitBlock, type TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { plainRun, stripFormatting, type StyledRun } from "../../minecraft/format.ts";
import { drawAddressChip, fitAddressChip, type AddressPlace } from "../address-chip.ts";
import { besideIcon } from "../icon-room.ts";
import { bannerMotdLines } from "../motd-lines.ts";
import { playersUnknown, shows } from "../model.ts";
import { STATUS_WORD, drawBlockTexture, drawPanel, drawServerIcon, drawSignalBars, signalBarCount } from "../parts.ts";
import { drawSlot, formattedBlock, textInSlot, type TextSlot } from "../slots.ts";
import { shadowOffset, type Box, type Surface } from "../surface.ts";
import { backdrops } from "../theme.ts";
import { fitPlayers, PLAYERS_UNKNOWN } from "../fitted-counts.ts";
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
  /** Both MOTD lines share one size, as in the game; its width is the most it gets, less what stands beside it. */
  motd: TextBlock;
  /** The lowest baseline the MOTD's last row may take (the box): fewer rows sit in the middle of the room, not atop it. */
  motdBottom: number | null;
  /** The join address; the 468x60 strip draws it only uncut, else its room goes to the MOTD. */
  address: AddressPlace;
  version: TextSlot | null;
  latency: TextSlot | null;
  /** The status word for an online server too (the header); offline it always shows, in the players' place. */
  status: TextSlot | null;
}

// Pixel sizes step by 8 device pixels (4 CSS pixels in the 2x layout) so the face stays sharp.
const PIXEL_8 = { max: 8, min: 8, step: 8 };
const PIXEL_16 = { max: 16, min: 16, step: 8 };
const PIXEL_16_TO_8 = { max: 16, min: 8, step: 8 };
const PIXEL_24 = { max: 24, min: 24, step: 8 };
const PIXEL_24_TO_16 = { max: 24, min: 16, step: 8 };
const HEADER_12_TO_8 = { max: 12, min: 8, step: 4 };
const HEADER_16_TO_8 = { max: 16, min: 8, step: 4 };

const layouts: Record<LayoutKey, ClassicLayout> = {
  "468x60": {
    radius: 6,
    block: 6,
    icon: { x: 6, y: 6, width: 48, height: 48 },
    name: { x: 62, width: 290, baseline: 22, lineHeight: 1, size: PIXEL_16, wrap: 1 },
    players: { x: 356, width: 84, baseline: 22, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 445, y: 10, width: 15, height: 12 },
    motd: { x: 62, width: 398, baseline: 38, lineHeight: 1.375, size: PIXEL_8, wrap: 1 },
    motdBottom: null,
    address: { box: { x: 250, y: 33, width: 210, height: 16 }, size: PIXEL_8, align: "right", whole: true },
    version: null,
    latency: null,
    status: null,
  },
  "728x90": {
    radius: 8,
    block: 8,
    icon: { x: 13, y: 13, width: 64, height: 64 },
    // The name a size above the MOTD's largest, so it leads however long the MOTD is.
    name: { x: 89, width: 436, baseline: 34, lineHeight: 1, size: PIXEL_24, wrap: 1 },
    players: { x: 530, width: 156, baseline: 34, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 694, y: 20, width: 20, height: 14 },
    motd: { x: 89, width: 626, baseline: 56, lineHeight: 1.125, size: PIXEL_16_TO_8, wrap: 1 },
    motdBottom: null,
    address: { box: { x: 440, y: 44, width: 275, height: 16 }, size: PIXEL_8, align: "right", whole: false },
    // Details in the game's own 8 px, below the MOTD's 16.
    version: { x: 440, width: 275, baseline: 74, size: PIXEL_8, align: "right" },
    latency: null,
    status: null,
  },
  "300x250": {
    radius: 10,
    block: 10,
    icon: { x: 20, y: 20, width: 64, height: 64 },
    name: { x: 96, width: 184, baseline: 38, lineHeight: 1.125, size: PIXEL_24_TO_16, wrap: 2 },
    players: { x: 96, width: 154, baseline: 86, size: PIXEL_16_TO_8, align: "right" },
    bars: { x: 256, y: 72, width: 24, height: 14 },
    motd: { x: 20, width: 260, baseline: 118, lineHeight: 1.25, size: PIXEL_16_TO_8, wrap: 2 },
    motdBottom: 178,
    address: { box: { x: 20, y: 196, width: 260, height: 16 }, size: PIXEL_8, align: "left", whole: false },
    version: { x: 20, width: 160, baseline: 238, size: PIXEL_16_TO_8 },
    latency: { x: 180, width: 100, baseline: 238, size: PIXEL_16_TO_8, align: "right" },
    status: null,
  },
  "600x150": {
    radius: 12,
    block: 6,
    icon: { x: 24, y: 27, width: 96, height: 96 },
    name: { x: 136, width: 300, baseline: 56, lineHeight: 1, size: { max: 28, min: 16, step: 4 }, wrap: 1 },
    players: { x: 440, width: 102, baseline: 56, size: HEADER_16_TO_8, align: "right" },
    bars: { x: 549, y: 40, width: 24, height: 16 },
    motd: { x: 136, width: 437, baseline: 82, lineHeight: 1.25, size: HEADER_16_TO_8, wrap: 1 },
    motdBottom: null,
    address: { box: { x: 136, y: 109, width: 300, height: 24 }, size: HEADER_12_TO_8, align: "left", whole: false },
    version: { x: 440, width: 133, baseline: 82, size: HEADER_12_TO_8, align: "right" },
    latency: null,
    status: { x: 440, width: 133, baseline: 126, size: HEADER_12_TO_8, align: "right" },
  },
};

/** CSS pixels between the MOTD and a detail beside it. */
const BESIDE_GAP = 10;

/** `block` moved down to the middle of the room its rows leave above `bottom` (whole pixels: the face stays sharp). */
function centred(surface: Surface, block: TextBlock, lines: ReadonlyArray<readonly StyledRun[]>, bottom: number | null, shadow: boolean): TextBlock {
  if (bottom === null) return block;
  // Fitted as formattedBlock fits it: the shadow's font pixel kept inside the width.
  const width = block.width - (shadow ? shadowOffset(block.size.max, surface.scale) / surface.scale : 0);
  const { rows, size } = fitBlock(lines, "pixel", { ...block, width }, surface.scale, surface.caches.render);
  if (rows.length === 0) return block;
  const last = block.baseline + (rows.length - 1) * size * block.lineHeight;
  return { ...block, baseline: block.baseline + Math.max(0, Math.floor((bottom - last) / 2)) };
}

export const classic: ServerTemplate<ClassicLayout> = {
  key: "classic",
  kind: "server",
  layouts,
  draw(surface, layout, data, palette) {
    const dark = palette.theme === "dark";
    drawPanel(surface, palette, layout.radius);
    // The pattern is the theme panel's own texture: a preset brings its own, and on a
    // see-through background it would show as a checker on the page.
    if (!palette.preset && palette.background.every((end) => end.a === 255)) drawBlockTexture(surface, layout.radius, layout.block, dark ? 0.05 : 0.035);
    const iconShown = shows(data, "icon");
    if (iconShown) drawServerIcon(surface, data, layout.icon, 0, palette.well);
    // Offline only where the status is shown: renderBanner draws a hidden one online.
    const offline = data.status === "offline";
    const pixel = { face: "pixel" } as const;
    const style = { defaultColor: palette.motd, backdrops: backdrops(palette), shadow: dark };
    const players = besideIcon(layout.players, layout.icon, iconShown);

    // A hidden count gives its room to the name.
    const nameBox = besideIcon(shows(data, "players") ? layout.name : { ...layout.name, width: Math.max(layout.name.width, layout.bars.x - layout.name.x - 8) }, layout.icon, iconShown);
    // The game's shadow reads as depth on dark panels and as smudge on light ones.
    formattedBlock(surface, nameBox, [[plainRun(stripFormatting(data.name))]], "pixel", { ...style, defaultColor: palette.text });

    const lit = shows(data, "latency") ? signalBarCount(data.latencyMs) : null;
    if (offline || shows(data, "latency")) {
      drawSignalBars(surface, layout.bars, lit, offline, { lit: palette.status.online, unlit: palette.well, cross: palette.status.offline });
    }
    // The game shows no count for a server it cannot reach; the word says why.
    if (offline && !data.players) {
      textInSlot(surface, players, STATUS_WORD.offline, pixel, palette.statusText.offline);
    } else if (shows(data, "players") && playersUnknown(data)) {
      textInSlot(surface, players, PLAYERS_UNKNOWN, pixel, palette.muted);
    } else if (shows(data, "players")) {
      drawSlot(surface, players, fitPlayers(surface, players, data.players, pixel), palette.muted);
    }
    if (layout.status && shows(data, "status") && !offline) textInSlot(surface, layout.status, STATUS_WORD.online, pixel, palette.statusText.online);

    // Details right of the MOTD narrow it by what they take; those below it leave it whole.
    const motd = besideIcon(layout.motd, layout.icon, iconShown);
    let motdRight = motd.x + motd.width;
    const address = { ...layout.address, box: besideIcon(layout.address.box, layout.icon, iconShown) };
    const chip = shows(data, "address") ? fitAddressChip(surface, address, data.address, { face: "pixel", shadow: dark }) : null;
    if (chip) {
      // No accent: the game's list has none, so the mark is grey like its other details (catalogue.ts does not offer `accent`).
      drawAddressChip(surface, chip, palette, palette.muted);
      if (address.align === "right") motdRight = Math.min(motdRight, chip.box.x - BESIDE_GAP);
    }
    if (layout.version && shows(data, "version") && data.version) {
      const version = textInSlot(surface, layout.version, data.version, pixel, palette.muted);
      if (layout.version.align === "right") motdRight = Math.min(motdRight, layout.version.x + layout.version.width - version.width - BESIDE_GAP);
    }
    if (layout.latency && shows(data, "latency") && !offline && lit !== null) {
      textInSlot(surface, layout.latency, `${Math.round(data.latencyMs!)} ms`, pixel, palette.muted);
    }
    const lines = bannerMotdLines(data), block = { ...motd, width: motdRight - motd.x };
    formattedBlock(surface, centred(surface, block, lines, layout.motdBottom, dark), lines, "pixel", style);
  },
};
