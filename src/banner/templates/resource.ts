// resource: a project on a marketplace (Modrinth, SpigotMC, Hangar,
// CurseForge, Polymart), or an author's projects there totalled. Its icon,
// name and a byline (its author and the site) at the left or top, then its
// figures as plugin-stats draws counters (counter-cells.ts): downloads (an
// arrow in the accent), the rating (a star in the accent) or else the
// followers the site counts, and
// the latest version over the game versions it supports; an author's
// projects in place of the version. In columns on the strips and the header,
// as a list in the box, where the version and the game versions take a row each.

import { Path, solid, type Color } from "../../render/index.ts";
import { anyStyle, drawCounters, numberCell, type CounterArea, type CounterCell } from "../counter-cells.ts";
import { besideIcon } from "../icon-room.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { shows, type ResourceBannerData } from "../model.ts";
import { exactCount } from "../numbers.ts";
import { drawDivider, drawPanel, drawPluginIcon } from "../parts.ts";
import { textInSlot, type TextSlot, SANS_BOLD } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";
import { versionLabel } from "../version-label.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import type { ResourceTemplate } from "./template.ts";

export interface ResourceLayout {
  radius: number;
  icon: Box;
  name: TextSlot;
  /** "by author on site", under the name. */
  byline: TextSlot;
  counters: CounterArea;
  /** The version and the game versions as two cells (the box's list), not one (a column: the version over its range). */
  versionsApart: boolean;
  divider: { x: number; y: number; width: number } | null;
}

const layouts: Record<LayoutKey, ResourceLayout> = {
  "468x60": {
    radius: 6,
    icon: { x: 12, y: 12, width: 36, height: 36 },
    name: { x: 58, width: 162, baseline: 27, size: { max: 15, min: 12 } },
    byline: { x: 58, width: 162, baseline: 45, size: { max: 11, min: 10 } },
    counters: {
      box: { x: 228, y: 0, width: 230, height: 60 }, arrangement: "columns",
      value: { max: 17, min: 11 }, label: { max: 9, min: 9 }, valueBaseline: 30, labelBaseline: 44, labelPitch: 10,
    },
    versionsApart: false,
    divider: null,
  },
  "728x90": {
    radius: 8,
    icon: { x: 19, y: 19, width: 52, height: 52 },
    name: { x: 85, width: 290, baseline: 41, size: { max: 22, min: 15 } },
    byline: { x: 85, width: 290, baseline: 65, size: { max: 13, min: 11 } },
    counters: {
      box: { x: 386, y: 0, width: 330, height: 90 }, arrangement: "columns",
      value: { max: 24, min: 14 }, label: { max: 11, min: 9 }, valueBaseline: 45, labelBaseline: 64, labelPitch: 12,
    },
    versionsApart: false,
    divider: null,
  },
  "300x250": {
    radius: 10,
    icon: { x: 22, y: 22, width: 48, height: 48 },
    name: { x: 82, width: 196, baseline: 43, size: { max: 20, min: 13 } },
    byline: { x: 82, width: 196, baseline: 64, size: { max: 13, min: 11 } },
    counters: {
      box: { x: 22, y: 96, width: 256, height: 142 }, arrangement: "rows",
      value: { max: 18, min: 12 }, label: { max: 12, min: 10 }, valueBaseline: 0, labelBaseline: 0, labelPitch: 13,
    },
    versionsApart: true,
    divider: { x: 22, y: 90, width: 256 },
  },
  "600x150": {
    radius: 12,
    icon: { x: 28, y: 43, width: 64, height: 64 },
    name: { x: 108, width: 180, baseline: 71, size: { max: 26, min: 15 } },
    byline: { x: 108, width: 180, baseline: 99, size: { max: 14, min: 12 } },
    counters: {
      box: { x: 294, y: 0, width: 290, height: 150 }, arrangement: "columns",
      value: { max: 28, min: 13 }, label: { max: 12, min: 10 }, valueBaseline: 76, labelBaseline: 98, labelPitch: 14,
    },
    versionsApart: false,
    divider: null,
  },
};

/** Cells a layout's counters share: columns on the strips, rows in the box (whose version and range take one each). */
const SLOTS = 3;
const BOX_SLOTS = 4;

/** "followers" -> "Followers". */
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The rating when the site rates, else its followers when it counts them, else nothing. */
function esteemCell(data: ResourceBannerData): CounterCell[] {
  const { rating } = data;
  if (rating) {
    const votes = rating.votes === null ? "Rating" : `${exactCount(rating.votes)} ${rating.votes === 1 ? "rating" : "ratings"}`;
    return [{ value: anyStyle((Math.round(rating.average * 10) / 10).toFixed(1)), caption: votes, mark: "star" }];
  }
  return data.followersWord ? [numberCell(data.followers, capitalized(data.followersWord))] : [];
}

/** A project's release: the version over its range in one cell, or each in its own. */
function releaseCells(data: ResourceBannerData, apart: boolean): CounterCell[] {
  if (!shows(data, "version")) return [];
  const version = anyStyle(versionLabel(data.version) || "\u2014");
  const range = data.gameVersions ? stripFormatting(data.gameVersions) : null;
  if (!apart) return [{ value: version, caption: range ? `for ${range}` : "Latest version", text: true }];
  return [{ value: version, caption: "Latest version", text: true }, ...(range ? [{ value: anyStyle(range), caption: "Game versions", text: true } as const] : [])];
}

/** What the banner counts, in order. */
export function resourceCells(data: ResourceBannerData, apart: boolean): CounterCell[] {
  const downloads: CounterCell = { ...numberCell(data.downloads, "Downloads"), mark: "download" };
  if (data.of === "author") return [downloads, ...esteemCell(data), numberCell(data.projects, data.projects === 1 ? "Project" : "Projects")];
  return [downloads, ...esteemCell(data), ...releaseCells(data, apart)];
}

/** "by author on Site"; an author's banner: "Author on Site". */
export function byline(data: ResourceBannerData): string {
  const site = stripFormatting(data.site);
  if (data.of === "author") return `Author on ${site}`;
  return data.author ? `by ${stripFormatting(data.author)} on ${site}` : `on ${site}`;
}

/** A person (head and shoulders) on a rounded well: an author without an icon of their own. */
function drawPersonIcon(surface: Surface, box: Box, well: Color, ink: Color): void {
  const { x, y, width: s } = box;
  surface.fill(new Path().roundRect(x, y, s, box.height, s * 0.22), solid(well));
  const clip = surface.mask(new Path().roundRect(x, y, s, box.height, s * 0.22));
  surface.fill(new Path().circle(x + s * 0.5, y + s * 0.38, s * 0.17), solid(ink));
  surface.fill(new Path().circle(x + s * 0.5, y + s * 0.98, s * 0.36), solid(ink), { clip });
}

/** The icon in its box, rounded as the default icons are; else the default icon (a puzzle piece, a person for an author). */
function drawIcon(surface: Surface, data: ResourceBannerData, box: Box, palette: Palette): void {
  if (data.icon) {
    surface.image(data.icon, box, { clip: surface.mask(new Path().roundRect(box.x, box.y, box.width, box.height, box.width * 0.22)) });
  } else if (data.of === "author") drawPersonIcon(surface, box, palette.well, palette.accent);
  else drawPluginIcon(surface, box, palette.well, palette.accent);
}


export const resource: ResourceTemplate<ResourceLayout> = {
  key: "resource",
  kind: "market",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    // Without the icon the text starts where the icon would have.
    const left = (slot: TextSlot): TextSlot => besideIcon(slot, layout.icon, shows(data, "icon"));
    if (shows(data, "icon")) drawIcon(surface, data, layout.icon, palette);
    textInSlot(surface, left(layout.name), stripFormatting(data.name), SANS_BOLD, palette.text);
    textInSlot(surface, left(layout.byline), byline(data), { face: "sans" }, palette.muted);
    if (layout.divider) drawDivider(surface, layout.divider, palette);
    const slots = layout.versionsApart ? BOX_SLOTS : SLOTS;
    drawCounters(surface, layout.counters, resourceCells(data, layout.versionsApart).slice(0, slots), data.numbers ?? "compact", palette, slots, "No figures published");
  },
};
