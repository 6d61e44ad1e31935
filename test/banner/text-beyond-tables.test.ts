// A banner plan weighs the text it will draw beyond the faces' tables
// (draw-cost.ts charges it): counted on the answering thread from the
// resolved values, § codes left out (they are not drawn).

import { describe, expect, test } from "bun:test";
import { BannerService } from "../../src/banner/banner-service.ts";
import { bannerTextBeyondTables } from "../../src/banner/text-beyond-tables.ts";
import { parseBannerQuery } from "../../src/http/banner-query.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";

const banners = new BannerService({
  store: openSqliteStore(":memory:"),
  lookup: { lookup: () => { throw new Error("no lookups here"); } },
  now: () => Date.UTC(2026, 10, 1),
  staleAfterMs: 900_000,
});
const plan = (query: Record<string, string>) => banners.prepare(parseBannerQuery(query));

describe("a banner plan's text beyond the tables", () => {
  test("Latin text with § codes, an address and the defaults: none", async () => {
    const latin = await plan({ server_name: "Skyblock Network", motd_line_1: "§6§lSKYBLOCK §7- §aNew season!", motd_line_2: "§bplay.example.com", ip_address: "play.example.com" });
    expect(latin.textBeyondTables).toBe(0);
    expect((await plan({})).textBeyondTables).toBe(0);
  });

  test("each character of the name and the MOTD lines the tables lack, whatever the format or size", async () => {
    const query = { server_name: "日本のサーバー", motd_line_1: "§a今すぐ参加", motd_line_2: "Café", ip_address: "play.example.com" };
    expect((await plan(query)).textBeyondTables).toBe(7 + 5 + 1);
    expect((await plan({ ...query, format: "webp", size: "1200x300", scale: "2" })).textBeyondTables).toBe(13);
  });

  test("a plugin banner: its name, version and counters' names", () => {
    const plugin = { name: "ランキング", version: "1.0 β", counters: [["サーバー", 3], ["players", null]] as const, active: true };
    expect(bannerTextBeyondTables(plugin)).toBe(5 + 1 + 4);
  });
});
