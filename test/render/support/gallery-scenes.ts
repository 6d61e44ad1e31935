// The drawings behind docs/gallery: each scene draws one image. The gallery
// test compares them with the committed files (golden.ts); only
// update-goldens.ts (`npm run gallery:update`) writes those files.

import { join } from "node:path";
import {
  Path, Pixmap, blurMask, drawFormattedLine, drawImage, drawMask, drawTextLine, ellipsize, fillPath, layoutFormatted,
  layoutText, linearGradient, pixelFamily, radialGradient, rasterizeToMask, rgba, rotate, sansFamily,
  solid, stretchToWidth, strokePath, compose, translate, type FontStyle,
} from "../../../src/render/index.ts";
import { parseFormatted, splitLines } from "../../../src/minecraft/format.ts";
import { BANNER_SCENES } from "./banner-scenes.ts";

export const GALLERY_DIR = join(import.meta.dir, "../../../docs/gallery");

export interface Scene {
  /** File name in docs/gallery. */
  file: string;
  title: string;
  draw: () => Pixmap;
}

/** A 16x16 pixel-art block, standing in for a server favicon. */
function pixelArt(): Pixmap {
  const palette = [[95, 159, 53], [121, 192, 72], [134, 96, 67], [110, 78, 54], [150, 108, 74]];
  const p = new Pixmap(16, 16);
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const noise = (x * 7 + y * 13 + ((x * y) % 5)) % 3;
      const grass = y < 4 || (y === 4 && noise !== 0);
      const [r, g, b] = palette[grass ? noise % 2 : 2 + noise]!;
      p.data.set([r!, g!, b!, 255], (y * 16 + x) * 4);
    }
  }
  return p;
}

function canvas(width: number, height: number, r: number, g: number, b: number): Pixmap {
  const p = new Pixmap(width, height);
  p.fill(rgba(r, g, b));
  return p;
}

const light = (width: number, height: number) => canvas(width, height, 246, 246, 250);
const dark = (width: number, height: number) => canvas(width, height, 24, 27, 38);
const WHITE = rgba(255, 255, 255);

export const GALLERY_SCENES: Scene[] = [
  {
    file: "shapes.png",
    title: "circles, curves, a star (even-odd), rounded rectangles",
    draw: () => {
      const p = light(480, 160);
      for (let i = 0; i < 6; i++) fillPath(p, new Path().circle(30 + i * 26, 40, 4 + i * 2.2), solid(rgba(220, 60 + i * 25, 40)));
      fillPath(p, new Path().moveTo(20, 150).cubicTo(60, 60, 120, 170, 170, 90).quadTo(120, 150, 60, 155).close(), solid(rgba(40, 110, 200)));
      const star = new Path();
      for (let i = 0; i < 5; i++) {
        const a = -Math.PI / 2 + (i * 4 * Math.PI) / 5;
        if (i === 0) star.moveTo(260 + 60 * Math.cos(a), 85 + 60 * Math.sin(a));
        else star.lineTo(260 + 60 * Math.cos(a), 85 + 60 * Math.sin(a));
      }
      fillPath(p, star.close(), solid(rgba(240, 180, 20)), { fillRule: "evenodd" });
      fillPath(p, new Path().roundRect(345, 20, 120, 50, 12), solid(rgba(60, 160, 90)));
      fillPath(p, new Path().roundRect(345.5, 85.5, 120, 60, [4, 20, 4, 20]), solid(rgba(130, 60, 170, 200)));
      fillPath(p, new Path().rect(0, 0, 1, 1).rect(0.2, 0, 0.3, 1), solid(rgba(20, 20, 20)), { transform: compose(compose(translate(-0.5, -0.5), rotate(0.5)), compose({ a: 30, b: 0, c: 0, d: 30, e: 0, f: 0 }, translate(420, 110))) });
      return p;
    },
  },
  {
    file: "strokes.png",
    title: "joins, caps, a circle and a curve",
    draw: () => {
      const p = light(480, 120);
      const zigzag = (x: number) => new Path().moveTo(x, 100).lineTo(x + 25, 25).lineTo(x + 50, 90).lineTo(x + 90, 40);
      strokePath(p, zigzag(15), { width: 10, join: "miter", cap: "butt" }, solid(rgba(200, 50, 50)));
      strokePath(p, zigzag(130), { width: 10, join: "round", cap: "round" }, solid(rgba(50, 120, 200)));
      strokePath(p, zigzag(245), { width: 10, join: "bevel", cap: "square" }, solid(rgba(60, 150, 70)));
      strokePath(p, new Path().circle(410, 60, 40), { width: 3 }, solid(rgba(40, 40, 40)));
      strokePath(p, new Path().moveTo(375, 90).cubicTo(395, 10, 425, 110, 445, 30), { width: 1.5, cap: "round" }, solid(rgba(220, 120, 0)));
      return p;
    },
  },
  {
    file: "gradients.png",
    title: "linear with three stops, radial, translucent",
    draw: () => {
      const p = light(480, 120);
      fillPath(p, new Path().roundRect(10, 10, 300, 100, 14), linearGradient(10, 10, 310, 110, [
        { offset: 0, color: rgba(255, 70, 90) }, { offset: 0.5, color: rgba(250, 200, 60) }, { offset: 1, color: rgba(40, 90, 230) },
      ]));
      fillPath(p, new Path().circle(390, 60, 50), radialGradient(375, 45, 60, [
        { offset: 0, color: rgba(255, 255, 255) }, { offset: 1, color: rgba(20, 60, 140) },
      ]));
      fillPath(p, new Path().rect(200, 30, 260, 60), linearGradient(200, 0, 460, 0, [
        { offset: 0, color: rgba(0, 0, 0, 0) }, { offset: 1, color: rgba(0, 0, 0, 200) },
      ]));
      return p;
    },
  },
  {
    file: "clip.png",
    title: "a banner's rounded corners, a gradient and an icon clipped to them",
    draw: () => {
      const p = new Pixmap(468, 60);
      const clip = rasterizeToMask(new Path().roundRect(0, 0, 468, 60, 10));
      fillPath(p, new Path().rect(0, 0, 468, 60), linearGradient(0, 0, 468, 60, [
        { offset: 0, color: rgba(32, 40, 70) }, { offset: 1, color: rgba(90, 40, 120) },
      ]), { clip });
      drawImage(p, pixelArt(), { x: -8, y: -4, width: 64, height: 64 }, { clip });
      fillPath(p, new Path().circle(450, 12, 5), solid(rgba(80, 220, 100)), { clip });
      return p;
    },
  },
  {
    file: "blur.png",
    title: "a soft shadow under a card",
    draw: () => {
      const p = light(300, 120);
      const card = new Path().roundRect(40, 25, 220, 70, 12);
      drawMask(p, blurMask(rasterizeToMask(card), 6), 0, 6, rgba(0, 0, 0, 110));
      fillPath(p, card, solid(rgba(255, 255, 255)));
      fillPath(p, new Path().circle(75, 60, 18), solid(rgba(250, 170, 30)));
      return p;
    },
  },
  {
    file: "image-scaling.png",
    title: "nearest for whole up-scales, bilinear otherwise, averaged down-scales",
    draw: () => {
      const p = light(360, 110);
      const icon = pixelArt();
      drawImage(p, icon, { x: 10, y: 10, width: 16, height: 16 });
      drawImage(p, icon, { x: 40, y: 10, width: 64, height: 64 });
      drawImage(p, icon, { x: 120, y: 10, width: 90, height: 90 });
      const big = new Pixmap(256, 256);
      drawImage(big, icon, { x: 0, y: 0, width: 256, height: 256 });
      drawImage(p, big, { x: 230, y: 10, width: 40, height: 40 });
      drawImage(p, icon, { x: 290, y: 10, width: 60, height: 90 }, { opacity: 0.6 });
      return p;
    },
  },
  {
    file: "text-latin.png",
    title: "Latin, Greek and Cyrillic in regular, bold, italic, with spacing, ellipsis and stretch",
    draw: () => {
      const p = dark(520, 215);
      const family = sansFamily();
      const rows: Array<[string, FontStyle, object?]> = [
        ["Pennant Survival — AVATAR, fjord", { family, size: 22, bold: true }],
        ["Welcome back! Ελληνικά, Русский, Čeština, Français", { family, size: 15 }],
        ["Italic oblique, underlined", { family, size: 15, italic: true }, { underline: true }],
        ["Bold italic, struck through", { family, size: 15, bold: true, italic: true }, { strikethrough: true }],
        ["L E T T E R  spacing 2 px", { family, size: 11, letterSpacing: 2 }],
        ["11 px: downloads 12.4k · players 123/500", { family, size: 11 }],
      ];
      rows.forEach(([text, style, options], i) => drawTextLine(p, layoutText(text, style), 10, 28 + i * 25, WHITE, options));
      const small: FontStyle = { family, size: 13 };
      drawTextLine(p, layoutText(ellipsize("An ellipsis cuts this line before the 260 px mark", small, 260), small), 10, 180, rgba(255, 170, 0));
      fillPath(p, new Path().rect(270, 166, 1, 18), solid(rgba(255, 85, 85)));
      drawTextLine(p, stretchToWidth(layoutText("stretched to 260 px", small), 260), 10, 205, rgba(85, 255, 255));
      return p;
    },
  },
  {
    file: "text-cjk-symbols.png",
    title: "CJK, symbols and emoji through the fallback chain, sans and pixel",
    draw: () => {
      const p = dark(520, 120);
      const pixel: FontStyle = { family: pixelFamily(), size: 16 };
      drawTextLine(p, layoutText("中文服务器 日本語サーバー 한국어 서버", { family: sansFamily(), size: 16 }), 10, 28, WHITE);
      drawTextLine(p, layoutText("★ ❤ ► ✦ ⚔ ☀ ♠ ✔ → ● ■ 😀 🎮 🔥 🏆 💎", { family: sansFamily(), size: 16 }), 10, 56, rgba(255, 255, 85));
      drawTextLine(p, layoutText("Pixel: 中文 日本 한국 ★ ❤ ⚔ 😀", pixel), 10, 84, rgba(85, 255, 255));
      drawTextLine(p, layoutText("Bold pixel: 中文 ★", { ...pixel, bold: true }), 10, 110, WHITE);
      return p;
    },
  },
  {
    file: "text-motd.png",
    title: "formatted MOTDs: § codes, hex colours, JSON components, shadow",
    draw: () => {
      const p = dark(520, 150);
      const motds = [
        "§6§lPennant §r§7| §aSurvival §7& §bSkyblock\n§e★ §fNew season! §cPvP §7- §o§dquests§r §nevery§r §mweek",
        JSON.stringify({ text: "", extra: [{ text: "Hex ", color: "#ff8800", bold: true }, { text: "colours ", color: "#44ccff" }, { text: "and ", italic: true }, { text: "§kobfuscated", color: "red" }] }),
      ];
      let baseline = 24;
      for (const motd of motds) {
        for (const line of splitLines(parseFormatted(motd))) {
          drawFormattedLine(p, layoutFormatted(line, pixelFamily(), 16, 500), 10, baseline, { defaultColor: rgba(170, 170, 170), shadowOffset: 2 });
          baseline += 22;
        }
      }
      for (const line of splitLines(parseFormatted(motds[0]!))) {
        drawFormattedLine(p, layoutFormatted(line, sansFamily(), 14, 500), 10, baseline + 4, { defaultColor: rgba(170, 170, 170), shadowOffset: 1 });
        baseline += 20;
      }
      return p;
    },
  },
  // The banner templates (banner-scenes.ts).
  ...BANNER_SCENES,
];

export function sceneNamed(file: string): Scene {
  const scene = GALLERY_SCENES.find((candidate) => candidate.file === file);
  if (!scene) throw new Error(`no gallery scene draws ${file}`);
  return scene;
}
