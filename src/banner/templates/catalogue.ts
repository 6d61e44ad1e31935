// What each banner template is, as GET /api/templates lists it and the HTTP
// layer checks a request against it: its key, title, description, kind,
// sizes, default theme and what it draws. Data only: how a template draws is
// in its own module (index.ts), which only the threads that draw load.

import { BANNER_SIZES, type BannerSize, type Theme } from "../model.ts";

export const DEFAULT_TEMPLATE = "minimal-status";

export interface TemplateInfo {
  key: string;
  title: string;
  description: string;
  kind: "server" | "plugin" | "market";
  sizes: readonly BannerSize[];
  defaultTheme: Theme;
  /**
   * What the template draws: the spec's query parameters, the looked-up or
   * pushed fields (version, favicon, latency, history, address: the join
   * address from ip_address or a push), and "accent" where it has an
   * accent-coloured part that its default content shows (not only an
   * optional one such as the address chip: a chosen accent must change the
   * banner). Size, theme, background, hide, scale and format apply to every
   * template.
   */
  uses: readonly string[];
}

/** The templates in the order they are offered. */
const CATALOGUE: readonly Omit<TemplateInfo, "sizes">[] = [
  {
    key: "minimal-status",
    kind: "server",
    title: "Minimal status",
    description: "Name, status, players, the MOTD, the version and the join address, in text only.",
    defaultTheme: "dark",
    uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "address", "version"],
  },
  {
    key: "classic",
    kind: "server",
    title: "Classic",
    description: "The game's server list: icon, name, two-line MOTD, signal bars and players, the join address to copy.",
    defaultTheme: "dark",
    // No accent: the game's own list has no colour of choice.
    uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "address", "version", "favicon", "latency"],
  },
  {
    key: "card",
    kind: "server",
    title: "Card",
    description: "A modern card edged in the accent: icon, name, status and version pills, both MOTD lines, a large player count and the join address.",
    defaultTheme: "dark",
    uses: [
      "server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "address", "version", "favicon", "accent",
    ],
  },
  {
    key: "players-bar",
    kind: "server",
    title: "Players bar",
    description: "The player count as a filling bar, with the numbers, the MOTD and the join address to copy.",
    defaultTheme: "dark",
    uses: ["server_name", "server_status", "online_players", "max_players", "motd_line_1", "motd_line_2", "address", "version", "favicon", "accent"],
  },
  {
    key: "sparkline",
    kind: "server",
    title: "Sparkline",
    description: "Players over the last 24 hours, with the current value and the peak, the MOTD and the join address.",
    defaultTheme: "dark",
    uses: ["server_name", "server_status", "online_players", "motd_line_1", "motd_line_2", "address", "version", "history", "accent"],
  },
  {
    key: "plugin-stats",
    kind: "plugin",
    title: "Plugin stats",
    description: "A plugin's name, version, up to three counters (stats=) and active/inactive status.",
    defaultTheme: "dark",
    uses: ["plugin_uuid", "stats", "numbers", "accent"],
  },
  {
    key: "resource",
    kind: "market",
    title: "Resource",
    description: "A project on Modrinth, SpigotMC, Hangar, CurseForge or Polymart (or an author's projects there, totalled): icon, name, author, downloads, rating or followers, latest version and game versions.",
    defaultTheme: "dark",
    uses: ["site", "project", "author", "icon", "numbers", "accent"],
  },
];

export const templates: ReadonlyMap<string, TemplateInfo> = new Map(
  CATALOGUE.map((info) => [info.key, { ...info, sizes: BANNER_SIZES }]),
);
