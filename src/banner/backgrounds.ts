// The background presets a banner can be drawn on (background=NAME), in the
// order they are offered: block textures in the spirit of the game, drawn by
// our own code (no game assets), then gradients, then none at all. Their
// text colours come with the theme (theme.ts presetPalette).

export const BACKGROUND_PRESETS = [
  { name: "stone", title: "Stone", kind: "texture" },
  { name: "deepslate", title: "Deepslate", kind: "texture" },
  { name: "dirt", title: "Dirt", kind: "texture" },
  { name: "grass", title: "Grass", kind: "texture" },
  { name: "nether", title: "Nether", kind: "texture" },
  { name: "end", title: "End", kind: "texture" },
  { name: "prismarine", title: "Prismarine", kind: "texture" },
  { name: "sunset", title: "Sunset", kind: "gradient" },
  { name: "ocean", title: "Ocean", kind: "gradient" },
  { name: "night", title: "Night sky", kind: "gradient" },
  { name: "transparent", title: "Transparent", kind: "none" },
] as const;

export type BackgroundPresetName = (typeof BACKGROUND_PRESETS)[number]["name"];

/**
 * What a preset is made of. A texture: one 16x16 block tile of `shades`
 * (darkest first), each pixel's shade picked by fine noise mixed with
 * `clump` of a coarser noise over cells of `cell` pixels (speckles, patches,
 * streaks), the block repeated over the banner. A gradient: colours from top
 * to bottom. None: nothing at all.
 */
export type BackgroundLook =
  | { kind: "texture"; shades: readonly string[]; cell: readonly [width: number, height: number]; clump: number; seed: number }
  | { kind: "gradient"; stops: readonly string[] }
  | { kind: "none" };

/** Pixels on a block's side, as the game's textures have. */
export const BLOCK_PIXELS = 16;

export const BACKGROUND_LOOKS: Record<BackgroundPresetName, BackgroundLook> = {
  // Grey speckles in small patches.
  stone: { kind: "texture", shades: ["#5e5e5e", "#6c6c6c", "#797979", "#858585", "#929292"], cell: [4, 2], clump: 0.5, seed: 1 },
  // Dark blue-greys in horizontal streaks.
  deepslate: { kind: "texture", shades: ["#2a2a31", "#34343b", "#3f3f46", "#4a4a52"], cell: [8, 1], clump: 0.6, seed: 2 },
  // Browns, finely mixed.
  dirt: { kind: "texture", shades: ["#59391f", "#6b4629", "#7a5233", "#8b613f", "#9a7152"], cell: [2, 2], clump: 0.4, seed: 3 },
  // Greens, finely mixed (a grass block seen from above).
  grass: { kind: "texture", shades: ["#3d6a28", "#4a7d31", "#58903a", "#67a244", "#78b552"], cell: [2, 2], clump: 0.4, seed: 4 },
  // Netherrack: dark reds in lumps, their range kept as narrow as the other
  // textures' (a wider one drew lumps that competed with 8 px text).
  nether: { kind: "texture", shades: ["#511919", "#5e1f1f", "#6c2525", "#7a2b2b", "#883232"], cell: [4, 4], clump: 0.55, seed: 5 },
  // End stone: pale yellows with darker pits.
  end: { kind: "texture", shades: ["#b9ba80", "#c8c98f", "#d5d69c", "#dfe0a8", "#e8e9b6"], cell: [2, 2], clump: 0.35, seed: 6 },
  // Teal-greens in larger patches.
  prismarine: { kind: "texture", shades: ["#3a7668", "#46887a", "#549b8b", "#63ac9a", "#79bfad"], cell: [4, 4], clump: 0.7, seed: 7 },
  sunset: { kind: "gradient", stops: ["#3b1f5c", "#a23b4f", "#e07a3c"] },
  ocean: { kind: "gradient", stops: ["#0e7490", "#0b4f79", "#082f49"] },
  night: { kind: "gradient", stops: ["#020617", "#1e1b4b", "#312e81"] },
  transparent: { kind: "none" },
};

export type TextureLook = Extract<BackgroundLook, { kind: "texture" }>;

/** The preset named `name` (any letter case), or undefined. */
export function backgroundPreset(name: string): BackgroundPresetName | undefined {
  const wanted = name.toLowerCase();
  return BACKGROUND_PRESETS.find((preset) => preset.name === wanted)?.name;
}
