// Names that say what a file holds (issue 19): no two files under src share a
// name, so a name in an import, a stack trace or a review points at one thing.
// Three resolve.ts (DNS, banner data, badge answers) once did three jobs.

import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * Files that may share their name, each with why. index.ts is a folder's
 * entrance by convention: the program's (src/index.ts), the render engine's one
 * way in (src/render/index.ts, which .dependency-cruiser.cjs requires), the
 * template registry's (src/banner/templates/index.ts).
 */
const SHARED_NAMES: Record<string, string[]> = {
  "index.ts": ["src/banner/templates/index.ts", "src/index.ts", "src/render/index.ts"],
};

function sourceFiles(): string[] {
  return readdirSync("src", { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join("src", file).split("\\").join("/"));
}

/** Each name more than one file under src has, with those files (sorted). */
function sharedNames(files: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
  return Object.fromEntries([...byName].filter(([, same]) => same.length > 1).map(([name, same]) => [name, same.sort()]));
}

test("no two files under src share a name, but the listed entrances", () => {
  expect(sharedNames(sourceFiles())).toEqual(SHARED_NAMES);
});
