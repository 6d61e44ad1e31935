// scripts/install-dev.ts, which `npm test` and `npm run bench` run first: it
// installs the dev package from its lockfile once (again only when the
// lockfile changes), and the Debian packages the tests lack as root with
// apt-get; without root it stops with one line giving the command. Run on a
// copy of the script with a dev package of no dependencies (a real `npm ci`,
// offline), and with a PATH of a folder the test fills: a stand-in apt-get
// that logs its arguments and "installs" a package by making its program.

import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./support/cleanup.ts";
import { findNginx } from "./support/debian.ts";
import { ROOT } from "./support/process.ts";

const IS_ROOT = process.getuid?.() === 0;

function devPackage(version: string): { package: string; lockfile: string } {
  const pkg = { name: "dev", version, private: true };
  return {
    package: JSON.stringify(pkg),
    lockfile: JSON.stringify({ ...pkg, lockfileVersion: 3, requires: true, packages: { "": pkg } }),
  };
}

/** A copy of the installer beside a dev package of no dependencies, already installed once. */
async function copyOfTheInstaller(): Promise<string> {
  const dir = tempDir("install-dev");
  chmodSync(dir, 0o755);
  for (const path of ["scripts/install-dev.ts", "test/support/debian.ts"]) cpSync(join(ROOT, path), join(dir, path));
  mkdirSync(join(dir, "bench"));
  writeDevPackage(dir, "1.0.0");
  expect((await install(dir, [])).code).toBe(0);
  return dir;
}

function writeDevPackage(dir: string, version: string): void {
  const { package: pkg, lockfile } = devPackage(version);
  writeFileSync(join(dir, "test", "package.json"), pkg);
  writeFileSync(join(dir, "test", "package-lock.json"), lockfile);
}

interface Run {
  code: number;
  stderr: string;
}

async function install(dir: string, args: string[], env: Record<string, string> = {}, asNobody = false): Promise<Run> {
  const command = [process.execPath, join(dir, "scripts", "install-dev.ts"), ...args];
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PENNANT_")));
  const child = Bun.spawn(asNobody ? [Bun.which("runuser") ?? "runuser", "-u", "nobody", "--", ...command] : command, {
    cwd: dir,
    env: { ...inherited, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  return { code, stderr };
}

/** A folder for PATH: with `apt`, a stand-in apt-get that logs its arguments and makes each installed package's program there. */
function binFolder(dir: string, apt: "installs" | "fails" | "absent"): { path: string; log: string } {
  const bin = join(dir, "bin");
  const log = join(dir, "apt.log");
  mkdirSync(bin);
  writeFileSync(log, "");
  const install =
    apt === "fails"
      ? `echo "E: Unable to locate package redis-server" >&2; exit 100`
      : `for name in "$@"; do printf '#!/bin/sh\\n' > "${bin}/$name"; /bin/chmod +x "${bin}/$name"; done`;
  const body = `echo "$@" >> ${log}; [ "$1" = install ] || exit 0; ${install}`;
  if (apt !== "absent") {
    writeFileSync(join(bin, "apt-get"), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, "apt-get"), 0o755);
  }
  return { path: bin, log };
}

/**
 * What the tests lack with the bin folder as PATH. PostgreSQL is found outside the PATH too
 * (/usr/lib/postgresql), where `npm test` has installed it, and so is nginx (/usr/sbin) where
 * it is installed; Chromium is looked for in the bin folder.
 */
const TEST_PACKAGES = ["redis-server openssl curl chromium", ...(findNginx()?.startsWith("/usr/sbin/") ? [] : ["nginx"])].join(" ");

function restricted(bin: string): Record<string, string> {
  return { PATH: bin, PENNANT_CHROMIUM: join(bin, "chromium") };
}

describe("the dev package", () => {
  test("is installed from its lockfile once, again when the lockfile changes, and linked from bench/", async () => {
    const dir = await copyOfTheInstaller();
    expect(readlinkSync(join(dir, "bench", "node_modules"))).toBe(join("..", "test", "node_modules"));
    const kept = join(dir, "test", "node_modules", "kept");
    writeFileSync(kept, "");
    expect((await install(dir, [])).code).toBe(0);
    expect(existsSync(kept)).toBe(true); // no second npm ci: it would have emptied node_modules

    writeDevPackage(dir, "1.0.1");
    const changed = await install(dir, []);
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain("installing the test and bench packages");
    expect(existsSync(kept)).toBe(false);
  });
});

describe("two commands at once", () => {
  test("run one npm ci: the second waits for the first's and finds it done", async () => {
    const dir = await copyOfTheInstaller();
    writeDevPackage(dir, "1.0.1");
    const runs = await Promise.all([install(dir, []), install(dir, [])]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(runs.filter((run) => run.stderr.includes("installing the test and bench packages"))).toHaveLength(1);
    expect(existsSync(join(dir, "test", ".install-lock"))).toBe(false);
  });

  test("a lock left by a command that was killed does not hold the next one", async () => {
    const dir = await copyOfTheInstaller();
    writeDevPackage(dir, "1.0.1");
    mkdirSync(join(dir, "test", ".install-lock"));
    writeFileSync(join(dir, "test", ".install-lock", "pid"), "2147483646"); // no such process
    const run = await install(dir, []);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("installing the test and bench packages");
  });
});

describe("the Debian packages", () => {
  test.skipIf(!IS_ROOT)("as root, apt-get installs the ones the tests lack, and only those", async () => {
    const dir = await copyOfTheInstaller();
    const { path, log } = binFolder(dir, "installs");
    const run = await install(dir, ["--for=test"], restricted(path));
    expect(run).toEqual({ code: 0, stderr: expect.stringContaining(`npm test needs Debian's ${TEST_PACKAGES.split(" ").join(", ")}`) });
    expect(readFileSync(log, "utf8")).toBe(`update -qq\ninstall -y --no-install-recommends ${TEST_PACKAGES}\n`);

    // Now present: nothing more is installed, and the benches need only PostgreSQL and Redis.
    writeFileSync(log, "");
    expect((await install(dir, ["--for=test"], restricted(path))).code).toBe(0);
    expect((await install(dir, ["--for=bench"], restricted(path))).code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("");
  });

  test.skipIf(!IS_ROOT)("as root, a failed apt-get stops the command with one line naming it", async () => {
    const dir = await copyOfTheInstaller();
    const { path } = binFolder(dir, "fails");
    const run = await install(dir, ["--for=bench"], restricted(path));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n").at(-1)).toBe("install-dev: apt-get install -y --no-install-recommends redis-server failed (exit 100; the end of its output is above)");
    expect(run.stderr).toContain("E: Unable to locate package redis-server");
  });

  test("without root, it stops with one line giving the command, and runs no apt-get", async () => {
    const dir = await copyOfTheInstaller();
    const { path, log } = binFolder(dir, "installs");
    const run = await install(dir, ["--for=test"], restricted(path), IS_ROOT);
    expect(run).toEqual({
      code: 1,
      stderr: `install-dev: npm test needs Debian's ${TEST_PACKAGES.split(" ").join(", ")}, missing here; run: sudo apt-get install -y --no-install-recommends ${TEST_PACKAGES}\n`,
    });
    expect(readFileSync(log, "utf8")).toBe("");
  });

  test("without apt-get, it stops with one line naming the packages", async () => {
    const dir = await copyOfTheInstaller();
    const { path } = binFolder(dir, "absent");
    const run = await install(dir, ["--for=bench"], restricted(path));
    expect(run).toEqual({
      code: 1,
      stderr: "install-dev: npm run bench needs Debian's redis-server, missing here; install them with your system's packages (on Debian: sudo apt-get install -y --no-install-recommends redis-server)\n",
    });
  });

  test("PENNANT_SKIP_BROWSER_TESTS=1 leaves Chromium out", async () => {
    const dir = await copyOfTheInstaller();
    const { path, log } = binFolder(dir, "installs");
    expect((await install(dir, ["--for=test"], { ...restricted(path), PENNANT_SKIP_BROWSER_TESTS: "1" })).code).toBe(0);
    expect(readFileSync(log, "utf8")).not.toContain("chromium");
  });
});
