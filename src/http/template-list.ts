// What GET /api/templates answers (and the designer page embeds): each
// template of the banner domain with its sizes, themes, the fields it draws
// and the query parameters it reads (from the parameter table); the
// background presets and the parts hide= may name.

import { Type, type Static } from "@sinclair/typebox";
import { BACKGROUND_PRESETS } from "../banner/backgrounds.ts";
import { BANNER_ELEMENTS } from "../banner/model.ts";
import { DEFAULT_TEMPLATE, templates, type TemplateInfo } from "../banner/templates/catalogue.ts";
import { THEMES } from "../banner/theme.ts";
import { EDITIONS } from "../minecraft/edition.ts";
import { BANNER_PARAMETERS, parametersReadBy, sizeName } from "./banner-parameters.ts";
import { literals } from "./openapi/responses.ts";

export const TEMPLATE_LIST_SCHEMA = Type.Object(
  {
    default_template: Type.String(),
    backgrounds: Type.Array(
      Type.Object({
        name: Type.String({ description: "The value of background=" }),
        title: Type.String(),
        kind: literals(["texture", "gradient", "none"], { description: "Block texture, gradient, or nothing drawn (transparent)" }),
      }),
      { description: "The background presets, in the order offered; background= also takes a colour" },
    ),
    hide: Type.Array(Type.String(), { description: "What hide= may name (a comma list of them): the parts a template leaves out" }),
    templates: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        description: Type.String(),
        kind: literals(["server", "plugin", "market"], { description: "What it draws: a server (four data modes), a plugin record, or a marketplace's project or author (site=, project= or author=)" }),
        editions: Type.Array(literals(EDITIONS), {
          description: "The games whose servers it draws (edition=; each with its own fallback icon and default port); none for a plugin template",
        }),
        sizes: Type.Array(Type.String({ description: "WIDTHxHEIGHT" })),
        default_size: Type.String(),
        themes: Type.Array(Type.String(), { description: "Its own (default_theme) first" }),
        default_theme: Type.String(),
        uses: Type.Array(Type.String(), { description: "The fields it draws" }),
        parameters: Type.Array(Type.String(), { description: "The query parameters of GET /api/banner it reads" }),
      }),
    ),
  },
  { title: "TemplateList" },
);

/** The theme a template is drawn in unless asked otherwise leads. */
function themesOf(info: TemplateInfo): string[] {
  return [info.defaultTheme, ...THEMES.filter((theme) => theme !== info.defaultTheme)];
}

export const TEMPLATE_LIST: Static<typeof TEMPLATE_LIST_SCHEMA> = {
  default_template: DEFAULT_TEMPLATE,
  backgrounds: BACKGROUND_PRESETS.map(({ name, title, kind }) => ({ name, title, kind })),
  hide: [...BANNER_ELEMENTS],
  templates: [...templates.values()].map((info) => ({
    key: info.key,
    title: info.title,
    description: info.description,
    kind: info.kind,
    editions: info.kind === "server" ? [...EDITIONS] : [],
    sizes: info.sizes.map(sizeName),
    default_size: BANNER_PARAMETERS.size.default,
    themes: themesOf(info),
    default_theme: info.defaultTheme,
    uses: [...info.uses],
    parameters: parametersReadBy(info),
  })),
};
