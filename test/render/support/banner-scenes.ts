// The banner goldens in docs/gallery: per template one contact sheet, a row
// per size (1200x300 at half size, as pages show it), dark then light, drawn
// at scale 1 from the realistic sample (what the deployed plugin pushes);
// per template one sheet of it on every background preset; and one sheet of
// the default template's strip on every preset. `transparent` is shown on a
// page of its theme's colour (onPage).

import { BACKGROUND_PRESETS, type BackgroundPresetName } from "../../../src/banner/backgrounds.ts";
import { BANNER_SIZES, type BannerSize, type Theme } from "../../../src/banner/model.ts";
import { DEFAULT_TEMPLATE, templates, type TemplateInfo } from "../../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../../src/banner/templates/index.ts";
import { Pixmap, drawImage, parseHexColor } from "../../../src/render/index.ts";
import { hytale, hytaleUnknown, network, resourceAuthor, resourceRated, resourceStress, sampleFor } from "../../support/banner-samples.ts";
import { contactSheet } from "../../support/contact-sheet.ts";
import type { Scene } from "./gallery-scenes.ts";

const THEMES: readonly Theme[] = ["dark", "light"];
const [STRIP, LEADERBOARD, BOX] = BANNER_SIZES;

function drawSample(info: TemplateInfo, size: BannerSize, theme: Theme, background?: BackgroundPresetName): Pixmap {
  const data = sampleFor(info.kind);
  const banner = renderBanner(info.key, data, { size, theme, scale: 1, background });
  return background === "transparent" ? onPage(banner, theme) : banner;
}

/**
 * Pages a transparent banner is shown on (here and in
 * bench/mcbanners-side-by-side.ts): its theme's text is made for a page like
 * its own (GitHub's dark page, a white one), and on a sheet's mid grey the
 * dark theme's softer text would all but vanish.
 */
const PAGES: Record<Theme, string> = { dark: "#0d1117", light: "#ffffff" };
/** Page shown around a transparent banner, so its edge is seen to be the page's. */
const PAGE_MARGIN = 6;

export function onPage(banner: Pixmap, theme: Theme): Pixmap {
  const page = new Pixmap(banner.width + 2 * PAGE_MARGIN, banner.height + 2 * PAGE_MARGIN);
  page.fill(parseHexColor(PAGES[theme])!);
  drawImage(page, banner, { x: PAGE_MARGIN, y: PAGE_MARGIN, width: banner.width, height: banner.height });
  return page;
}

const TEMPLATE_SCENES: Scene[] = [...templates.values()].map((info) => ({
  file: `banner-${info.key}.png`,
  title: `${info.key}: four sizes, dark and light, realistic data`,
  draw: () => contactSheet(BANNER_SIZES.map((size) => THEMES.map((theme) => drawSample(info, size, theme)))),
}));

/** Space between the stacked strips: the contact sheet's page shows through it. */
const STACK_GAP = 16;

/** Images one above the other on a transparent column, so two strips share the height of a box. */
function stacked(images: readonly Pixmap[]): Pixmap {
  const width = Math.max(...images.map((image) => image.width));
  const height = images.reduce((sum, image) => sum + image.height, 0) + STACK_GAP * (images.length - 1);
  const column = new Pixmap(width, height);
  let y = 0;
  for (const image of images) {
    drawImage(column, image, { x: 0, y, width: image.width, height: image.height });
    y += image.height + STACK_GAP;
  }
  return column;
}

/**
 * Each template on every preset, a row per preset: the 468x60 strip dark
 * above light (small text on the texture, the hard case), then the 300x250
 * box dark and light (the most of the texture behind a layout). 728x90 and
 * 1200x300 draw on the same panels; banner-<template>.png shows their layouts.
 */
const PRESET_SCENES: Scene[] = [...templates.values()].map((info) => ({
  file: `banner-${info.key}-backgrounds.png`,
  title: `${info.key} on every background preset: 468x60 dark and light, 300x250 dark and light, realistic data`,
  draw: () => contactSheet(BACKGROUND_PRESETS.map(({ name }) => [
    stacked(THEMES.map((theme) => drawSample(info, STRIP, theme, name))),
    ...THEMES.map((theme) => drawSample(info, BOX, theme, name)),
  ])),
}));

/** The default template at the default size on each preset, a row each, dark then light. */
const BACKGROUND_SCENE: Scene = {
  file: "banner-backgrounds.png",
  title: `${DEFAULT_TEMPLATE} 468x60 on every background preset, dark and light, realistic data`,
  draw: () => contactSheet(BACKGROUND_PRESETS.map(({ name }) =>
    THEMES.map((theme) => drawSample(templates.get(DEFAULT_TEMPLATE)!, STRIP, theme, name)))),
};

/** Every server template drawing a network (data_mode=network): a row per template, 468x60 and 300x250 dark, 468x60 light. */
const NETWORK_SCENE: Scene = {
  file: "banner-network.png",
  title: "every server template drawing a network of four (three online, one stale): 468x60 and 300x250 dark, 468x60 light",
  draw: () => contactSheet([...templates.values()].filter((info) => info.kind === "server").map((info) => [
    renderBanner(info.key, network, { size: STRIP, theme: "dark", scale: 1 }),
    renderBanner(info.key, network, { size: BOX, theme: "dark", scale: 1 }),
    renderBanner(info.key, network, { size: STRIP, theme: "light", scale: 1 }),
  ])),
};

/**
 * Every server template drawing Hytale servers, a row per template: one
 * whose plugin pushes (players, version, its join address without :5520,
 * Hytale's fallback icon) at 468x60 dark and light and 300x250 dark, and one
 * asked without a query plugin (players unknown, said in words) at 468x60
 * and 728x90 dark and 300x250 light.
 */
const HYTALE_SCENE: Scene = {
  file: "banner-hytale.png",
  title: "every server template drawing Hytale servers: pushed (468x60 dark and light, 300x250 dark), players unknown (468x60 and 728x90 dark, 300x250 light)",
  draw: () => contactSheet([...templates.values()].filter((info) => info.kind === "server").map((info) => [
    stacked([
      renderBanner(info.key, hytale, { size: STRIP, theme: "dark", scale: 1 }),
      renderBanner(info.key, hytale, { size: STRIP, theme: "light", scale: 1 }),
      renderBanner(info.key, hytaleUnknown, { size: STRIP, theme: "dark", scale: 1 }),
    ]),
    renderBanner(info.key, hytale, { size: BOX, theme: "dark", scale: 1 }),
    renderBanner(info.key, hytaleUnknown, { size: BOX, theme: "light", scale: 1 }),
    renderBanner(info.key, hytaleUnknown, { size: LEADERBOARD, theme: "dark", scale: 1 }),
  ])),
};

/**
 * The resource template beyond its realistic Modrinth project (banner-resource.png), a row
 * each: a rated SpigotMC resource without an icon, an author's projects totalled, and a
 * CurseForge project at every limit (names and version past any room, no rating or
 * followers): 468x60 dark and light stacked, 300x250 dark, 728x90 light.
 */
const RESOURCE_SCENE: Scene = {
  file: "banner-resource-variants.png",
  title: "resource: a rated resource, an author's totals, everything at its longest (468x60 dark and light, 300x250 dark, 728x90 light)",
  draw: () => contactSheet([resourceRated, resourceAuthor, resourceStress].map((data) => [
    stacked(THEMES.map((theme) => renderBanner("resource", data, { size: STRIP, theme, scale: 1 }))),
    renderBanner("resource", data, { size: BOX, theme: "dark", scale: 1 }),
    renderBanner("resource", data, { size: LEADERBOARD, theme: "light", scale: 1 }),
  ])),
};

export const BANNER_SCENES: Scene[] = [...TEMPLATE_SCENES, ...PRESET_SCENES, BACKGROUND_SCENE, NETWORK_SCENE, HYTALE_SCENE, RESOURCE_SCENE];
