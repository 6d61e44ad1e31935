// With hide=status nothing on a banner tells the status (issue 39, point 1):
// not the status word, and not what else an offline server draws (the game's
// "Can't connect to server", a grey chart or bar, the cross for signal bars,
// an empty count). The rule, checked as the server draws: the same manual
// values resolved and drawn to PNG (drawBannerJob), offline and online, are
// the same bytes for every server template, size and theme, with a MOTD or
// none, with counts or none.

import { describe, expect, test } from "bun:test";
import { BannerCaches } from "../../src/banner/banner-caches.ts";
import { drawBannerJob } from "../../src/banner/banner-jobs.ts";
import { BANNER_SIZES, type BannerSize, type Theme } from "../../src/banner/model.ts";
import { resolveServer, type ManualValues } from "../../src/banner/resolve-banner-data.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";

const SERVER_KEYS = [...templates.values()].filter((info) => info.kind === "server").map((info) => info.key);
const THEMES: readonly Theme[] = ["dark", "light"];
const NOW = Date.UTC(2026, 10, 21, 11, 0);
const caches = new BannerCaches();

/** The manual values apart from the status: a MOTD given or not, counts given or not. */
const VALUES: Record<string, ManualValues> = {
  "motd and counts": { name: "Skyblock", motd1: "§aWelcome", motd2: "§7Islands", online: 12, max: 100, address: "play.example.net" },
  "counts, no motd": { name: "Skyblock", online: 12, max: 100, address: "play.example.net" },
  "motd, no counts": { name: "Skyblock", motd1: "§aWelcome", motd2: "§7Islands", address: "play.example.net" },
  "neither": { name: "Skyblock" },
};

function png(key: string, manual: ManualValues, size: BannerSize, theme: Theme): Promise<Uint8Array> {
  const data = resolveServer({ mode: "manual", manual, facts: null, now: NOW, hidden: new Set(["status"]) });
  return drawBannerJob({ kind: "banner", template: key, data, options: { size, theme, scale: 1 }, format: "png" }, caches);
}

describe("hide=status", () => {
  test("offline and online draw the same PNG, byte for byte: every server template, size and theme", async () => {
    const telling: string[] = [];
    for (const key of SERVER_KEYS) {
      for (const size of BANNER_SIZES) {
        for (const theme of THEMES) {
          for (const [values, manual] of Object.entries(VALUES)) {
            const offline = await png(key, { ...manual, status: "offline" }, size, theme);
            const online = await png(key, { ...manual, status: "online" }, size, theme);
            if (Buffer.compare(offline, online) !== 0) telling.push(`${key} ${size.width}x${size.height} ${theme} ${values}`);
          }
        }
      }
    }
    expect(telling).toEqual([]);
  });
});
