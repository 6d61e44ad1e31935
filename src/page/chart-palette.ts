// The chart's colours, light and dark, as "#rrggbbaa": the one place they are
// chosen. The SVG writer turns them into a stylesheet (dark under
// prefers-color-scheme), the engine's painter draws a PNG in one of them.

export interface ChartPalette {
  background: string;
  grid: string;
  text: string;
  band: string;
  line: string;
  offline: string;
}

export const CHART_THEMES = ["light", "dark"] as const;
export type ChartTheme = (typeof CHART_THEMES)[number];

export const CHART_PALETTES: Readonly<Record<ChartTheme, ChartPalette>> = {
  light: { background: "#ffffffff", grid: "#dde1e6ff", text: "#4e5866ff", band: "#2563eb33", line: "#1d4ed8ff", offline: "#dc262624" },
  dark: { background: "#181b20ff", grid: "#2e343dff", text: "#a7b0bcff", band: "#60a5fa40", line: "#7cb6ffff", offline: "#f8717133" },
};
