// The test command of `npm run mutate` (Stryker's command runner calls it in
// its sandbox, once per mutant). Stryker puts every mutant of a file into that
// file, behind stryMutAct_9fa48("<id>"), and names the active one in
// __STRYKER_ACTIVE_MUTANT__; running only the tests of the area holding that
// file keeps one mutant to seconds instead of the whole suite. Without an
// active mutant (Stryker's first, unmutated run) or if no area claims it,
// every area's tests run.

import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Area {
  name: string;
  mutate: string[];
  tests: string[];
}

const ROOT = join(import.meta.dir, "..");
const { areas } = JSON.parse(readFileSync(join(import.meta.dir, "mutation-areas.json"), "utf8")) as { areas: Area[] };

/** A Stryker mutate pattern without its line range ("src/a.ts:3-9" -> "src/a.ts"). */
function withoutRange(pattern: string): string {
  return pattern.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, "");
}

function holdsMutant(area: Area, id: string): boolean {
  const marker = `stryMutAct_9fa48("${id}")`;
  return area.mutate.some((pattern) =>
    [...new Bun.Glob(withoutRange(pattern)).scanSync({ cwd: ROOT })].some((file) =>
      readFileSync(join(ROOT, file), "utf8").includes(marker),
    ),
  );
}

const id = process.env.__STRYKER_ACTIVE_MUTANT__;
const chosen = (id === undefined ? [] : areas.filter((area) => holdsMutant(area, id))).flatMap((area) => area.tests);
const tests = [...new Set(chosen.length > 0 ? chosen : areas.flatMap((area) => area.tests))];

const run = Bun.spawnSync([process.execPath, "test", "--bail", "--timeout", "30000", ...tests.map((file) => `./${file}`)], {
  cwd: ROOT,
  stdout: "inherit",
  stderr: "inherit",
});
process.exit(run.exitCode ?? 1);
