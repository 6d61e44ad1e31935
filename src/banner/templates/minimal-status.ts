// minimal-status (the default): the server's name, a status dot and word,
// the player count, the MOTD, the version and the join address, in text
// only (no icon, no accent). Strips read as rows: the name and the count,
// then the status and the MOTD (its second line, the version and the
// address on a third row at 728x90); the box stacks them; the header puts
// the status and the address on a top row over the name and the MOTD.

import { drawAddressChip, type AddressPlace } from "../address-chip.ts";
import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { shows } from "../model.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { addressOf, besideAddress, type ChipPosition } from "../motd-and-address.ts";
import { bannerMotdLines } from "../motd-lines.ts";
import { drawDivider, drawPanel, drawServerStatus } from "../parts.ts";
import { drawPlayerCount, type CountLayout } from "../player-count.ts";
import { formattedBlock, textInSlot, type TextSlot } from "../slots.ts";
import { backdrops } from "../theme.ts";
import type { ServerTemplate } from "./template.ts";

export interface MinimalStatusLayout {
  radius: number;
  name: TextSlot;
  /** The status dot and word; its slot starts at the dot's ring. */
  status: TextSlot;
  dot: number;
  /**
   * The version, muted: "below" the status word (the MOTD then starts after
   * the wider of the two), "after" it on its row, or "fixed" in its own
   * slot; null where there is no room for it.
   */
  version: { slot: TextSlot; place: "below" | "after" | "fixed" } | null;
  /** The MOTD's box; with `gap` > 0 it starts after the status word (plus `gap`) and keeps its right edge. */
  motd: TextBlock;
  motdLines: 1 | 2;
  gap: number;
  count: CountLayout;
  /** The most room the address chip may take. */
  address: AddressPlace;
  addressPosition: ChipPosition;
  /** A hairline between the name block and the count (the box only). */
  divider: { x: number; y: number; width: number } | null;
  /** Width the count's column gives the name and the MOTD when players are hidden. */
  countRoom: { name: number; motd: number };
}

const layouts: Record<LayoutKey, MinimalStatusLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 306, baseline: 26, size: { max: 17, min: 12 } },
    status: { x: 14, width: 80, baseline: 46, size: { max: 11, min: 10 } },
    dot: 3.5,
    version: null,
    motd: { x: 14, width: 440, baseline: 46, lineHeight: 1.3, size: { max: 12, min: 10 }, wrap: 1 },
    motdLines: 1,
    gap: 12,
    count: {
      count: { x: 330, width: 124, baseline: 26, size: { max: 20, min: 13 }, align: "right" },
      label: { x: 330, width: 124, baseline: 26, size: { max: 10, min: 10 }, align: "right" },
      inline: true,
    },
    address: { box: { x: 14, y: 34, width: 440, height: 17 }, size: { max: 10, min: 9 }, align: "right", whole: true },
    addressPosition: "beside-motd",
    divider: null,
    countRoom: { name: 134, motd: 0 },
  },
  "728x90": {
    radius: 8,
    name: { x: 22, width: 470, baseline: 34, size: { max: 24, min: 16 } },
    status: { x: 22, width: 100, baseline: 56, size: { max: 14, min: 12 } },
    dot: 4.5,
    version: { slot: { x: 22, width: 80, baseline: 75, size: { max: 12, min: 10 } }, place: "below" },
    motd: { x: 22, width: 446, baseline: 56, lineHeight: 1.35, size: { max: 14, min: 10 }, wrap: 1 },
    motdLines: 2,
    gap: 16,
    count: {
      count: { x: 500, width: 206, baseline: 34, size: { max: 28, min: 16 }, align: "right" },
      label: { x: 500, width: 206, baseline: 34, size: { max: 13, min: 13 }, align: "right" },
      inline: true,
    },
    address: { box: { x: 470, y: 61, width: 236, height: 20 }, size: { max: 11.5, min: 10 }, align: "right", whole: false },
    addressPosition: "ends-motd",
    divider: null,
    countRoom: { name: 214, motd: 238 },
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 78, size: { max: 24, min: 14 } },
    status: { x: 22, width: 140, baseline: 44, size: { max: 14, min: 12 } },
    dot: 4.5,
    version: { slot: { x: 164, width: 114, baseline: 44, size: { max: 12, min: 10 }, align: "right" }, place: "fixed" },
    motd: { x: 22, width: 256, baseline: 104, lineHeight: 1.35, size: { max: 13, min: 10 }, wrap: 1 },
    motdLines: 2,
    gap: 0,
    count: {
      count: { x: 22, width: 256, baseline: 180, size: { max: 40, min: 22 } },
      label: { x: 22, width: 256, baseline: 198, size: { max: 13, min: 13 } },
      inline: false,
    },
    address: { box: { x: 22, y: 214, width: 256, height: 21 }, size: { max: 12, min: 10 }, align: "left", whole: false },
    addressPosition: "own",
    divider: { x: 22, y: 136, width: 256 },
    countRoom: { name: 0, motd: 0 },
  },
  "600x150": {
    radius: 12,
    name: { x: 30, width: 374, baseline: 78, size: { max: 30, min: 18 } },
    status: { x: 30, width: 120, baseline: 40, size: { max: 15, min: 13 } },
    dot: 5,
    version: { slot: { x: 30, width: 130, baseline: 40, size: { max: 13, min: 11 } }, place: "after" },
    motd: { x: 30, width: 374, baseline: 104, lineHeight: 1.35, size: { max: 15, min: 11 }, wrap: 1 },
    motdLines: 2,
    gap: 0,
    count: {
      count: { x: 414, width: 156, baseline: 98, size: { max: 44, min: 22 }, align: "right" },
      label: { x: 414, width: 156, baseline: 120, size: { max: 15, min: 15 }, align: "right" },
      inline: false,
    },
    address: { box: { x: 300, y: 24, width: 270, height: 22 }, size: { max: 13, min: 11 }, align: "right", whole: false },
    addressPosition: "own",
    divider: null,
    countRoom: { name: 166, motd: 166 },
  },
};

export const minimalStatus: ServerTemplate<MinimalStatusLayout> = {
  key: "minimal-status",
  kind: "server",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    const players = shows(data, "players");
    const name = players ? layout.name : { ...layout.name, width: layout.name.width + layout.countRoom.name };
    textInSlot(surface, name, stripFormatting(data.name), { face: "sans", bold: true }, palette.text);
    if (players) drawPlayerCount(surface, layout.count, data, layout.divider || !layout.count.inline ? "players online" : "players", palette);
    if (layout.divider) drawDivider(surface, layout.divider, palette);

    const status = shows(data, "status") ? drawServerStatus(surface, layout.status, data.status, palette, layout.dot) : 0;
    let below = 0;
    if (layout.version && data.version && shows(data, "version")) {
      const { slot, place } = layout.version;
      const at = place === "after" && status > 0 ? { ...slot, x: slot.x + status + slot.size.max } : slot;
      const drawn = textInSlot(surface, at, data.version, { face: "sans" }, palette.muted).width;
      if (place === "below") below = drawn;
    }

    // On strips the MOTD follows the status column (the word, and the version under it) on its rows, keeping its box's right edge.
    const column = Math.max(status, below);
    const start = layout.gap > 0 && column > 0 ? layout.status.x + column + layout.gap : layout.motd.x;
    const right = layout.motd.x + layout.motd.width + (players ? 0 : layout.countRoom.motd);
    const lines = bannerMotdLines(data).slice(0, layout.motdLines);
    const address = addressOf(data);
    const placed = besideAddress(surface, { ...layout.motd, x: start, width: right - start }, lines, address, layout.address, layout.addressPosition);
    if (lines.length > 0) formattedBlock(surface, placed.motd, lines, "sans", { defaultColor: palette.motd, backdrops: backdrops(palette) });
    // No accent here: the mark is muted like the rest of the details.
    if (placed.chip) drawAddressChip(surface, placed.chip, palette, palette.muted);
  },
};
