// `npm run glyphs:update`: learns the DejaVu faces' tables from fontkit
// (src/render/text/table-learning.ts) and writes them to
// glyphs/dejavu/tables.json, which the server reads instead of opening the
// fonts with fontkit. Run it after changing a font, fontkit or the table
// alphabet; face-tables.test.ts fails until then.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as fontkit from "fontkit";
import { DEJAVU_FILES } from "../../../src/render/text/fonts.ts";
import { learnFaceTables } from "../../../src/render/text/table-learning.ts";
import type { FaceTables } from "../../../src/render/text/face-tables.ts";

export const TABLES_FILE = join(import.meta.dir, "..", "..", "..", "glyphs", "dejavu", "tables.json");

/** The tables of every DejaVu face, learned now. */
export function learnDejaVuTables(): Record<string, FaceTables> {
  return Object.fromEntries(Object.entries(DEJAVU_FILES).map(([name, file]) => [name, learnFaceTables(fontkit.create(readFileSync(file)) as fontkit.Font)]));
}

/** The file's text: one line per face, so that a change shows as the faces it touches. */
export function tablesText(tables: Record<string, FaceTables>): string {
  return `{\n${Object.entries(tables).map(([name, face]) => `${JSON.stringify(name)}: ${JSON.stringify(face)}`).join(",\n")}\n}\n`;
}

if (import.meta.main) {
  await Bun.write(TABLES_FILE, tablesText(learnDejaVuTables()));
  console.log(`wrote ${TABLES_FILE}`);
}
