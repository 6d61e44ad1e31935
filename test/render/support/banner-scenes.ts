// The banner goldens in docs/gallery: per template one contact sheet, a row
// per size (1200x300 at half size, as pages show it), dark then light, drawn
// at scale 1 from the realistic sample (what the deployed plugin pushes);
// and one sheet of the default template on every background preset.

import { BACKGROUND_PRESETS } from "../../../src/banner/backgrounds.ts";
import { BANNER_SIZES, type Theme } from "../../../src/banner/model.ts";
import { DEFAULT_TEMPLATE, renderBanner, templates } from "../../../src/banner/templates/index.ts";
import { pluginRealistic, realistic } from "../../support/banner-samples.ts";
import { contactSheet } from "../../support/contact-sheet.ts";
import type { Scene } from "./gallery-scenes.ts";

const THEMES: readonly Theme[] = ["dark", "light"];

const TEMPLATE_SCENES: Scene[] = [...templates.values()].map((info) => ({
  file: `banner-${info.key}.png`,
  title: `${info.key}: four sizes, dark and light, realistic data`,
  draw: () => {
    const data = info.kind === "server" ? realistic : pluginRealistic;
    return contactSheet(BANNER_SIZES.map((size) => THEMES.map((theme) => renderBanner(info.key, data, { size, theme, scale: 1 }))));
  },
}));

/** The default template at the default size on each preset, a row each, dark then light. */
const BACKGROUND_SCENE: Scene = {
  file: "banner-backgrounds.png",
  title: `${DEFAULT_TEMPLATE} 468x60 on every background preset, dark and light, realistic data`,
  draw: () => contactSheet(BACKGROUND_PRESETS.map((preset) =>
    THEMES.map((theme) => renderBanner(DEFAULT_TEMPLATE, realistic, { size: BANNER_SIZES[0], theme, scale: 1, background: preset.name })))),
};

export const BANNER_SCENES: Scene[] = [...TEMPLATE_SCENES, BACKGROUND_SCENE];
