// The banner goldens in docs/gallery: per template one contact sheet, a row
// per size (1200x300 at half size, as pages show it), dark then light, drawn
// at scale 1 from the realistic sample (what the deployed plugin pushes).

import { BANNER_SIZES, type Theme } from "../../../src/banner/model.ts";
import { renderBanner, templates } from "../../../src/banner/templates/index.ts";
import { pluginRealistic, realistic } from "../../support/banner-samples.ts";
import { contactSheet } from "../../support/contact-sheet.ts";
import type { Scene } from "./gallery-scenes.ts";

const THEMES: readonly Theme[] = ["dark", "light"];

export const BANNER_SCENES: Scene[] = [...templates.values()].map((info) => ({
  file: `banner-${info.key}.png`,
  title: `${info.key}: four sizes, dark and light, realistic data`,
  draw: () => {
    const data = info.kind === "server" ? realistic : pluginRealistic;
    return contactSheet(BANNER_SIZES.map((size) => THEMES.map((theme) => renderBanner(info.key, data, { size, theme, scale: 1 }))));
  },
}));
