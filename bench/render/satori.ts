// The bench scenes as HTML-like trees laid out by satori into SVG, then
// rasterized by @resvg/resvg-js: the "render with web tech" peer.

import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import type { BadgeScene, BannerScene, Scene, TextItem } from "./scenes.ts";

export interface SatoriFonts {
  regular: ArrayBuffer;
  bold: ArrayBuffer;
}

type Node = { type: string; props: Record<string, unknown> };
const div = (style: Record<string, unknown>, children: Node[] | string = []): Node => ({ type: "div", props: { style, children } });

function textNode(t: TextItem, opacity = 1): Node {
  // satori positions boxes, not baselines: the line box top sits ~0.93 em above the baseline.
  const top = t.y - t.size * 0.93;
  const position = t.align === "right" ? { right: 0, width: 2000, justifyContent: "flex-end", paddingRight: 0 } : { left: t.x };
  return div({ position: "absolute", top, ...position, display: "flex", fontSize: t.size, fontFamily: t.bold ? "Bold" : "Regular", fontWeight: t.bold ? 700 : 400, color: t.color, opacity, whiteSpace: "nowrap", lineHeight: 1.2 }, t.text);
}

function bannerTree(scene: BannerScene, iconDataUrl: string): Node {
  return div({
    display: "flex", position: "relative", width: scene.width, height: scene.height, borderRadius: scene.radius,
    backgroundImage: `linear-gradient(to bottom right, ${scene.gradient[0]}, ${scene.gradient[1]})`,
  }, [
    { type: "img", props: { src: iconDataUrl, width: scene.icon.size, height: scene.icon.size, style: { position: "absolute", left: scene.icon.x, top: scene.icon.y, imageRendering: "pixelated" } } },
    ...scene.texts.map((t) => textNode(t)),
    div({ position: "absolute", left: scene.dot.cx - scene.dot.r, top: scene.dot.cy - scene.dot.r, width: 2 * scene.dot.r, height: 2 * scene.dot.r, borderRadius: scene.dot.r, backgroundColor: scene.dot.color }),
  ]);
}

function badgeTree(scene: BadgeScene): Node {
  return div({ display: "flex", position: "relative", width: scene.width, height: scene.height, borderRadius: 3, overflow: "hidden" }, [
    div({ position: "absolute", left: 0, top: 0, width: scene.split, height: scene.height, backgroundColor: scene.colors[0] }),
    div({ position: "absolute", left: scene.split, top: 0, width: scene.width - scene.split, height: scene.height, backgroundColor: scene.colors[1] }),
    div({ position: "absolute", left: 0, top: 0, width: scene.width, height: scene.height, backgroundImage: "linear-gradient(to bottom, rgba(187,187,187,0.1), rgba(0,0,0,0.1))" }),
    ...scene.texts.flatMap((t) => [textNode({ ...t, y: t.y + 1, color: "#010101" }, 0.3), textNode(t)]),
  ]);
}

export async function satoriPng(scene: Scene, iconDataUrl: string, fonts: SatoriFonts): Promise<Uint8Array> {
  const tree = scene.kind === "banner" ? bannerTree(scene, iconDataUrl) : badgeTree(scene);
  const svg = await satori(tree as never, {
    width: scene.width,
    height: scene.height,
    fonts: [{ name: "Regular", data: fonts.regular, weight: 400, style: "normal" }, { name: "Bold", data: fonts.bold, weight: 700, style: "normal" }],
  });
  return new Resvg(svg).render().asPng();
}
