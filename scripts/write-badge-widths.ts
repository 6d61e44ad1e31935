// Writes src/badge/font-widths.ts: the advance widths shields.io measures badge
// text with, per code point, for the four fonts its badge-maker uses (Verdana
// 11px, 10px and bold 10px; Helvetica bold 11px). The numbers are the tables of
// the npm package anafanafo 2.0.0 (MIT, installed with the dev dependency
// badge-maker), which measured each character in Chrome; font metrics are
// facts, the form here is ours. Run again only if shields' tables change:
//   bun scripts/write-badge-widths.ts
//
// Form: per font, one string of runs of consecutive code points from 0 on,
// each run its length (a base-32 number written with continuation digits,
// most significant first) then its width in hundredths of a pixel in two
// digits (UNKNOWN_WIDTH: a code point the table does not measure). Digits are
// the 64 characters of WIDTH_DIGITS.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FONT_TABLE_NAMES, UNKNOWN_WIDTH, WIDTH_DIGITS } from "../src/badge/font-width-format.ts";

type Range = [first: number, last: number, width: number];

const source = join(import.meta.dir, "../test/node_modules/anafanafo/data");

/** The length digits: 5 bits each, the first 32 digits ending a number, the next 32 saying more follow. */
function lengthDigits(length: number): string {
  const groups: number[] = [];
  for (let rest = length; ; rest = Math.floor(rest / 32)) {
    groups.unshift(rest % 32);
    if (rest < 32) break;
  }
  return groups.map((group, i) => WIDTH_DIGITS[i < groups.length - 1 ? group + 32 : group]).join("");
}

function widthDigits(hundredths: number): string {
  return WIDTH_DIGITS[Math.floor(hundredths / 64)]! + WIDTH_DIGITS[hundredths % 64]!;
}

function encode(ranges: readonly Range[]): string {
  const runs: Array<[length: number, hundredths: number]> = [];
  const push = (length: number, hundredths: number) => {
    const last = runs.at(-1);
    if (last && last[1] === hundredths) last[0] += length;
    else if (length > 0) runs.push([length, hundredths]);
  };
  let next = 0;
  for (const [first, last, width] of ranges) {
    const hundredths = Math.round(width * 100);
    if (Math.abs(hundredths - width * 100) > 1e-6 || hundredths >= UNKNOWN_WIDTH) throw new Error(`width ${width} has no two-digit form`);
    push(first - next, UNKNOWN_WIDTH);
    push(last - first + 1, hundredths);
    next = last + 1;
  }
  return runs.map(([length, hundredths]) => lengthDigits(length) + widthDigits(hundredths)).join("");
}

/** A long string as lines of JavaScript joined: a diff of the table then shows where it changed. */
function asLines(text: string): string {
  const lines = text.match(/.{1,110}/g) ?? [];
  return `[\n${lines.map((line) => `  "${line}",`).join("\n")}\n].join("")`;
}

const tables = Object.entries(FONT_TABLE_NAMES).map(([font, file]) => {
  const ranges = JSON.parse(readFileSync(join(source, `${file}.json`), "utf8")) as Range[];
  return `  "${font}": ${asLines(encode(ranges)).replaceAll("\n", "\n  ")},`;
});

const out = `// Written by scripts/write-badge-widths.ts from anafanafo 2.0.0's tables (shields.io's
// text widths, measured in Chrome); do not edit. Form: src/badge/font-width-format.ts.

import type { FontTableName } from "./font-width-format.ts";

export const FONT_WIDTHS: Record<FontTableName, string> = {
${tables.join("\n")}
};
`;
writeFileSync(join(import.meta.dir, "../src/badge/font-widths.ts"), out);
console.log(`wrote src/badge/font-widths.ts (${out.length} characters)`);
