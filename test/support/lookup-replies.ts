// Status replies as large as a server may send (the game caps the whole JSON
// at 32,767 characters), for the cache-memory tests and the lookup bench.

/** The start of a PNG with a 64x64 IHDR, padded to `size` bytes: what the favicon check accepts. */
export function faviconPng(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 64]);
  for (let i = 24; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return bytes;
}

/**
 * A 24 KB MOTD of 4,096 styled runs (alternating colours, so none merge; a
 * "★" in each keeps the text out of Latin-1, so engines store it at 2 bytes a
 * character), 12 long sample names and a 4.5 KB favicon. `seed` makes every
 * reply's text different.
 */
export function nearMaximalStatus(seed: number) {
  let description = "";
  for (let run = 0; run < 4096; run++) description += `${run % 2 ? "§c" : "§a"}★${(seed * 4096 + run).toString(36).padStart(3, "0").slice(-3)}`;
  const sample = Array.from({ length: 12 }, (_, i) => ({ name: `§b${seed}-player-${i}`.padEnd(40, "★"), id: "00000000-0000-0000-0000-000000000000" }));
  return {
    version: { name: `Near-maximal ${seed}`, protocol: 767 },
    players: { online: 12, max: 100, sample },
    description,
    favicon: `data:image/png;base64,${Buffer.from(faviconPng(4500, seed)).toString("base64")}`,
  };
}
