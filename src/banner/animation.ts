// What an animated banner shows (animate=motd, animate=stats), as data: the
// states it cycles through, each a server banner drawn by its template as it
// is, and the frames between them. A state differs from the still banner
// only in its "carrier" line: the MOTD's slot where the template's layout has
// one, else the name's (players-bar and sparkline at 468x60 have no MOTD row).
// The drawing (animated-banner.ts) draws each state once and cross-fades.
//
// Timing is chosen for a server list: each state holds 2.5 s, long enough to
// read a line twice, and fades into the next in two frames (160 ms), short
// enough not to blur; five states at most, so 15 frames and 13.3 s at most,
// in the limits of lists that take animations (Lunar Client: GIFs up to 15 s).

import { motdLineRuns } from "../minecraft/motd.ts";
import { parseHexColor, type Color } from "../render/basics.ts";
import { readableOn } from "./contrast.ts";
import { shows, type ServerBannerData } from "./model.ts";
import { exactCount } from "./numbers.ts";
import { backdrops, type Palette } from "./theme.ts";

export const ANIMATIONS = ["motd", "stats"] as const;
/** The history range animate=stats reads a pushed server's uptime over (as the uptime badge by default). */
export const UPTIME_RANGE = "7d";
export type Animate = (typeof ANIMATIONS)[number];

/** Frames an animation has at most (docs/animated-banners.md). */
export const MAX_FRAMES = 16;
/** Milliseconds one loop of an animation lasts at most. */
export const MAX_DURATION_MS = 15_000;
/** How long each state is shown whole. */
export const HOLD_MS = 2_500;
/** Frames of a fade from one state to the next, each FADE_FRAME_MS long. */
export const FADE_FRAMES = 2;
export const FADE_FRAME_MS = 80;
/** States an animation cycles through at most: each takes its hold and its fade's frames. */
export const MAX_STATES = Math.floor(MAX_FRAMES / (1 + FADE_FRAMES));

/** What the states are made from: a server banner's data, its icon still encoded or not. */
export type AnimatedData = Omit<ServerBannerData, "favicon">;

/** A state: what the carrier line shows instead of the still banner's; null: the still banner itself. */
export type AnimationState = { line: string } | null;

/** One frame: state `from` faded `mix` (0: not at all) towards state `to`, shown `durationMs`. */
export interface FrameStep {
  from: number;
  to: number;
  mix: number;
  durationMs: number;
}

/** The non-blank MOTD lines, as `§` text. */
function motdLinesOf(data: AnimatedData): string[] {
  return data.motd.filter((line) => motdLineRuns(line).some((run) => run.text.trim() !== ""));
}

/** A fraction online as a percentage, rounded down: 99.96% online is not 100%. */
const percent = (fraction: number) => `${Math.floor(fraction * 1000) / 10}%`;

/** Players, version, address and uptime where known and shown, each as a line of plain words. */
function factLines(data: AnimatedData): string[] {
  const facts: string[] = [];
  if (shows(data, "players")) {
    if (data.players) facts.push(`${exactCount(data.players.online)} / ${exactCount(data.players.max)} players online`);
    else if (data.status === "offline" && shows(data, "status")) facts.push("Offline");
  }
  if (data.version && shows(data, "version")) facts.push(`Version ${data.version}`);
  if (data.address && shows(data, "address")) facts.push(`Join ${data.address}`);
  if (data.uptime !== undefined && data.uptime !== null) facts.push(`${percent(data.uptime)} uptime, last 7 days`);
  return facts;
}

/**
 * The states of `animate` for `data`, in order, at most MAX_STATES:
 * motd shows each non-blank MOTD line alone; stats starts from the still
 * banner and then shows each known fact (uptime: pushed servers with a
 * history). One state: nothing to cycle.
 */
export function animationStates(animate: Animate, data: AnimatedData): AnimationState[] {
  const lines = animate === "motd" ? motdLinesOf(data) : factLines(data);
  const states: AnimationState[] = animate === "motd" ? [] : [null];
  for (const line of lines) states.push({ line });
  if (states.length === 0) states.push(null);
  return states.slice(0, MAX_STATES);
}

/** Each frame of a cycle through `states` states: a hold, then the fade's frames to the next (the last fades to the first). */
export function frameSteps(states: number): FrameStep[] {
  if (states <= 1) return [{ from: 0, to: 0, mix: 0, durationMs: HOLD_MS }];
  const steps: FrameStep[] = [];
  for (let state = 0; state < states; state++) {
    const next = (state + 1) % states;
    steps.push({ from: state, to: next, mix: 0, durationMs: HOLD_MS });
    for (let k = 1; k <= FADE_FRAMES; k++) steps.push({ from: state, to: next, mix: k / (FADE_FRAMES + 1), durationMs: FADE_FRAME_MS });
  }
  return steps;
}

/** The states an animation of `frames` frames cycles through (frameSteps' inverse): a still is one. */
export function statesOf(frames: number): number {
  return frames <= 1 ? 1 : Math.ceil(frames / (1 + FADE_FRAMES));
}

/** The frames an animation of `animate` over `data` has. */
export function frameCount(animate: Animate, data: AnimatedData): number {
  return frameSteps(animationStates(animate, data).length).length;
}

/**
 * `data` as state `state` draws it: the line in the MOTD's first row (the
 * second left blank), or in the name's place where the layout has no MOTD
 * row or the owner hid the MOTD.
 */
export function stateData(data: ServerBannerData, state: AnimationState, carrier: "motd" | "name"): ServerBannerData {
  if (state === null) return data;
  return carrier === "motd" && shows(data, "motd") ? { ...data, motd: [state.line, ""] } : { ...data, name: state.line };
}

/** Colours made readable on a pair of backdrops, by both and the colour: a dozen contrast searches cost more than a PNG. */
const readable = new Map<string, Color>();
const READABLE_ENTRIES = 4_096;

function readableOnce(color: Color, ends: readonly Color[]): Color {
  const key = [color, ...ends].map((c) => `${c.r},${c.g},${c.b},${c.a}`).join(" ");
  let found = readable.get(key);
  if (!found) {
    if (readable.size >= READABLE_ENTRIES) readable.clear();
    readable.set(key, (found = readableOn(color, ends)));
  }
  return found;
}

/**
 * Colours a GIF must keep exactly where they are drawn: the `§` colours the
 * MOTD uses (the game's sixteen and hex colours), as given and as drawn
 * (text made readable on the banner's backdrops, Surface.formatted), and
 * the theme's text colours.
 */
export function keptColors(data: AnimatedData, palette: Palette): Color[] {
  const fromMotd = data.motd.flatMap((line) => motdLineRuns(line).flatMap((run) => (run.color ? [parseHexColor(run.color)!] : [])));
  const given = [...fromMotd, palette.text, palette.muted, palette.motd];
  const ends = backdrops(palette);
  const all = [...given, ...given.map((color) => readableOnce(color, ends))];
  const seen = new Set<number>();
  return all.filter((color) => {
    const key = (color.r << 16) | (color.g << 8) | color.b;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
