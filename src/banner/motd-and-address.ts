// Where the join address's chip goes beside the MOTD's lines (motd-lines.ts
// decides the lines): templates that draw both share these rules.

import type { StyledRun } from "../minecraft/format.ts";
import { fitAddressChip, type AddressChip, type AddressPlace } from "./address-chip.ts";
import { fitFormatted, type TextBlock } from "./fit-text.ts";
import { shows, type ServerBannerData } from "./model.ts";
import type { Surface } from "./surface.ts";

/** The join address to draw: known and not hidden. */
export function addressOf(data: ServerBannerData): string | null {
  return data.address && shows(data, "address") ? data.address : null;
}

/**
 * Where the chip sits relative to the MOTD: on the MOTD's (only) row after
 * it, only where the MOTD still fits whole beside it ("beside-motd", the
 * smallest strip); at the end of the MOTD's last row, which keeps clear of
 * it ("ends-motd"); or in a place of its own.
 */
export type ChipPosition = "beside-motd" | "ends-motd" | "own";

/**
 * The MOTD's box once the chip of `address` (null: none) has its room in
 * `place`, and the chip to draw (null: none). The chip's gap is one em of its text.
 */
export function besideAddress(
  surface: Surface, motd: TextBlock, lines: ReadonlyArray<readonly StyledRun[]>, address: string | null, place: AddressPlace, position: ChipPosition,
): { motd: TextBlock; chip: AddressChip | null } {
  const chip = fitAddressChip(surface, place, address);
  if (chip === null) return { motd, chip };
  const gap = place.size.max;
  if (position === "beside-motd") {
    const first = lines[0];
    const needed = first ? fitFormatted(first, "sans", Infinity, { max: motd.size.min, min: motd.size.min }, surface.scale).width : 0;
    if (needed + gap + chip.box.width > motd.width) return { motd, chip: null };
    return { motd: { ...motd, width: motd.width - chip.box.width - gap }, chip };
  }
  if (position === "ends-motd") return { motd: { ...motd, width: Math.min(motd.width, chip.box.x - gap - motd.x) }, chip };
  return { motd, chip };
}
