// The icons drawn for a server that sends none: Pennant's own, one per game,
// drawn from paths (no game assets, no game's logo). Java and Bedrock servers
// get a grass-topped block; Hytale servers crystals on a mound.

import { Path, parseHexColor, solid, type Color } from "../render/index.ts";
import type { Edition } from "../minecraft/edition.ts";
import type { Box, Surface } from "./surface.ts";

/** Shapes on a 16-unit grid: a colour and the corners of a polygon, in drawing order. */
type Faces = ReadonlyArray<readonly [color: string, points: readonly number[]]>;

// A grass-topped block in isometric view.
const BLOCK_FACES: Faces = [
  ["#86c45a", [8, 1.5, 14.5, 4.75, 8, 8, 1.5, 4.75]],
  ["#8a5a33", [1.5, 4.75, 8, 8, 8, 14.5, 1.5, 11.25]],
  ["#6a4427", [8, 8, 14.5, 4.75, 14.5, 11.25, 8, 14.5]],
  ["#5e9e3a", [1.5, 4.75, 8, 8, 8, 9.75, 1.5, 6.5]],
  ["#4a8130", [8, 8, 14.5, 4.75, 14.5, 6.5, 8, 9.75]],
];

/** A crystal shard from the middle of its base to its tip, `width` across, as its lit and shaded halves. */
function shard(base: readonly [number, number], tip: readonly [number, number], width: number, lit: string, shaded: string): Faces {
  const [bx, by] = base, [tx, ty] = tip;
  const length = Math.hypot(tx - bx, ty - by);
  const ax = (tx - bx) / length, ay = (ty - by) / length;
  // Across the shard, to its left as it points up.
  const nx = ay, ny = -ax;
  const shoulder = (side: number): number[] => [bx + ax * length * 0.72 + nx * side * width / 2, by + ay * length * 0.72 + ny * side * width / 2];
  const foot = (side: number): number[] => [bx + nx * side * width * 0.4, by + ny * side * width * 0.4];
  return [
    [lit, [tx, ty, ...shoulder(1), ...foot(1), bx, by]],
    [shaded, [tx, ty, ...shoulder(-1), ...foot(-1), bx, by]],
  ];
}

// Three shards rising from a grassy mound.
const CRYSTAL_FACES: Faces = [
  ...shard([5.3, 12.2], [3, 5.4], 3, "#9fdcff", "#3f8fd6"),
  ...shard([10.8, 12.2], [13, 6.1], 2.8, "#9fdcff", "#3f8fd6"),
  ...shard([8, 12.4], [8, 1.5], 3.9, "#c4ecff", "#5aa9ec"),
];
const MOUND = parseHexColor("#5e9e3a")!;
const MOUND_SIDE = parseHexColor("#8a5a33")!;

function polygon(box: Box, points: readonly number[]): Path {
  const unit = box.width / 16;
  const path = new Path();
  for (let i = 0; i < points.length; i += 2) path.lineTo(box.x + points[i]! * unit, box.y + points[i + 1]! * unit);
  return path.close();
}

function drawFaces(surface: Surface, box: Box, faces: Faces): void {
  for (const [color, points] of faces) surface.fill(polygon(box, points), solid(parseHexColor(color)!));
}

/** The block of the Minecraft editions. */
function drawBlock(surface: Surface, box: Box): void {
  drawFaces(surface, box, BLOCK_FACES);
}

/** Hytale's: crystals on a mound of earth and grass. */
function drawCrystals(surface: Surface, box: Box): void {
  drawFaces(surface, box, CRYSTAL_FACES);
  const unit = box.width / 16;
  const at = (x: number, y: number) => [box.x + x * unit, box.y + y * unit] as const;
  const mound = (top: number, bottom: number) => new Path()
    .moveTo(...at(1.8, bottom))
    .quadTo(...at(2.4, top), ...at(8, top))
    .quadTo(...at(13.6, top), ...at(14.2, bottom))
    .close();
  surface.fill(mound(10.9, 14.5), solid(MOUND_SIDE));
  surface.fill(mound(10.9, 13.1), solid(MOUND));
}

const DRAWINGS: Readonly<Record<Edition, (surface: Surface, box: Box) => void>> = { java: drawBlock, bedrock: drawBlock, hytale: drawCrystals };

/** Pennant's icon for a server of `edition` that sends none, on a rounded well. */
export function drawFallbackIcon(surface: Surface, box: Box, well: Color, edition: Edition): void {
  surface.fill(new Path().roundRect(box.x, box.y, box.width, box.height, box.width * 0.16), solid(well));
  DRAWINGS[edition](surface, box);
}
