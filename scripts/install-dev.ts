// Installs, on first use, what the tests, the benches and the maintainer's
// commands need beyond `npm install` (which brings only what `npm start` runs):
//
// - the dev package test/package.json: test, bench and build tools (TypeScript,
//   the layer check, the peers the tests and benches talk to or compare with),
//   with `npm ci` from its own lockfile into test/node_modules, again whenever
//   that lockfile changes; bench/node_modules links to it, so that the files of
//   both folders resolve its packages (Bun and TypeScript look for a bare import
//   in the node_modules folders above the importing file);
// - with --for=test or --for=bench, the Debian packages those need and lack
//   (test/support/debian.ts): as root with apt-get, apt-get installs them;
//   otherwise it stops with one line giving the command to run.
//
//   bun scripts/install-dev.ts [--for=test|--for=bench]
//
// package.json runs it before each command that needs it; it takes ~20 ms
// when everything is there already.

import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { aptInstall, DEBIAN_PACKAGES, type Need } from "../test/support/debian.ts";

const ROOT = join(import.meta.dir, "..");
const DEV = join(ROOT, "test");
const MODULES = join(DEV, "node_modules");
/** Written after a successful `npm ci`: the hash of the lockfile it installed from. */
const STAMP = join(MODULES, ".installed-from-lockfile");
/** Held while one command installs: a folder (made or not, atomically) with the holder's pid. */
const LOCK = join(DEV, ".install-lock");

const WHAT: Record<Need, string> = { test: "npm test", bench: "npm run bench" };

function fail(line: string): never {
  console.error(`install-dev: ${line}`);
  process.exit(1);
}

function lockfileHash(): string {
  return createHash("sha256").update(readFileSync(join(DEV, "package-lock.json"))).digest("hex");
}

/** Whether the process that took the lock has gone (it was killed mid-install): the lock is then stale. */
function lockHolderGone(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, "pid"), "utf8"));
  } catch {
    return false; // just taken: its pid is being written
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs `install` holding the lock: two commands started together (`npm test`
 * beside `npm run bench`) would run two `npm ci` in one folder, and both fail;
 * the second waits for the first's, then finds it done.
 */
function whileLocked(install: () => void): void {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockHolderGone()) rmSync(LOCK, { recursive: true, force: true });
      else Bun.sleepSync(500);
    }
  }
  try {
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    install();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function installDevPackage(): void {
  const installed = () => existsSync(STAMP) && readFileSync(STAMP, "utf8") === lockfileHash();
  if (installed()) return;
  whileLocked(() => {
    if (!installed()) installFromLockfile();
  });
}

function installFromLockfile(): void {
  const hash = lockfileHash();
  console.error("install-dev: installing the test and bench packages (npm ci in test/, ~800 MB, once per lockfile change)");
  const npm = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: DEV, stdout: "inherit", stderr: "inherit" });
  if (npm.exitCode !== 0) fail(`npm ci in test/ failed (exit ${npm.exitCode}; its error is above)`);
  mkdirSync(MODULES, { recursive: true });
  writeFileSync(STAMP, hash);
}

function linkBenchModules(): void {
  const link = join(ROOT, "bench", "node_modules");
  if (!existsSync(join(ROOT, "bench"))) return;
  try {
    lstatSync(link);
  } catch {
    symlinkSync(join("..", "test", "node_modules"), link);
  }
}

function installDebianPackages(need: Need): void {
  const missing = () => DEBIAN_PACKAGES.filter((pkg) => pkg.needed.includes(need) && !pkg.present()).map((pkg) => pkg.name);
  const names = missing();
  if (names.length === 0) return;
  const command = aptInstall(names);
  if (process.getuid?.() !== 0 || Bun.which("apt-get") === null) {
    const how = Bun.which("apt-get") === null ? `install them with your system's packages (on Debian: sudo ${command})` : `run: sudo ${command}`;
    fail(`${WHAT[need]} needs Debian's ${names.join(", ")}, missing here; ${how}`);
  }
  console.error(`install-dev: ${WHAT[need]} needs Debian's ${names.join(", ")}: ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["apt-get", "update", "-qq"], command.split(" ")]) {
    const step = Bun.spawnSync(args, { env, stdout: "pipe", stderr: "pipe" });
    if (step.exitCode !== 0) {
      console.error((step.stdout.toString() + step.stderr.toString()).trim().split("\n").slice(-15).join("\n"));
      fail(`${args.join(" ")} failed (exit ${step.exitCode}; the end of its output is above)`);
    }
  }
  const still = missing();
  if (still.length > 0) fail(`${command} ran, yet ${still.join(", ")} still missing`);
}

const args = process.argv.slice(2);
const need = args[0]?.startsWith("--for=") ? args[0].slice("--for=".length) : undefined;
if (args.length > 1 || (args.length === 1 && need !== "test" && need !== "bench")) {
  fail(`unknown arguments ${args.join(" ")}; usage: bun scripts/install-dev.ts [--for=test|--for=bench]`);
}
installDevPackage();
linkBenchModules();
if (need === "test" || need === "bench") installDebianPackages(need);
