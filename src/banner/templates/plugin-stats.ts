// plugin-stats: a plugin's record. Its name, version and status
// (active: seen within 24 hours) on the left, its counters as a grid of
// numbers with small captions on the right (or below, in the box).

import { Path, solid } from "../../render/index.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { drawDivider, drawPanel, drawPluginIcon, drawStatusWord } from "../parts.ts";
import { drawSlot, textInSlot, type TextSlot } from "../slots.ts";
import type { PluginBannerData } from "../model.ts";
import type { Box, Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { fitCount } from "../fitted-counts.ts";
import type { PluginTemplate } from "./template.ts";

export interface CounterGrid {
  x: number;
  /** Top of the first row. */
  y: number;
  width: number;
  columns: number;
  rows: number;
  rowHeight: number;
  /** Baselines within a cell: the number, then its caption. */
  valueBaseline: number;
  labelBaseline: number;
  value: { max: number; min: number };
  label: number;
  /** Cells' text alignment; centred cells get a hairline between them. */
  align: "left" | "center";
}

export interface PluginStatsLayout {
  radius: number;
  icon: Box;
  name: TextSlot;
  /** Version, then the status after it on the same row. */
  version: TextSlot;
  status: TextSlot;
  dot: number;
  grid: CounterGrid;
  divider: { x: number; y: number; width: number } | null;
}

const layouts: Record<LayoutKey, PluginStatsLayout> = {
  "468x60": {
    radius: 6,
    icon: { x: 12, y: 12, width: 36, height: 36 },
    name: { x: 58, width: 190, baseline: 27, size: { max: 15, min: 12 } },
    version: { x: 58, width: 80, baseline: 45, size: { max: 11, min: 10 } },
    status: { x: 58, width: 190, baseline: 45, size: { max: 11, min: 10 } },
    dot: 3.5,
    grid: {
      x: 256, y: 0, width: 198, columns: 2, rows: 1, rowHeight: 60, valueBaseline: 30, labelBaseline: 45,
      value: { max: 18, min: 11 }, label: 9, align: "center",
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
    grid: {
      x: 388, y: 0, width: 318, columns: 3, rows: 1, rowHeight: 90, valueBaseline: 45, labelBaseline: 65,
      value: { max: 26, min: 14 }, label: 11, align: "center",
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
    grid: {
      x: 22, y: 98, width: 256, columns: 2, rows: 2, rowHeight: 70, valueBaseline: 32, labelBaseline: 52,
      value: { max: 28, min: 14 }, label: 11, align: "left",
    },
    divider: { x: 22, y: 92, width: 256 },
  },
  "600x150": {
    radius: 12,
    icon: { x: 28, y: 43, width: 64, height: 64 },
    name: { x: 108, width: 200, baseline: 71, size: { max: 26, min: 15 } },
    version: { x: 108, width: 90, baseline: 99, size: { max: 14, min: 12 } },
    status: { x: 108, width: 200, baseline: 99, size: { max: 14, min: 12 } },
    dot: 4.5,
    grid: {
      x: 318, y: 0, width: 254, columns: 2, rows: 1, rowHeight: 150, valueBaseline: 78, labelBaseline: 100,
      value: { max: 32, min: 16 }, label: 12, align: "center",
    },
    divider: null,
  },
};

/** "total_downloads" -> "TOTAL DOWNLOADS": captions in small capitals. */
function counterCaption(name: string): string {
  return stripFormatting(name).replace(/[_-]+/g, " ").trim().toUpperCase();
}

/** "0.2.1" -> "v0.2.1"; other version names as they are. */
function versionLabel(version: string | null): string {
  if (!version) return "";
  const text = stripFormatting(version).trim();
  return /^\d/.test(text) ? `v${text}` : text;
}

/** The cells of the counters shown, in reading order; strips fill from the right so few counters sit at the end. */
function cellsOf(grid: CounterGrid, shown: number): Box[] {
  const width = grid.width / grid.columns;
  const skipped = grid.align === "center" && grid.rows === 1 ? grid.columns - shown : 0;
  const rowsUsed = Math.ceil(shown / grid.columns);
  // Used rows are centred in the grid's height.
  const top = grid.y + ((grid.rows - rowsUsed) * grid.rowHeight) / 2;
  return Array.from({ length: shown }, (_, i) => ({
    x: grid.x + ((i % grid.columns) + skipped) * width,
    y: top + Math.floor(i / grid.columns) * grid.rowHeight,
    width,
    height: grid.rowHeight,
  }));
}

function drawCounters(surface: Surface, grid: CounterGrid, counters: PluginBannerData["counters"], palette: Palette): void {
  const bold = { face: "sans", bold: true } as const;
  const shown = counters.slice(0, grid.columns * grid.rows);
  const cells = cellsOf(grid, shown.length);
  // Room kept free on each side of a centred cell (its hairline), after a left-aligned one (its neighbour).
  const [left, right] = grid.align === "center" ? [10, 10] : [0, 14];
  const slot = (cell: Box, baseline: number, size: TextSlot["size"]): TextSlot =>
    ({ x: cell.x + left, width: cell.width - left - right, baseline: cell.y + baseline, size, align: grid.align });
  // One size for every number, so a long one does not make its neighbours look bigger.
  const sizes = shown.map(([, count], i) => fitCount(surface, slot(cells[i]!, grid.valueBaseline, grid.value), count, bold).size);
  const value = { max: Math.min(grid.value.max, ...sizes), min: grid.value.min };
  shown.forEach(([name, count], i) => {
    const cell = cells[i]!;
    const valueSlot = slot(cell, grid.valueBaseline, value);
    drawSlot(surface, valueSlot, fitCount(surface, valueSlot, count, bold), palette.text);
    const caption = { max: grid.label, min: grid.label };
    textInSlot(surface, slot(cell, grid.labelBaseline, caption), counterCaption(name), { face: "sans", letterSpacing: 0.6 }, palette.muted);
    if (grid.align === "center" && i > 0) {
      const inner = cell.height * 0.28;
      surface.fill(new Path().rect(cell.x, cell.y + inner, 1, cell.height - 2 * inner), solid(palette.border));
    }
  });
}

export const pluginStats: PluginTemplate<PluginStatsLayout> = {
  key: "plugin-stats",
  title: "Plugin stats",
  description: "A plugin's name, version, counters and active/inactive status.",
  kind: "plugin",
  defaultTheme: "dark",
  uses: ["plugin_uuid", "accent"],
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    drawPluginIcon(surface, layout.icon, palette.well, palette.accent);
    const bold = { face: "sans", bold: true } as const;
    textInSlot(surface, layout.name, stripFormatting(data.name), bold, palette.text);
    const version = textInSlot(surface, layout.version, versionLabel(data.version), { face: "sans" }, palette.muted);
    const gap = version.width > 0 ? layout.dot * 3 : 0;
    const statusSlot = { ...layout.status, x: layout.version.x + version.width + gap, width: layout.status.width - version.width - gap };
    const active = data.active ? "online" : "offline";
    // Inactive is not an error: a grey dot, not a red one.
    drawStatusWord(surface, statusSlot, data.active ? "Active" : "Inactive",
      data.active ? palette.status[active] : palette.muted, data.active ? palette.statusText[active] : palette.muted, layout.dot);

    if (layout.divider) drawDivider(surface, layout.divider, palette);
    drawCounters(surface, layout.grid, data.counters, palette);
  },
};
