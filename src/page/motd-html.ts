// A MOTD's two lines as HTML, in the game's colours, for a page whose policy
// allows no style attribute: each run is a span whose classes name its
// colour and flags. The flags' classes are the page stylesheet's; a colour's
// class is written once per page in a <style> element of the page's own
// (colourRules), which the page's policy names by its hash. Parsed by the one
// MOTD parser (src/minecraft/motd.ts), its text escaped like all text.

import type { StyledRun } from "../minecraft/format.ts";
import { motdLineRuns } from "../minecraft/motd.ts";
import { html, type Html } from "./html.ts";

/** A colour the parser hands out: "#rrggbb" (anything else is drawn in the default colour). */
const HEX = /^#[0-9a-f]{6}$/;

const colourClass = (hex: string) => `mc-${hex.slice(1)}`;

function classesOf(run: StyledRun): string {
  return [
    run.color !== null && HEX.test(run.color) ? colourClass(run.color) : "",
    run.bold ? "mc-bold" : "",
    run.italic ? "mc-italic" : "",
    run.underlined ? "mc-underlined" : "",
    run.strikethrough ? "mc-struck" : "",
    run.obfuscated ? "mc-obfuscated" : "",
  ].filter(Boolean).join(" ");
}

export interface MotdHtml {
  /** One element per line. */
  lines: Html[];
  /** The colours the lines use, "#rrggbb", each once. */
  colours: string[];
}

/** The `§` lines as spans, with the colours they use. */
export function motdHtml(lines: readonly string[]): MotdHtml {
  const colours = new Set<string>();
  const written = lines.map((line) => {
    const runs = motdLineRuns(line);
    for (const run of runs) if (run.color !== null && HEX.test(run.color)) colours.add(run.color);
    return html`<span class="motd-line">${runs.map((run) => {
      const classes = classesOf(run);
      return classes === "" ? run.text : html`<span class="${classes}">${run.text}</span>`;
    })}</span>`;
  });
  return { lines: written, colours: [...colours].sort() };
}

/** The rules that give each colour's class its colour (each colour checked as "#rrggbb" once more). */
export function colourRules(colours: readonly string[]): string {
  return colours.filter((hex) => HEX.test(hex)).map((hex) => `.${colourClass(hex)}{color:${hex}}`).join("");
}
