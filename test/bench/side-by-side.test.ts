// The pieces of bench/mcbanners-side-by-side.ts that decide what it reports:
// the live server both services look up answers as a Paper server does, and
// the contrast measured from two drawings is the text's own.

import { describe, expect, test } from "bun:test";
import { brokenImage, captioned, textContrast } from "../../bench/side-by-side/images.ts";
import { startLiveServer, typedAddress } from "../../bench/side-by-side/live-server.ts";
import { contrastRatio } from "../../src/banner/contrast.ts";
import { Pixmap, drawTextLine, layoutText, linearGradient, fillPath, Path, parseHexColor, sansFamily, solid, type Color } from "../../src/render/index.ts";
import { runCli } from "../support/process.ts";

const color = (hex: string): Color => parseHexColor(hex)!;

/** A 300x60 banner: `background` painted, then `words` at 12 px in `ink`, as small banner text is. */
function banner(words: string, ink: Color, background: (p: Pixmap) => void): Pixmap {
  const p = new Pixmap(300, 60);
  background(p);
  drawTextLine(p, layoutText(words, { family: sansFamily(), size: 12 }), 10, 36, ink);
  return p;
}

describe("textContrast", () => {
  const plain = (hex: string) => (p: Pixmap) => p.fill(color(hex));

  test("small grey text on white: the ink's own ratio, not its anti-aliased edges'", () => {
    const ink = color("#767676"), page = color("#ffffff");
    const measured = textContrast(banner("Skyblock Paradise", ink, plain("#ffffff")), banner("Northwind Castles", ink, plain("#ffffff")))!;
    expect(measured).toBeCloseTo(contrastRatio(ink, page), 0);
    expect(measured).toBeGreaterThan(4.2);
  });

  test("light text on a gradient lands between its ratios at the two ends", () => {
    const ink = color("#f1f5f9");
    const gradient = (p: Pixmap) => fillPath(p, new Path().rect(0, 0, 300, 60), linearGradient(0, 0, 300, 0, [
      { offset: 0, color: color("#0f172a") }, { offset: 1, color: color("#475569") },
    ]));
    const measured = textContrast(banner("Skyblock Paradise", ink, gradient), banner("Northwind Castles", ink, gradient))!;
    expect(measured).toBeLessThanOrEqual(contrastRatio(ink, color("#0f172a")) + 0.1);
    expect(measured).toBeGreaterThan(contrastRatio(ink, color("#475569")) - 0.5);
  });

  test("the same drawing twice, or images of different sizes, measure nothing", () => {
    const same = banner("Skyblock", color("#000000"), plain("#ffffff"));
    expect(textContrast(same, same)).toBeNull();
    expect(textContrast(same, new Pixmap(10, 10))).toBeNull();
  });
});

describe("sheet cells", () => {
  test("a caption goes under the image; a 1200-wide banner is shown at half size", () => {
    const wide = new Pixmap(1200, 300);
    fillPath(wide, new Path().rect(0, 0, 1200, 300), solid(color("#ff0000")));
    const cell = captioned(wide, "Pennant, minimal-status 1200x300 dark");
    expect(cell.width).toBe(600);
    expect(cell.height).toBeGreaterThan(150);
    expect(cell.pixel(10, 10)).toEqual(color("#ff0000"));
    expect(cell.pixel(10, cell.height - 2)).not.toEqual(color("#ff0000"));
  });

  test("a failed image keeps its place at the size the page expects", () => {
    const box = brokenImage(300, 100, "HTTP 404, no image");
    expect([box.width, box.height]).toEqual([300, 100]);
  });
});

describe("the live server", () => {
  test("typed as players type it: the port only when not the game's default", () => {
    expect(typedAddress("127.0.0.2", 25565)).toBe("127.0.0.2");
    expect(typedAddress("127.0.0.1", 40123)).toBe("127.0.0.1:40123");
  });

  test("Pennant's own lookup reads it as a Paper 1.21.4 server: 3/50, two coloured MOTD lines, a favicon; the offline address is refused", async () => {
    const live = await startLiveServer();
    try {
      const online = await runCli(["lookup", typedAddress(live.host, live.port)], { PENNANT_LOOKUP_PRIVATE: "on" });
      expect(online.code).toBe(0);
      const status = JSON.parse(online.stdout);
      expect(status.version.name_clean).toBe("Paper 1.21.4");
      expect(status.players).toMatchObject({ online: 3, max: 50 });
      expect(status.motd.clean).toBe("Welcome to Skyblock Paradise!\nIslands, quests and weekly events");
      expect(status.motd.html).toContain("#ffaa00");
      expect(status.icon).toStartWith("data:image/png;base64,");
      const offline = await runCli(["lookup", typedAddress(live.offline.host, live.offline.port)], { PENNANT_LOOKUP_PRIVATE: "on" });
      expect(offline.code).toBe(1);
    } finally {
      await live.peer.close();
    }
  });
});
