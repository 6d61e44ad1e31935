// Names that say what a symbol is (issue 39): no two exported symbols under
// src share a name, as no two files do (file-names.test.ts), so a name in an
// import, a stack trace or a review points at one thing. Two `Store` types
// (render's drawing caches and the storage interface) and two `motdRuns` once
// stood for different things.
//
// Read from the text: typescript 7 is the Go compiler, with no JavaScript API,
// and Bun's transpiler forgets the type exports. Every top-level export in src
// starts its line (the formatter's layout); declarations inside `declare
// module` blocks (src/*.d.ts) are indented, and describe other packages.

import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** `export [declare] [default] [async] [abstract] <kind> NAME`. */
const DECLARED = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
/** `export [type] { a, type b, c as d } [from "..."]` and `export * as ns from "..."`. */
const LISTED = /^export\s+(?:type\s+)?\{([^}]*)\}\s*(from\s+["'][^"']+["'])?/gm;
const NAMESPACE = /^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from/gm;

/** Whether `name` is declared in `source` (exported or not), rather than imported. */
function declaresHere(source: string, name: string): boolean {
  return new RegExp(`^(?:export\\s+)?(?:declare\\s+)?(?:async\\s+)?(?:abstract\\s+)?(?:function\\*?|class|const|let|var|interface|type|enum)\\s+${name.replace(/\$/g, "\\$")}\\b`, "m").test(source);
}

/**
 * The names `source` exports as symbols of its own: a declaration, a list
 * naming something declared here, or a re-export under a new name. A name
 * passed on unchanged (`export { X } from`, or an import listed in an export)
 * is the same symbol as its declaration, not another of that name.
 */
export function exportedNames(source: string): Set<string> {
  const names = new Set<string>();
  for (const [, name] of source.matchAll(DECLARED)) names.add(name!);
  for (const [, name] of source.matchAll(NAMESPACE)) names.add(name!);
  for (const [, list, from] of source.matchAll(LISTED)) {
    for (const item of list!.split(",").map((part) => part.replace(/^\s*type\s+/, "").trim()).filter(Boolean)) {
      const [local, exported = local] = item.split(/\s+as\s+/) as [string, string?];
      if (exported !== local || (!from && declaresHere(source, local))) names.add(exported);
    }
  }
  return names;
}

function sourceFiles(): string[] {
  return readdirSync("src", { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join("src", file).split("\\").join("/"))
    .sort();
}

/** Each exported name more than one file under src has, with those files. */
function sharedExports(files: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) for (const name of exportedNames(readFileSync(file, "utf8"))) byName.set(name, [...(byName.get(name) ?? []), file]);
  return Object.fromEntries([...byName].filter(([, files]) => files.length > 1));
}

test("the reading finds every form of export, and passing a symbol on is not another of its name", () => {
  const source = [
    "import { Passed, Listed } from './elsewhere.ts';",
    "export interface Shape {}",
    "export type Kind = 1;",
    "export const first = 1;",
    "export async function load() {}",
    "export abstract class Base {}",
    "export enum Mode { A }",
    "function local() {}",
    "export { local, Listed, local as renamed };",
    "export type { Passed };",
    "export { Again, type Typed, Original as Alias } from './other.ts';",
    "export * as everything from './all.ts';",
    "export * from './rest.ts';",
    "  export class Indented {}",
  ].join("\n");
  expect([...exportedNames(source)].sort()).toEqual(["Alias", "Base", "Kind", "Mode", "Shape", "everything", "first", "load", "local", "renamed"]);
});

test("no two exported symbols under src share a name", () => {
  expect(sharedExports(sourceFiles())).toEqual({});
});
