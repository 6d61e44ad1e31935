// Names of server software. The deployed EzBanners plugin pushes Bukkit's
// getName() as `server_name`, which is the software ("Paper"), never the
// owner's name for the server: a banner or page titled "Paper" says nothing.

const SOFTWARE_NAMES = new Set([
  "paper", "spigot", "craftbukkit", "bukkit", "purpur", "folia", "pufferfish", "leaves", "leaf", "tuinity",
  "airplane", "gale", "divinemc", "canvas", "plazma", "sportpaper", "mohist", "arclight", "magma", "catserver",
  "ketting", "youer", "glowstone",
]);

/** Whether a pushed name is the server software's rather than the server's own. */
export function isSoftwareName(name: string): boolean {
  return SOFTWARE_NAMES.has(name.trim().toLowerCase());
}
