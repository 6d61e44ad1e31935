// `npm run check:layers` (.dependency-cruiser.cjs): run on a copy of the
// source tree, it passes as the tree is and fails, naming the rule and both
// files (a cycle's every file), once a violation is planted, a type-only
// import as much as any.

import { describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./support/cleanup.ts";

const ROOT = join(import.meta.dir, "..");

/** A copy of what the check reads: the sources, its configuration, the package's scripts and the dev package's installer (which finds the dev package installed). */
function copyOfTheTree(): string {
  const dir = tempDir("layers");
  const files = ["src", "package.json", ".dependency-cruiser.cjs", ".ci/layers-babel.cjs", "scripts/install-dev.ts", "test/support/debian.ts", "test/package-lock.json"];
  for (const path of files) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  for (const modules of ["node_modules", "test/node_modules"]) symlinkSync(join(ROOT, modules), join(dir, modules));
  return dir;
}

async function checkLayers(dir: string): Promise<{ exitCode: number; output: string }> {
  const child = Bun.spawn(["npm", "run", "--silent", "check:layers"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { exitCode, output: stdout + stderr };
}

/** Adds an import line to a file of the copy. */
function plant(dir: string, file: string, line: string): void {
  appendFileSync(join(dir, "src", file), `\n${line}\n`);
}

describe("npm run check:layers", () => {
  test("passes on the source tree as it is", async () => {
    const { exitCode, output } = await checkLayers(copyOfTheTree());
    expect(output).toContain("no dependency violations found");
    expect(exitCode).toBe(0);
  });

  test("fails on each planted violation, naming the rule and both files", async () => {
    const dir = copyOfTheTree();
    // Each planted import but the cycle's goes to a module that does not reach back, so that it closes no cycle.
    plant(dir, "render/color.ts", 'import type { BackgroundLook } from "../banner/backgrounds.ts";');
    plant(dir, "minecraft/format.ts", 'import type { Color } from "../render/index.ts";');
    plant(dir, "badge/record-values.ts", 'import { STATUS_WORD } from "../banner/parts.ts";');
    plant(dir, "auth/token.ts", 'import type { WriteHealth } from "../store/write-health.ts";');
    plant(dir, "store/servers.ts", 'export type { LookupResult } from "../lookup/result.ts";');
    plant(dir, "lookup/view.ts", 'const errors = await import("../http/errors.ts");');
    plant(dir, "lookup/result.ts", 'import { layoutText } from "../render/text/layout.ts";');
    plant(dir, "log.ts", 'import type { Db } from "./store/database.ts";');
    mkdirSync(join(dir, "src", "gadgets"));
    writeFileSync(join(dir, "src", "gadgets", "gauge.ts"), "export const GAUGE = 1;\n");
    plant(dir, "banner/numbers.ts", 'import { GAUGE } from "../gadgets/gauge.ts";');
    // closest.ts is imported by unknown-variables.ts: a type import back closes a cycle.
    plant(dir, "closest.ts", 'import type { UnknownVariable } from "./unknown-variables.ts";');
    plant(dir, "serve/app.ts", 'import type { SqliteStore } from "../store/sqlite-store.ts";');
    // The pipeline draws through the contract it defines (http/drawing/drawer.ts), never through serve's pool.
    plant(dir, "http/image-pipeline.ts", 'import type { RenderPool } from "../serve/drawing/render-pool.ts";');
    plant(dir, "store/postgres/pg-faults.ts", 'import { withinMs } from "../redis/deadline.ts";');

    const { exitCode, output } = await checkLayers(dir);
    for (const violation of [
      "render-imports-nothing-of-the-project: src/render/color.ts → src/banner/backgrounds.ts",
      "minecraft-imports-nothing-of-the-project: src/minecraft/format.ts → src/render/index.ts",
      "domains-do-not-import-each-other: src/badge/record-values.ts → src/banner/parts.ts",
      "auth-imports-only-shared-leaves: src/auth/token.ts → src/store/write-health.ts",
      "store-imports-only-auth-and-shared-leaves: src/store/servers.ts → src/lookup/result.ts",
      "nothing-imports-http: src/lookup/view.ts → src/http/errors.ts",
      "render-only-through-its-index: src/lookup/result.ts → src/render/text/layout.ts",
      "shared-leaves-import-only-each-other: src/log.ts → src/store/database.ts",
      "every-module-has-a-floor: src/banner/numbers.ts → src/gadgets/gauge.ts",
      "no-import-cycles: src/closest.ts → \n      src/unknown-variables.ts →\n      src/closest.ts",
      "only-the-wiring-imports-a-backend: src/serve/app.ts → src/store/sqlite-store.ts",
      "nothing-imports-serve: src/http/image-pipeline.ts → src/serve/drawing/render-pool.ts",
      "only-the-wiring-imports-a-backend: src/store/postgres/pg-faults.ts → src/store/redis/deadline.ts",
    ]) {
      expect(output).toContain(`error ${violation}`);
    }
    expect(output).toContain("x 13 dependency violations (13 errors");
    expect(exitCode).not.toBe(0);
  });
});
