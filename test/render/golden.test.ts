// The golden check itself (support/golden.ts), on goldens in a temp folder:
// it never writes a golden, a missing one fails, and its tolerance lets
// machine-to-machine rounding through but not a missing glyph-sized block.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Path, Pixmap, encodePng, fillPath, rgba, solid } from "../../src/render/index.ts";
import { expectGolden } from "./support/golden.ts";

const INSPECTION = join(import.meta.dir, "../../test-output/gallery");

function banner(): Pixmap {
  const p = new Pixmap(200, 100);
  p.fill(rgba(24, 27, 38));
  fillPath(p, new Path().circle(60, 50, 30), solid(rgba(255, 255, 85)));
  fillPath(p, new Path().rect(120, 20, 60, 60), solid(rgba(85, 255, 255, 160)));
  return p;
}

describe("golden check", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pennant-golden-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const name of ["probe.actual.png", "probe.diff.png"]) rmSync(join(INSPECTION, name), { force: true });
  });

  /** A reference file for banner(), at zlib level 9 so that a rewrite by the writer's default level would change its bytes. */
  function storeProbe(): { file: string; bytes: Buffer } {
    const file = join(dir, "probe.png");
    writeFileSync(file, encodePng(banner(), { level: 9 }));
    return { file, bytes: readFileSync(file) };
  }

  test("a missing golden fails, naming the command that creates it, and is not created", () => {
    const file = join(dir, "probe.png");
    expect(() => expectGolden(file, banner())).toThrow("does not exist: create it with `npm run gallery:update`");
    expect(existsSync(file)).toBe(false);
  });

  test("a match passes and leaves the file's bytes alone", () => {
    const { file, bytes } = storeProbe();
    expectGolden(file, banner());
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  test("differences of 2 levels everywhere, and 4 pixels beyond, pass", () => {
    const { file } = storeProbe();
    const p = banner();
    for (let i = 0; i < p.data.length; i += 4) p.data[i + 2] = Math.max(0, p.data[i + 2]! - 2);
    for (let x = 0; x < 4; x++) p.data.set([255, 255, 255, 255], (10 * 200 + x) * 4);
    expectGolden(file, p);
  });

  test("a missing 10x10 px block fails with the counts, leaves actual and diff images, and the golden stays", () => {
    const { file, bytes } = storeProbe();
    const p = banner();
    fillPath(p, new Path().rect(55, 45, 10, 10), solid(rgba(24, 27, 38)));
    expect(() => expectGolden(file, p)).toThrow(/probe\.png does not match the drawing: 100 pixels differ by more than 2 levels \(at most 4 may\), largest difference 231, mean error 0\.\d+/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(existsSync(join(INSPECTION, "probe.actual.png"))).toBe(true);
    expect(existsSync(join(INSPECTION, "probe.diff.png"))).toBe(true);
  });

  test("red and blue swapped fail", () => {
    const { file } = storeProbe();
    const p = banner();
    for (let i = 0; i < p.data.length; i += 4) p.data.set([p.data[i + 2]!, p.data[i + 1]!, p.data[i]!], i);
    expect(() => expectGolden(file, p)).toThrow("does not match the drawing");
  });
});
