// A banner's MOTD lines follow one rule in one place (src/banner/motd-lines.ts,
// issue 39 point 1): the server's lines, or for an offline server that sent
// none the game's red "Can't connect to server" (or "Sleeping (host)" when a
// host answered for it: issue 44); none when the MOTD is hidden.
// Every server template draws what that rule gives: an offline server without
// a MOTD draws as if the stand-in were its MOTD, in every template, size and
// theme (before, card and minimal-status drew it plain and sparkline not at all).

import { describe, expect, test } from "bun:test";
import { bannerMotdLines } from "../../src/banner/motd-lines.ts";
import { BANNER_SIZES, type ServerBannerData, type Theme } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { motdLineRuns } from "../../src/minecraft/motd.ts";
import { offline } from "../support/banner-samples.ts";

const SERVER_KEYS = [...templates.values()].filter((info) => info.kind === "server").map((info) => info.key);
const THEMES: readonly Theme[] = ["dark", "light"];
/** The game's words and colour (§c, red) for a server it cannot reach. */
const STAND_IN = "§cCan't connect to server";
/** A sleeping server's stand-in (§6, gold). */
const SLEEPING = "§6Sleeping (Aternos)";

describe("bannerMotdLines", () => {
  const online: ServerBannerData = { ...offline, status: "online" };

  test("the server's lines, each as runs, in their places (a blank first line stays first)", () => {
    expect(bannerMotdLines({ ...online, motd: ["§aWelcome", "§7Islands"] })).toEqual([motdLineRuns("§aWelcome"), motdLineRuns("§7Islands")]);
    expect(bannerMotdLines({ ...online, motd: ["  ", "§7Islands"] })).toEqual([[], motdLineRuns("§7Islands")]);
    // Offline with a MOTD of its own: that MOTD, not the stand-in.
    expect(bannerMotdLines({ ...offline, motd: ["§aWelcome", ""] })).toEqual([motdLineRuns("§aWelcome"), []]);
  });

  test("offline without a MOTD: the game's red \"Can't connect to server\"; online: nothing", () => {
    for (const blank of [["", ""], ["   ", "§r§l "], ["§a", ""]] as const) {
      expect(bannerMotdLines({ ...offline, motd: blank })).toEqual([motdLineRuns(STAND_IN)]);
      expect(bannerMotdLines({ ...online, motd: blank })).toEqual([]);
    }
    expect(bannerMotdLines(offline)[0]![0]).toMatchObject({ text: "Can't connect to server", color: "#ff5555" });
    // Spaces that draw (underlined) are a MOTD.
    expect(bannerMotdLines({ ...offline, motd: ["§n    ", ""] })).toEqual([motdLineRuns("§n    "), []]);
  });

  test("offline without a MOTD, its host having answered for it: \"Sleeping (host)\" in gold in the stand-in's place", () => {
    const sleeping = { ...offline, sleepingHost: "Aternos" };
    expect(bannerMotdLines(sleeping)).toEqual([motdLineRuns(SLEEPING)]);
    expect(bannerMotdLines(sleeping)[0]![0]).toMatchObject({ text: "Sleeping (Aternos)", color: "#ffaa00" });
    // A MOTD of its own, an online status (server_status=online) or a hidden MOTD: as for any server.
    expect(bannerMotdLines({ ...sleeping, motd: ["§aWelcome", ""] })).toEqual([motdLineRuns("§aWelcome"), []]);
    expect(bannerMotdLines({ ...sleeping, status: "online" })).toEqual([]);
    expect(bannerMotdLines({ ...sleeping, hidden: new Set(["motd"] as const) })).toEqual([]);
  });

  test("a hidden MOTD: nothing, the stand-in included", () => {
    const hidden = new Set(["motd"] as const);
    expect(bannerMotdLines({ ...offline, hidden })).toEqual([]);
    expect(bannerMotdLines({ ...online, motd: ["§aWelcome", ""], hidden })).toEqual([]);
  });
});

describe("every server template draws the lines the rule gives", () => {
  test("offline without a MOTD draws as with the stand-in (or the sleeping line) for its MOTD: every template, size and theme", () => {
    const differing: string[] = [];
    for (const key of SERVER_KEYS) {
      for (const size of BANNER_SIZES) {
        for (const theme of THEMES) {
          const options = { size, theme, scale: 1 as const };
          const without = renderBanner(key, offline, options), standIn = renderBanner(key, { ...offline, motd: [STAND_IN, ""] }, options);
          if (Buffer.compare(without.data, standIn.data) !== 0) differing.push(`${key} ${size.width}x${size.height} ${theme}`);
          const sleeping = renderBanner(key, { ...offline, sleepingHost: "Aternos" }, options);
          if (Buffer.compare(sleeping.data, renderBanner(key, { ...offline, motd: [SLEEPING, ""] }, options).data) !== 0) differing.push(`${key} ${size.width}x${size.height} ${theme} sleeping`);
        }
      }
    }
    expect(differing).toEqual([]);
  });
});
