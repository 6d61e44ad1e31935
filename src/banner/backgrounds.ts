// The background presets a banner can be drawn on (background=NAME), in the
// order they are offered: block textures in the spirit of the game, drawn by
// our own code (no game assets), then gradients, then none at all.

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
