// What `npm install && npm start` costs a fresh clone on disk: `npm ci` of the
// root package (package.json and its lockfile alone, copied to a temporary
// folder) and the size of the node_modules it makes. Over INSTALL_LIMIT_BYTES
// it fails: the tests', benches' and tools' packages belong to the dev package
// (test/package.json, installed by scripts/install-dev.ts), not to the root.
// .ci/run runs it; so can anyone: `npm run check:install-size`.

import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** 200 MB (10^6 bytes each), on disk as du counts it (a file hard-linked twice, as Bun's bun and bunx, counts once). */
const INSTALL_LIMIT_BYTES = 200_000_000;

const ROOT = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "pennant-install-size-"));
try {
  for (const file of ["package.json", "package-lock.json", ".npmrc"]) {
    if (existsSync(join(ROOT, file))) copyFileSync(join(ROOT, file), join(dir, file));
  }
  const npm = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: dir, stdout: "pipe", stderr: "inherit" });
  if (npm.exitCode !== 0) throw new Error(`npm ci failed (exit ${npm.exitCode})`);
  const du = Bun.spawnSync(["du", "-s", "-B1", join(dir, "node_modules")], { stdout: "pipe", stderr: "inherit" });
  if (du.exitCode !== 0) throw new Error(`du failed (exit ${du.exitCode})`);
  const bytes = Number(du.stdout.toString().split(/\s/)[0]);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const verdict = bytes <= INSTALL_LIMIT_BYTES ? "within" : "OVER";
  console.log(`install size: npm ci of the root package puts ${mb(bytes)} in node_modules, ${verdict} the limit of ${mb(INSTALL_LIMIT_BYTES)}`);
  if (bytes > INSTALL_LIMIT_BYTES) process.exitCode = 1;
} catch (error) {
  console.error(`install size: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
