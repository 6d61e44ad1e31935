// What the answering thread weighs a drawing's text by (draw-cost.ts): the
// characters the faces' tables do not shape, counted from the code points
// alone, with no font opened.

import { describe, expect, test } from "bun:test";
import { charactersBeyondTables } from "../../../src/render/basics.ts";
import { TABLE_ALPHABET } from "../../../src/render/text/table-alphabet.ts";

describe("charactersBeyondTables", () => {
  test("the tables' alphabet (printable ASCII and · — …) counts nothing", () => {
    expect(charactersBeyondTables(TABLE_ALPHABET)).toBe(0);
    expect(charactersBeyondTables("Skyblock Network · 1.21.4 — play.example.com…")).toBe(0);
    expect(charactersBeyondTables("")).toBe(0);
  });

  test("every other character counts once: accents, CJK, a character beyond the basic plane (two UTF-16 units)", () => {
    expect(charactersBeyondTables("Café")).toBe(1);
    expect(charactersBeyondTables("日本のサーバー")).toBe(7);
    expect(charactersBeyondTables("a😀b𠀀")).toBe(2);
    expect(charactersBeyondTables("§a\t")).toBe(2);
  });

  test("a lone surrogate counts as one character, as layout draws it (a box)", () => {
    expect(charactersBeyondTables("a\ud800b\udc00")).toBe(2);
  });
});
