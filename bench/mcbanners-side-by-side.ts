// Pennant beside MCBanners (a tool to look at, not a test, not part of `npm
// run bench`): one live status peer on loopback, Pennant's `serve` and
// MCBanners' API (a checkout outside this repository) both look it up; each
// banner is fetched once, cold, then the sheet docs/gallery/vs-mcbanners.png
// and a table of sizes, bytes, milliseconds and text contrast are written.
// When MCBanners cannot run, our side is still drawn and the reason printed.
//
// Run: bun bench/mcbanners-side-by-side.ts --mcbanners /work/peers/mcbanners-api
//      [--out docs/gallery/vs-mcbanners.png] [--large TEMPLATE]
// (or MCBANNERS_DIR=... instead of --mcbanners)

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKGROUND_PRESETS } from "../src/banner/backgrounds.ts";
import type { Theme } from "../src/banner/model.ts";
import { encodePng, type Pixmap } from "../src/render/index.ts";
import { onPage } from "../test/render/support/banner-scenes.ts";
import { contactSheet } from "../test/support/contact-sheet.ts";
import { startServe } from "../test/support/process.ts";
import { BENCH_ENV } from "./http/servers.ts";
import { middle } from "./report/stats.ts";
import { brokenImage, captioned, fetchImage, textContrast, type Fetched } from "./side-by-side/images.ts";
import { SERVER_NAME, startLiveServer, typedAddress } from "./side-by-side/live-server.ts";
import { MCBANNERS_BACKGROUNDS, mcBannersUrl, startMcBanners, type RunningMcBanners } from "./side-by-side/mcbanners.ts";

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const mcbannersDir = argument("--mcbanners") ?? process.env.MCBANNERS_DIR;
const outFile = argument("--out") ?? join(import.meta.dir, "..", "docs", "gallery", "vs-mcbanners.png");

type Service = "Pennant" | "MCBanners";

/**
 * Each text element redrawn with other words of about the same length (the
 * contrast measure, images.ts), by element. The count keeps its ratio (30/500
 * for 3/50), so that a players bar does not move and count as text.
 */
const OTHER_WORDS: Record<Service, Readonly<Record<string, Readonly<Record<string, string>>>>> = {
  Pennant: {
    name: { server_name: "Northwind Castles" },
    "MOTD line 1": { motd_line_1: "§aJoin us on §6Northwind Castles§a?" },
    "MOTD line 2": { motd_line_2: "§7Castles, dragons and monthly prizes" },
    players: { online_players: "30", max_players: "500" },
  },
  MCBanners: {
    name: { server_name__display: "Northwind Castles" },
    version: { version__display: "Paper 1.20.6" },
    MOTD: { motd__display: "Join us on Northwind Castles? Castles, dragons and monthly prizes" },
    players: { players__display: "30 / 500 players online" },
  },
};

interface Shot {
  service: Service;
  what: string;
  fetched: Fetched;
  /** Whether its text elements are redrawn with OTHER_WORDS (not an offline banner). */
  measured: boolean;
  /** The first of its service to reach the live server: its time includes the lookup. */
  firstLookup: boolean;
  /** The lowest contrast over its text elements, and which one. */
  contrast: { ratio: number; element: string } | null;
  /** A transparent banner: shown and measured on a page of this theme (onPage). */
  page?: Theme;
}

const shots: Shot[] = [];
const lookedUp = new Set<Service>();

/** Fetches one banner, cold (every URL is new to its service); the first of each service to reach the live server pays its lookup. */
async function shoot(service: Service, what: string, url: string, measured: boolean, page?: Theme): Promise<Shot> {
  const fetched = await fetchImage(url);
  const firstLookup = measured && !lookedUp.has(service);
  if (measured) lookedUp.add(service);
  const shot: Shot = { service, what, fetched, measured, firstLookup, contrast: null, page };
  shots.push(shot);
  return shot;
}

/** The lowest text contrast of a shot over its elements: each one redrawn by the shot's URL with its OTHER_WORDS set. */
async function lowestContrast(shot: Shot): Promise<Shot["contrast"]> {
  const { service, fetched, measured } = shot;
  const image = shown(shot, fetched.image);
  if (!image || !measured) return null;
  let lowest: Shot["contrast"] = null;
  for (const [name, words] of Object.entries(OTHER_WORDS[service])) {
    const url = new URL(fetched.url);
    for (const [parameter, value] of Object.entries(words)) url.searchParams.set(parameter, value);
    const other = shown(shot, (await fetchImage(url.href)).image);
    const ratio = other ? textContrast(image, other) : null;
    if (ratio !== null && (!lowest || ratio < lowest.ratio)) lowest = { ratio, element: name };
  }
  return lowest;
}

/** An image of `shot` as it is shown and measured: a transparent banner on its page. */
function shown(shot: Shot, image: Pixmap | null): Pixmap | null {
  return image && shot.page ? onPage(image, shot.page) : image;
}

/** A shot on the sheet, captioned; a failed one as the empty box a page would show (MCBanners' size is 300x100). */
function cell(shot: Shot, caption: string): Pixmap {
  const [width, height] = shot.service === "MCBanners" ? [300, 100] : [468, 60];
  return captioned(shown(shot, shot.fetched.image) ?? brokenImage(width, height, `HTTP ${shot.fetched.status}, no image`), caption);
}

const live = await startLiveServer();
const address = typedAddress(live.host, live.port);
const offlineAddress = typedAddress(live.offline.host, live.offline.port);
const dbDir = mkdtempSync(join(tmpdir(), "pennant-vs-mcbanners-"));
const pennant = await startServe({ ...BENCH_ENV, PENNANT_LOOKUP_PRIVATE: "1", PENNANT_DB: join(dbDir, "pennant.db") });
let mcbanners: RunningMcBanners | null = null;
let blocked: string | null = mcbannersDir ? null : "no MCBanners checkout given (--mcbanners DIR or MCBANNERS_DIR)";
if (mcbannersDir) {
  try {
    mcbanners = await startMcBanners(mcbannersDir);
  } catch (error) {
    blocked = `MCBanners did not start from ${mcbannersDir}: ${(error as Error).message}`;
  }
}

const rows: Pixmap[][] = [];
let ourPresets = `${BACKGROUND_PRESETS.length} drawn`;
try {
  if (mcbanners) {
    const base = mcbanners.url;
    const theirs = (what: string, query: Record<string, string>) =>
      shoot("MCBanners", what, mcBannersUrl(base, live.host, live.port, query), true);
    const defaults = await theirs("defaults (the name is the host)", {});
    const presets = [];
    for (const background of MCBANNERS_BACKGROUNDS) {
      presets.push(await theirs(`${background.toLowerCase()}, named`, { background__template: background, server_name__display: SERVER_NAME }));
    }
    const offline = await shoot("MCBanners", "offline address", mcBannersUrl(base, live.offline.host, live.offline.port), false);
    rows.push([cell(defaults, `MCBanners, ${defaults.what}`), cell(offline, "MCBanners, offline address")]);
    for (let i = 0; i < presets.length; i += 3) rows.push(presets.slice(i, i + 3).map((shot) => cell(shot, `MCBanners, ${shot.what}`)));
  }

  const list = (await (await fetch(`${pennant.url}/api/templates`)).json()) as { default_template: string; templates: Array<{ key: string; kind: string; default_theme: Theme }> };
  const large = argument("--large") ?? list.default_template;
  const ours = (what: string, query: Record<string, string>, measured: boolean, page?: Theme) =>
    shoot("Pennant", what, `${pennant.url}/api/banner?${new URLSearchParams({ server_name: SERVER_NAME, ...query })}`, measured, page);
  const pair = async (template: string, size: string, ip = address, label = template) => {
    const looked = ip === address;
    const query = { data_mode: "query", ip_address: ip, template_key: template, size };
    const dark = await ours(`${label} ${size} dark`, { ...query, theme: "dark" }, looked);
    const light = await ours(`${label} ${size} light`, { ...query, theme: "light" }, looked);
    return [cell(dark, `Pennant, ${dark.what}`), cell(light, `Pennant, ${light.what}`)];
  };
  // A manual banner first (no lookup): the process's first drawing, so that the first looked-up one is its lookup and a drawing.
  await ours("manual, the process's first drawing", { online_players: "3", max_players: "50" }, false);
  for (const template of list.templates.filter((info) => info.kind === "server")) rows.push(await pair(template.key, "468x60"));
  rows.push(await pair(large, "1200x300"));
  rows.push(await pair(list.default_template, "468x60", offlineAddress, `${list.default_template}, offline address,`));
  // Our background presets beside theirs, once this build accepts background=NAME (a manual banner asks first).
  const probe = await fetchImage(`${pennant.url}/api/banner?${new URLSearchParams({ server_name: SERVER_NAME, background: BACKGROUND_PRESETS[0].name })}`);
  if (probe.image) {
    const onPresets = [];
    for (const preset of BACKGROUND_PRESETS) {
      const query = { data_mode: "query", ip_address: address, template_key: list.default_template, size: "468x60", background: preset.name };
      const page = preset.name === "transparent" ? list.templates.find((info) => info.key === list.default_template)?.default_theme : undefined;
      onPresets.push(await ours(`${list.default_template} 468x60, background=${preset.name}${page ? `, on a ${page} page` : ""}`, query, true, page));
    }
    for (let i = 0; i < onPresets.length; i += 2) rows.push(onPresets.slice(i, i + 2).map((shot) => cell(shot, `Pennant, ${shot.what}`)));
  } else {
    ourPresets = `not drawn: background=${BACKGROUND_PRESETS[0].name} answered HTTP ${probe.status} (this build has no presets yet)`;
  }

  // After every cold fetch: the variants draw other banners, which would warm what the cold ones measure.
  for (const shot of shots) shot.contrast = await lowestContrast(shot);
} finally {
  await mcbanners?.stop();
  await pennant.kill();
  await live.peer.close();
  rmSync(dbDir, { recursive: true, force: true });
}

writeFileSync(outFile, encodePng(contactSheet(rows)));

console.log(`live server: ${address} (Paper 1.21.4, 3/50 players, two-line MOTD, favicon); offline: ${offlineAddress}`);
console.log(mcbanners ? `MCBanners: ${mcbannersDir} at ${mcbanners.commit ?? "unknown commit"}` : `MCBanners not drawn: ${blocked}`);
console.log(`Pennant's background presets: ${ourPresets}`);
console.log("");
console.log("| service | banner | HTTP | size | bytes | ms (cold) | lowest text contrast |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const { service, what, fetched, contrast, firstLookup } of shots) {
  const size = fetched.image ? `${fetched.image.width}x${fetched.image.height}` : "—";
  const ratio = contrast ? `${contrast.ratio.toFixed(1)}:1 (${contrast.element})` : "—";
  console.log(`| ${service} | ${what}${firstLookup ? ", its lookup included" : ""} | ${fetched.status} | ${size} | ${fetched.bytes} | ${fetched.ms.toFixed(1)} | ${ratio} |`);
}
// One cold sample each is noisy on a shared machine: the median over the ones that neither look up nor start a process.
for (const service of ["MCBanners", "Pennant"] as const) {
  const drawn = shots.filter((shot) => shot.service === service && shot.fetched.image && shot.measured && !shot.firstLookup);
  if (drawn.length > 0) console.log(`${service}: median of ${drawn.length} cold banners of the live server after the first, ${middle(drawn.map((shot) => shot.fetched.ms)).toFixed(1)} ms, ${middle(drawn.map((shot) => shot.fetched.bytes))} bytes`);
}
console.log(`\nwrote ${outFile}`);
