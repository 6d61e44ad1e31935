// plugin-stats: a plugin's record. Its name, version and status (active:
// seen within 24 hours) at the left or top, and up to three counters: in
// columns on the strips and the header, as rows of a list in the box. All
// numbers in one style (compact, or every digit with numbers=full) and one
// size; captions shrink, then wrap onto a second line, before anything is cut.

import { drawCounters, numberCell, type CounterArea } from "../counter-cells.ts";
import { besideIcon } from "../icon-room.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { drawDivider, drawPanel, drawPluginIcon, drawStatusWord } from "../parts.ts";
import { textInSlot, type TextSlot, SANS_BOLD } from "../slots.ts";
import { MAX_SHOWN_COUNTERS, shows, type PluginBannerData } from "../model.ts";
import type { Box } from "../surface.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { versionLabel } from "../version-label.ts";
import type { PluginTemplate } from "./template.ts";

export interface PluginStatsLayout {
  radius: number;
  icon: Box;
  name: TextSlot;
  /** Version, then the status after it on the same row. */
  version: TextSlot;
  status: TextSlot;
  dot: number;
  counters: CounterArea;
  divider: { x: number; y: number; width: number } | null;
}

/** Columns are a third of the counters' box wide, rows a third of its height. */
const SLOTS = MAX_SHOWN_COUNTERS;

const layouts: Record<LayoutKey, PluginStatsLayout> = {
  "468x60": {
    radius: 6,
    icon: { x: 12, y: 12, width: 36, height: 36 },
    name: { x: 58, width: 162, baseline: 27, size: { max: 15, min: 12 } },
    version: { x: 58, width: 80, baseline: 45, size: { max: 11, min: 10 } },
    status: { x: 58, width: 162, baseline: 45, size: { max: 11, min: 10 } },
    dot: 3.5,
    counters: {
      box: { x: 228, y: 0, width: 230, height: 60 }, arrangement: "columns",
      value: { max: 18, min: 11 }, label: { max: 9, min: 9 }, valueBaseline: 30, labelBaseline: 44, labelPitch: 10,
    },
    divider: null,
  },
  "728x90": {
    radius: 8,
    icon: { x: 19, y: 19, width: 52, height: 52 },
    name: { x: 85, width: 290, baseline: 41, size: { max: 22, min: 15 } },
    version: { x: 85, width: 110, baseline: 65, size: { max: 13, min: 11 } },
    status: { x: 85, width: 290, baseline: 65, size: { max: 13, min: 11 } },
    dot: 4,
    counters: {
      box: { x: 386, y: 0, width: 330, height: 90 }, arrangement: "columns",
      value: { max: 26, min: 14 }, label: { max: 11, min: 9 }, valueBaseline: 45, labelBaseline: 64, labelPitch: 12,
    },
    divider: null,
  },
  "300x250": {
    radius: 10,
    icon: { x: 22, y: 22, width: 48, height: 48 },
    name: { x: 82, width: 196, baseline: 43, size: { max: 20, min: 13 } },
    version: { x: 82, width: 90, baseline: 64, size: { max: 13, min: 11 } },
    status: { x: 82, width: 196, baseline: 64, size: { max: 13, min: 11 } },
    dot: 4,
    counters: {
      box: { x: 22, y: 96, width: 256, height: 138 }, arrangement: "rows",
      value: { max: 24, min: 14 }, label: { max: 12, min: 10 }, valueBaseline: 0, labelBaseline: 0, labelPitch: 13,
    },
    divider: { x: 22, y: 90, width: 256 },
  },
  "600x150": {
    radius: 12,
    icon: { x: 28, y: 43, width: 64, height: 64 },
    name: { x: 108, width: 180, baseline: 71, size: { max: 26, min: 15 } },
    version: { x: 108, width: 90, baseline: 99, size: { max: 14, min: 12 } },
    status: { x: 108, width: 180, baseline: 99, size: { max: 14, min: 12 } },
    dot: 4.5,
    counters: {
      box: { x: 294, y: 0, width: 290, height: 150 }, arrangement: "columns",
      value: { max: 30, min: 13 }, label: { max: 12, min: 10 }, valueBaseline: 76, labelBaseline: 98, labelPitch: 14,
    },
    divider: null,
  },
};

/** "total_downloads" -> "Total downloads": sentence case, narrower than capitals where room is short. */
export function counterCaption(name: string): string {
  const words = stripFormatting(name).replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}


export const pluginStats: PluginTemplate<PluginStatsLayout> = {
  key: "plugin-stats",
  kind: "plugin",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    // Without the icon the text starts where the icon would have.
    const left = (slot: TextSlot): TextSlot => besideIcon(slot, layout.icon, shows(data, "icon"));
    if (shows(data, "icon")) drawPluginIcon(surface, layout.icon, palette.well, palette.accent);
    textInSlot(surface, left(layout.name), stripFormatting(data.name), SANS_BOLD, palette.text);
    const versionSlot = left(layout.version);
    const version = shows(data, "version") ? textInSlot(surface, versionSlot, versionLabel(data.version), { face: "sans" }, palette.muted) : null;
    if (shows(data, "status")) {
      const used = version && version.width > 0 ? version.width + layout.dot * 3 : 0;
      const statusSlot = { ...left(layout.status), x: versionSlot.x + used, width: left(layout.status).width - used };
      // Inactive is not an error: a grey dot, not a red one.
      drawStatusWord(surface, statusSlot, data.active ? "Active" : "Inactive",
        data.active ? palette.status.online : palette.muted, data.active ? palette.statusText.online : palette.muted, layout.dot);
    }

    if (layout.divider) drawDivider(surface, layout.divider, palette);
    // Said, not left blank: a record with no counters yet (or no record) is not a broken banner.
    const cells = data.counters.slice(0, SLOTS).map(([name, value]) => numberCell(value, counterCaption(name)));
    drawCounters(surface, layout.counters, cells, data.numbers ?? "compact", palette, SLOTS, "No counters pushed yet");
  },
};
