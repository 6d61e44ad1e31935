// The DejaVu faces' tables: the committed file is what fontkit gives for the
// fonts shipped (`npm run glyphs:update` rewrites it), their outlines are
// fontkit's own, and a face with tables draws text of the alphabet without
// opening its file in fontkit, and opens it for anything else.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import * as fontkit from "fontkit";
import { Pixmap, drawTextLine, layoutText, rgba, type FontFamily } from "../../../src/render/index.ts";
import { outlineFromStored, storedOutline, type FaceTables } from "../../../src/render/text/face-tables.ts";
import { outlineOf } from "../../../src/render/text/fontkit-font.ts";
import { DEJAVU_FILES } from "../../../src/render/text/fonts.ts";
import { openOutlineFace } from "../../../src/render/text/outline-face.ts";
import { learnDejaVuTables, TABLES_FILE, tablesText } from "../support/update-face-tables.ts";

const committed = JSON.parse(readFileSync(TABLES_FILE, "utf8")) as Record<string, FaceTables>;

describe("glyphs/dejavu/tables.json", () => {
  test("is what fontkit gives for the shipped fonts now (else run `npm run glyphs:update`)", () => {
    expect(readFileSync(TABLES_FILE, "utf8")).toBe(tablesText(learnDejaVuTables()));
  });

  test("holds every face, both script contexts composable, and every glyph of the alphabet", () => {
    expect(Object.keys(committed)).toEqual(Object.keys(DEJAVU_FILES));
    for (const face of Object.values(committed)) {
      expect(face.latin).not.toBeNull();
      expect(face.detected).not.toBeNull();
      expect(face.glyphIds).not.toContain(0);
      expect(Object.keys(face.outlines).map(Number).sort((a, b) => a - b)).toEqual([...new Set(face.glyphIds)].sort((a, b) => a - b));
    }
  });

  test("stored outlines are built into fontkit's own paths", () => {
    for (const [name, file] of Object.entries(DEJAVU_FILES)) {
      const font = fontkit.openSync(file) as fontkit.Font;
      for (const [id, stored] of Object.entries(committed[name]!.outlines)) {
        const path = outlineOf(font, Number(id));
        expect(outlineFromStored(stored)).toEqual(path);
        expect(storedOutline(path)).toEqual(stored);
      }
    }
  });
});

describe("a face with tables", () => {
  const open = () => openOutlineFace(DEJAVU_FILES["DejaVuSans.ttf"], { tables: committed["DejaVuSans.ttf"] });
  const draw = (family: FontFamily, text: string) => {
    const pixmap = new Pixmap(300, 20);
    drawTextLine(pixmap, layoutText(text, { family, size: 14 }), 2, 15, rgba(0, 0, 0));
  };

  test("draws the alphabet (kerned, cut, captions) without fontkit", () => {
    const face = open();
    draw({ regular: face, fallbacks: [] }, "AV Ty: 1,234 / 5,000 \u00b7 now \u2014 Skyblock\u2026 ~!@#");
    expect(face.fontkitOpened).toBe(false);
  });

  test("opens fontkit for a character beyond it, and for a ligature", () => {
    const first = open();
    draw({ regular: first, fallbacks: [] }, "caf\u00e9");
    expect(first.fontkitOpened).toBe(true);
    const second = open();
    draw({ regular: second, fallbacks: [] }, "office");
    expect(second.fontkitOpened).toBe(true);
  });
});
