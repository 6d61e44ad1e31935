// What of a banner's text the faces' tables do not shape: the plan carries it
// (src/image-plan.ts) and the draw cost charges for it, since fontkit shapes
// and outlines those characters a glyph at a time. Counted on the answering
// thread from the resolved values, which must not load a font: every text a
// template may draw, `§` codes left out (they are read, not drawn). A part the
// owner hid is counted still: the cost errs on the side of the budget.

import { stripFormatting } from "../minecraft/format.ts";
import { charactersBeyondTables } from "../render/basics.ts";
import type { PluginBannerData, ResourceBannerData, ServerBannerData } from "./model.ts";

type DrawnText =
  | Pick<ServerBannerData, "name" | "motd" | "version" | "address">
  | Pick<PluginBannerData, "name" | "version" | "counters">
  | Pick<ResourceBannerData, "name" | "site" | "author" | "version" | "gameVersions">;

/** The characters beyond the tables in the texts `data` draws. */
export function bannerTextBeyondTables(data: DrawnText): number {
  const texts = "counters" in data
    ? [data.name, data.version, ...data.counters.map(([name]) => name)]
    : "site" in data ? [data.name, data.site, data.author, data.version, data.gameVersions]
    : [data.name, ...data.motd, data.version, data.address];
  let count = 0;
  for (const text of texts) if (text) count += charactersBeyondTables(stripFormatting(text));
  return count;
}
