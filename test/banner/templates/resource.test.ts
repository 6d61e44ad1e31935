// The resource template drawn for real at every size and theme and read back
// from its pixels: the name and byline in their slots, every figure drawn
// (downloads with an arrow and the rating with a star in the accent, or else the followers,
// the version and game versions; an author's projects), the icon drawn where
// the layout puts it and the default one without it, hide= for the icon and
// the version, and a long version cut rather than shrinking the figures.

import { describe, expect, test } from "bun:test";
import { BANNER_SIZES, type BannerOptions, type BannerSize, type ResourceBannerData } from "../../../src/banner/model.ts";
import { renderBanner } from "../../../src/banner/templates/index.ts";
import type { ResourceLayout } from "../../../src/banner/templates/resource.ts";
import { THEMES } from "../../../src/banner/theme.ts";
import { parseHexColor, type Pixmap } from "../../../src/render/index.ts";
import { projectIcon, resourceAuthor, resourceRated, resourceRealistic } from "../../support/banner-samples.ts";
import { area, countNear, differing, layoutOf, sizeName, textRow } from "./template-pixels.ts";

const ACCENT = parseHexColor("#ff00cc")!;
const draw = (data: ResourceBannerData, size: BannerSize, options: Partial<BannerOptions> = {}): Pixmap =>
  renderBanner("resource", data, { size, theme: "dark", scale: 1, accent: ACCENT, ...options });
const layout = (size: BannerSize) => layoutOf<ResourceLayout>("resource", size);
const hiding = (data: ResourceBannerData, ...parts: Array<"icon" | "version">) => ({ ...data, hidden: new Set(parts) });

describe("resource", () => {
  test("the name and byline are drawn in their slots, at every size and theme", () => {
    for (const size of BANNER_SIZES) {
      for (const theme of THEMES) {
        const { layout: l, factor } = layout(size);
        const base = draw(resourceRealistic, size, { theme });
        const renamed = draw({ ...resourceRealistic, name: "Other Paths" }, size, { theme });
        const byOther = draw({ ...resourceRealistic, author: "SomeoneElse" }, size, { theme });
        const nameRow = area(textRow(l.name.x, l.name.width, l.name.baseline, l.name.size.max), factor, base);
        const bylineRow = area(textRow(l.byline.x, l.byline.width, l.byline.baseline, l.byline.size.max), factor, base);
        const at = `${sizeName(size)} ${theme}`;
        expect({ at, name: differing(base, renamed, nameRow) > 20, whole: differing(base, renamed) === differing(base, renamed, nameRow) })
          .toEqual({ at, name: true, whole: true });
        expect({ at, byline: differing(base, byOther, bylineRow) > 20, whole: differing(base, byOther) === differing(base, byOther, bylineRow) })
          .toEqual({ at, byline: true, whole: true });
      }
    }
  });

  test("every figure is drawn inside the counters' box, at every size", () => {
    const changes: Array<[string, Partial<ResourceBannerData>]> = [
      ["downloads", { downloads: 7 }],
      ["rating", { rating: { average: 2.1, votes: 312 } }],
      ["votes", { rating: { average: 4.72, votes: 9 } }],
      ["version", { version: "9.9.9" }],
      ["game versions", { gameVersions: "1.19-1.20" }],
    ];
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const base = draw(resourceRated, size);
      // A pixel of margin: a right-aligned value's last edge is smoothed into the pixel past the box's edge.
      const box = area(l.counters.box, factor, base, 1);
      for (const [what, change] of changes) {
        const other = draw({ ...resourceRated, ...change }, size);
        const at = sizeName(size);
        expect({ at, what, drawn: differing(base, other, box) > 10, only: differing(base, other) === differing(base, other, box) })
          .toEqual({ at, what, drawn: true, only: true });
      }
    }
  });

  test("downloads get an arrow in the accent, a rating a star beside it; followers (no rating) no star", () => {
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const rated = draw(resourceRated, size), followed = draw({ ...resourceRated, rating: null }, size);
      const accent = (p: Pixmap) => countNear(p, ACCENT, area(l.counters.box, factor, p));
      const at = sizeName(size);
      expect({ at, arrow: accent(followed) > 4, star: accent(rated) > accent(followed) + 4 }).toEqual({ at, arrow: true, star: true });
      // Followers are drawn where the site counts them: another count, other pixels.
      const more = draw({ ...resourceRealistic, followers: 987 }, size);
      expect({ at, followers: differing(draw(resourceRealistic, size), more) > 10 }).toEqual({ at, followers: true });
    }
  });

  test("an author's banner counts their projects, and draws no version", () => {
    for (const size of BANNER_SIZES) {
      const base = draw(resourceAuthor, size);
      const at = sizeName(size);
      expect({ at, projects: differing(base, draw({ ...resourceAuthor, projects: 3 }, size)) > 10 }).toEqual({ at, projects: true });
      expect({ at, version: differing(base, draw({ ...resourceAuthor, version: "1.0.0", gameVersions: "1.8-1.21" }, size)) }).toEqual({ at, version: 0 });
    }
  });

  test("the icon is drawn in its box; without one the default icon; hide=icon gives its room to the text", () => {
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const withIcon = draw(resourceRealistic, size), without = draw({ ...resourceRealistic, icon: null }, size);
      const box = area(l.icon, factor, withIcon);
      const at = sizeName(size);
      expect({ at, icon: differing(withIcon, without, box) > box.width * box.height * 0.3, only: differing(withIcon, without) === differing(withIcon, without, box) })
        .toEqual({ at, icon: true, only: true });
      // The default icon is drawn (in the accent), not a hole.
      expect({ at, fallback: countNear(without, ACCENT, box) > 20 }).toEqual({ at, fallback: true });
      const hidden = draw(hiding(resourceRealistic, "icon"), size);
      expect({ at, gone: countNear(hidden, ACCENT, box) }).toEqual({ at, gone: 0 });
      // The name moves left into the icon's room.
      const row = area(textRow(l.icon.x, l.name.x - l.icon.x, l.name.baseline, l.name.size.max), factor, hidden);
      expect({ at, moved: differing(hidden, withIcon, row) > 20 }).toEqual({ at, moved: true });
    }
  });

  test("an icon of any size is scaled into its box", () => {
    const size = BANNER_SIZES[0];
    const { layout: l, factor } = layout(size);
    const small = draw({ ...resourceRealistic, icon: projectIcon() }, size);
    const box = area(l.icon, factor, small);
    // The icon's teal fills the box's middle whatever its size.
    const teal = small.pixel(box.x + Math.floor(box.width * 0.2), box.y + Math.floor(box.height * 0.5));
    expect(teal.g).toBeGreaterThan(teal.r + 40);
  });

  test("hide=version leaves the version and game versions out", () => {
    for (const size of BANNER_SIZES) {
      const hidden = draw(hiding(resourceRated, "version"), size);
      const at = sizeName(size);
      expect({ at, same: differing(hidden, draw(hiding({ ...resourceRated, version: "0.0.1", gameVersions: "1.7" }, "version"), size)) }).toEqual({ at, same: 0 });
    }
  });

  test("a long version is cut in its cell, not shrinking the figures beside it", () => {
    for (const size of BANNER_SIZES) {
      const { layout: l, factor } = layout(size);
      const short = draw(resourceRated, size), long = draw({ ...resourceRated, version: "12.4.0-SNAPSHOT+build.2291-neoforge" }, size);
      // The downloads cell: the first of the columns (a third of the box), or the first row of the box's list.
      const { box } = l.counters;
      const first = l.counters.arrangement === "columns"
        ? { ...box, width: box.width / 3 }
        : { ...box, height: box.height / 4 };
      const at = sizeName(size);
      expect({ at, downloads: differing(short, long, area(first, factor, short)) }).toEqual({ at, downloads: 0 });
    }
  });
});
