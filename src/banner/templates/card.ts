// card: a modern card, edged in the accent colour at its left as a chat
// embed is. The icon, the name with a status pill and a version pill, both
// MOTD lines (one on the 468x60 strip), a large player count and the join
// address as a chip to copy. Strips and the header keep the count in a
// column at the right; the box stacks it under the name.

import { drawAddressChip, type AddressPlace } from "../address-chip.ts";
import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { shows, type ServerBannerData } from "../model.ts";
import { addressOf, besideAddress, type ChipPosition } from "../motd-and-address.ts";
import { bannerMotdLines } from "../motd-lines.ts";
import { Path, solid } from "../../render/index.ts";
import { STATUS_WORD, drawDivider, drawPanel, drawPill, drawServerIcon, fitPill, type Pill, type PillStyle } from "../parts.ts";
import { drawPlayerCount, type CountLayout } from "../player-count.ts";
import { drawSlot, fitSlot, formattedBlock, type TextSlot, SANS_BOLD } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { backdrops, type Palette } from "../theme.ts";
import type { ServerTemplate } from "./template.ts";

export interface CardLayout {
  radius: number;
  /** Width of the accent edge along the left side (less than the radius). */
  edge: number;
  icon: Box;
  iconRadius: number;
  /** The name's row; inline pills follow the name on it and share its width. */
  name: TextSlot;
  /** Pills after the name (inline), or on a row of their own from `x`, `width` wide, aligned left or right. */
  pills: { centerY: number; gap: number; height: number; size: number; padding: number; inline: boolean; x: number; width: number; align: "left" | "right" };
  motd: TextBlock;
  /** MOTD lines drawn: 1 on the smallest strip, which has one row for it. */
  motdLines: 1 | 2;
  count: CountLayout;
  /** The most room the address chip may take. */
  address: AddressPlace;
  addressPosition: ChipPosition;
  /** A hairline between the header and the count (the box only). */
  divider: { x: number; y: number; width: number } | null;
  /**
   * Width the count's column gives the name, the MOTD and the address when
   * players are hidden (strips, header); none where the parts are stacked
   * (the box: those drawn move together instead).
   */
  countRoom: { name: number; motd: number; address: number };
}

const layouts: Record<LayoutKey, CardLayout> = {
  "468x60": {
    radius: 6,
    edge: 3,
    icon: { x: 12, y: 10, width: 40, height: 40 },
    iconRadius: 8,
    name: { x: 62, width: 292, baseline: 26, size: { max: 15, min: 12 } },
    pills: { centerY: 21, gap: 6, height: 15, size: 9, padding: 6, inline: true, x: 0, width: 0, align: "left" },
    motd: { x: 62, width: 394, baseline: 46, lineHeight: 1.3, size: { max: 11, min: 10 }, wrap: 1 },
    motdLines: 1,
    count: {
      count: { x: 362, width: 94, baseline: 26, size: { max: 18, min: 12 }, align: "right" },
      label: { x: 362, width: 94, baseline: 26, size: { max: 10, min: 10 }, align: "right" },
      inline: true,
    },
    address: { box: { x: 62, y: 34, width: 394, height: 17 }, size: { max: 10, min: 9 }, align: "right", whole: true },
    addressPosition: "beside-motd",
    divider: null,
    countRoom: { name: 102, motd: 0, address: 0 },
  },
  "728x90": {
    radius: 8,
    edge: 4,
    icon: { x: 14, y: 13, width: 64, height: 64 },
    iconRadius: 13,
    name: { x: 92, width: 420, baseline: 34, size: { max: 22, min: 15 } },
    pills: { centerY: 27, gap: 8, height: 20, size: 11, padding: 8, inline: true, x: 0, width: 0, align: "left" },
    motd: { x: 92, width: 372, baseline: 56, lineHeight: 1.35, size: { max: 14, min: 10 }, wrap: 1 },
    motdLines: 2,
    count: {
      count: { x: 524, width: 190, baseline: 36, size: { max: 30, min: 18 }, align: "right" },
      label: { x: 524, width: 190, baseline: 36, size: { max: 13, min: 13 }, align: "right" },
      inline: true,
    },
    address: { box: { x: 476, y: 60, width: 238, height: 20 }, size: { max: 11.5, min: 10 }, align: "right", whole: false },
    addressPosition: "ends-motd",
    divider: null,
    countRoom: { name: 202, motd: 250, address: 0 },
  },
  "300x250": {
    radius: 10,
    edge: 4,
    icon: { x: 20, y: 20, width: 48, height: 48 },
    iconRadius: 10,
    name: { x: 80, width: 200, baseline: 39, size: { max: 18, min: 12 } },
    pills: { centerY: 57, gap: 6, height: 18, size: 10, padding: 7, inline: false, x: 80, width: 200, align: "left" },
    motd: { x: 20, width: 260, baseline: 177, lineHeight: 1.35, size: { max: 13, min: 10 }, wrap: 1 },
    motdLines: 2,
    count: {
      count: { x: 20, width: 260, baseline: 128, size: { max: 42, min: 22 } },
      label: { x: 20, width: 260, baseline: 148, size: { max: 13, min: 13 } },
      inline: false,
    },
    address: { box: { x: 20, y: 212, width: 260, height: 21 }, size: { max: 12, min: 10 }, align: "left", whole: false },
    addressPosition: "own",
    divider: { x: 20, y: 84, width: 260 },
    countRoom: { name: 0, motd: 0, address: 0 },
  },
  "600x150": {
    radius: 12,
    edge: 4,
    icon: { x: 27, y: 27, width: 96, height: 96 },
    iconRadius: 16,
    name: { x: 143, width: 262, baseline: 52, size: { max: 28, min: 16 } },
    pills: { centerY: 38, gap: 8, height: 22, size: 12, padding: 9, inline: false, x: 413, width: 160, align: "right" },
    motd: { x: 143, width: 262, baseline: 80, lineHeight: 1.35, size: { max: 15, min: 11 }, wrap: 1 },
    motdLines: 2,
    count: {
      count: { x: 413, width: 160, baseline: 96, size: { max: 44, min: 22 }, align: "right" },
      label: { x: 413, width: 160, baseline: 118, size: { max: 14, min: 14 }, align: "right" },
      inline: false,
    },
    address: { box: { x: 143, y: 111, width: 262, height: 22 }, size: { max: 13, min: 11 }, align: "left", whole: false },
    addressPosition: "own",
    divider: null,
    countRoom: { name: 0, motd: 168, address: 168 },
  },
};

function pillsOf(surface: Surface, layout: CardLayout, data: ServerBannerData, palette: Palette, room: number): Pill[] {
  const base = { height: layout.pills.height, size: layout.pills.size, padding: layout.pills.padding };
  const pills: Pill[] = [];
  if (shows(data, "status")) {
    const status: PillStyle = {
      ...base, dot: palette.status[data.status], fill: { ...palette.status[data.status], a: 40 }, text: palette.statusText[data.status],
    };
    pills.push(fitPill(surface, STATUS_WORD[data.status], status, room));
  }
  if (data.version && shows(data, "version")) {
    const version: PillStyle = { ...base, dot: null, fill: palette.well, text: palette.muted };
    const left = room - (pills[0]?.width ?? 0) - (pills.length > 0 ? layout.pills.gap : 0);
    pills.push(fitPill(surface, data.version, version, Math.min(room * 0.6, left)));
  }
  return pills.filter((pill) => pill.width > 0);
}

const rowWidth = (pills: readonly Pill[], gap: number) => pills.reduce((sum, pill) => sum + pill.width + gap, 0) - (pills.length > 0 ? gap : 0);

/**
 * The accent edge: a band along the left side, inside the panel's rounded
 * outline. Drawn as that shape (the corners' arcs up to where the band ends)
 * rather than clipped: a clip mask of the whole banner costs more than the rest.
 */
function drawEdge(surface: Surface, layout: CardLayout, palette: Palette): void {
  const r = layout.radius, h = surface.height;
  // The band ends inside the corners' arcs (edge < radius): each arc runs from the side to the band's end.
  const reach = Math.acos((r - layout.edge) / r);
  const band = new Path().arc(r, r, r, Math.PI, Math.PI + reach).arc(r, h - r, r, Math.PI - reach, Math.PI).close();
  surface.fill(band, solid(palette.accent));
}

/** Moves a slot that starts beside the icon to the icon's left edge (the icon is hidden). */
function intoIconRoom<T extends { x: number; width: number }>(layout: CardLayout, slot: T): T {
  return slot.x === layout.name.x ? { ...slot, x: layout.icon.x, width: slot.width + layout.name.x - layout.icon.x } : slot;
}

/** The gap above the box's address chip. */
const ADDRESS_GAP = 10;

/**
 * Vertical shifts of the box's stacked parts (count, MOTD, address) so those
 * drawn sit together in the middle of the room under the divider.
 */
function stackShifts(layout: CardLayout, drawn: { count: boolean; motd: boolean; address: boolean }): { count: number; motd: number; address: number } {
  const { count, motd, address } = layout;
  const countTop = count.count.baseline - count.count.size.max * 0.75;
  const motdTop = motd.baseline - motd.size.max * 0.75;
  const chip = address.box;
  // Each part's height includes the gap after it: a missing part takes its gap with it.
  const heights = { count: motdTop - countTop, motd: chip.y - motdTop, address: chip.height + ADDRESS_GAP };
  const missing = (part: keyof typeof heights) => (drawn[part] ? 0 : heights[part]);
  const centre = (missing("count") + missing("motd") + missing("address")) / 2;
  return { count: centre, motd: centre - missing("count"), address: centre - missing("count") - missing("motd") };
}

export const card: ServerTemplate<CardLayout> = {
  key: "card",
  kind: "server",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    drawEdge(surface, layout, palette);
    const icon = shows(data, "icon");
    if (icon) drawServerIcon(surface, data, layout.icon, layout.iconRadius, palette.well);
    const beside = <T extends { x: number; width: number }>(slot: T): T => (icon ? slot : intoIconRoom(layout, slot));
    const players = shows(data, "players");
    const widen = <T extends { width: number }>(slot: T, part: keyof CardLayout["countRoom"]): T =>
      (players ? slot : { ...slot, width: slot.width + layout.countRoom[part] });

    // The header: the name, then the pills after it or on their own row.
    const row = layout.pills;
    const nameSlot = widen(beside(layout.name), "name");
    const name = stripFormatting(data.name);
    let pills = pillsOf(surface, layout, data, palette, row.inline ? nameSlot.width : row.width);
    let nameFit = fitSlot(surface, nameSlot, name, SANS_BOLD);
    if (row.inline) {
      // Pills follow the name on its row: the version pill gives way first, then the name shrinks.
      const nameFor = (shown: readonly Pill[]) =>
        fitSlot(surface, { ...nameSlot, width: nameSlot.width - (shown.length > 0 ? rowWidth(shown, row.gap) + row.gap * 1.5 : 0) }, name, SANS_BOLD);
      nameFit = nameFor(pills);
      if (nameFit.truncated && pills.length > 1) {
        pills = pills.slice(0, 1);
        nameFit = nameFor(pills);
      }
    }
    drawSlot(surface, nameSlot, nameFit, palette.text);
    const pillsRow = beside({ x: row.x, width: row.width });
    let x = row.inline ? nameSlot.x + nameFit.width + row.gap * 1.5
      : row.align === "right" ? pillsRow.x + pillsRow.width - rowWidth(pills, row.gap) : pillsRow.x;
    for (const pill of pills) {
      drawPill(surface, pill, x, row.centerY);
      x += pill.width + row.gap;
    }
    if (layout.divider) drawDivider(surface, layout.divider, palette);

    // The body: MOTD and address beside the icon (or stacked in the box), the count.
    const lines = bannerMotdLines(data).slice(0, layout.motdLines);
    const address = addressOf(data);
    const addressPlace = { ...layout.address, box: widen(beside(layout.address.box), "address") };
    const placed = besideAddress(surface, widen(beside(layout.motd), "motd"), lines, address, addressPlace, layout.addressPosition);
    const shift = layout.divider
      ? stackShifts(layout, { count: players, motd: lines.length > 0, address: placed.chip !== null })
      : { count: 0, motd: 0, address: 0 };
    if (players) {
      const { count, label } = layout.count;
      drawPlayerCount(surface, { ...layout.count, count: { ...count, baseline: count.baseline + shift.count }, label: { ...label, baseline: label.baseline + shift.count } }, data, layout.divider ? "players online" : "players", palette);
    }
    const { motd } = placed;
    if (lines.length > 0) formattedBlock(surface, { ...motd, baseline: motd.baseline + shift.motd }, lines, "sans", { defaultColor: palette.motd, backdrops: backdrops(palette) });
    const { chip } = placed;
    if (chip) drawAddressChip(surface, { ...chip, box: { ...chip.box, y: chip.box.y + shift.address } }, palette);
  },
};
