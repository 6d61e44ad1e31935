// The two tests every migration folder gets (SQLite's migrations/, PostgreSQL's
// migrations-pg/): what drizzle-kit generated is what the binary embeds, and a
// journal entry without its SQL is an error.

import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";

interface MigrationSet {
  /** The folder drizzle-kit writes. */
  folder: string;
  journal: { entries: ReadonlyArray<{ tag: string }> };
  sqlByTag: Readonly<Record<string, string>>;
  embeddedMigrations(entries: Array<{ tag: string; when: number; breakpoints: boolean }>): unknown;
}

export function testEmbeddedMigrations({ folder, journal, sqlByTag, embeddedMigrations }: MigrationSet): void {
  test("every migration drizzle-kit generated is embedded", () => {
    const files = readdirSync(folder).filter((name) => name.endsWith(".sql")).map((name) => name.slice(0, -4));
    expect(Object.keys(sqlByTag).sort()).toEqual(files.sort());
    expect(journal.entries.map((entry) => entry.tag).sort()).toEqual(files.sort());
  });

  test("a journal entry without embedded SQL is an error, not a silent skip", () => {
    expect(() => embeddedMigrations([{ tag: "9999_missing", when: 1, breakpoints: true }])).toThrow("9999_missing");
  });
}
