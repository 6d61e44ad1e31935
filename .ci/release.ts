// Release archives: one executable per platform, each packed as .tar.gz and
// .zip with the README, the docs it links to, the CHANGELOG, the licence and the fonts' licences, plus SHA256SUMS
// (checked with `sha256sum -c SHA256SUMS`) and SIZES.md.
//
//   npm run release                     -> every target, into dist/release/
//   bun .ci/release.ts linux-arm64 ...  -> only those
//
// Bun builds other platforms' executables from their runtimes, which it
// fetches from the npm registry (@oven/bun-<target>) once and caches. Needs
// `tar` and `zip` on the PATH.

import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { ROOT, compile, mebibytes } from "./build.ts";

export interface Target {
  name: string;
  /** Bun's --target. */
  bun: string;
  executable: "pennant" | "pennant.exe";
}

export const TARGETS: readonly Target[] = [
  // Baseline: runs on any x86-64 CPU. The default build needs AVX2, which
  // cheap VPSs with an emulated CPU model (qemu64) often lack.
  { name: "linux-x64", bun: "bun-linux-x64-baseline", executable: "pennant" },
  { name: "linux-x64-musl", bun: "bun-linux-x64-musl", executable: "pennant" },
  { name: "linux-arm64", bun: "bun-linux-arm64", executable: "pennant" },
  { name: "darwin-x64", bun: "bun-darwin-x64", executable: "pennant" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", executable: "pennant" },
  { name: "windows-x64", bun: "bun-windows-x64", executable: "pennant.exe" },
];

/**
 * Files beside the executable in every archive: [source in the repository, name in the archive].
 * The README links to docs/ by topic, so the pages and the screenshots it shows travel with it
 * (the gallery's images, 8 MB, stay in the repository; pages that show them link there), and so does the CHANGELOG.
 */
const COMPANIONS: ReadonlyArray<[string, string]> = [
  ["README.md", "README.md"],
  ["LICENSE", "LICENSE"],
  ["CHANGELOG.md", "CHANGELOG.md"],
  ["glyphs/README.md", "licenses/fonts.md"],
  ["glyphs/dejavu/LICENSE", "licenses/dejavu-LICENSE"],
  ["glyphs/unifont/LICENSE", "licenses/unifont-LICENSE"],
  ...readdirSync(join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md") || file.endsWith(".png"))
    .sort()
    .map((file): [string, string] => [`docs/${file}`, `docs/${file}`]),
];

export interface Archive {
  file: string;
  bytes: number;
}

async function run(command: string[], cwd: string): Promise<void> {
  let child;
  try {
    child = Bun.spawn(command, { cwd, stdout: "pipe", stderr: "pipe" });
  } catch {
    throw new Error(`${command[0]} is not installed (it packs the archives; e.g. apt-get install ${command[0]})`);
  }
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${command.join(" ")} failed: ${stderr.trim()}`);
}

/** Packs one executable as <outDir>/pennant-<version>-<target>.tar.gz and .zip; returns both. */
export async function packageRelease(binary: string, target: Target, version: string, outDir: string): Promise<Archive[]> {
  const name = `pennant-${version}-${target.name}`;
  const staging = mkdtempSync(join(tmpdir(), "pennant-release-"));
  try {
    const folder = join(staging, name);
    mkdirSync(join(folder, "licenses"), { recursive: true });
    mkdirSync(join(folder, "docs"), { recursive: true });
    copyFileSync(binary, join(folder, target.executable));
    chmodSync(join(folder, target.executable), 0o755);
    for (const [source, copy] of COMPANIONS) copyFileSync(join(ROOT, source), join(folder, copy));
    mkdirSync(outDir, { recursive: true });
    const tarball = join(outDir, `${name}.tar.gz`);
    const zip = join(outDir, `${name}.zip`);
    rmSync(tarball, { force: true });
    rmSync(zip, { force: true });
    await Promise.all([run(["tar", "-czf", tarball, name], staging), run(["zip", "-q", "-r", "-X", zip, name], staging)]);
    return [tarball, zip].map((file) => ({ file, bytes: statSync(file).size }));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export async function sha256(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(file).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

/** SHA256SUMS in the format `sha256sum -c` reads. */
export async function writeChecksums(archives: readonly Archive[], outDir: string): Promise<string> {
  const lines = await Promise.all(archives.map(async ({ file }) => `${await sha256(file)}  ${basename(file)}`));
  const path = join(outDir, "SHA256SUMS");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((name) => !TARGETS.some((target) => target.name === name));
  if (unknown.length > 0) {
    console.error(`error: unknown target ${unknown.join(", ")} (targets: ${TARGETS.map((target) => target.name).join(", ")})`);
    return 2;
  }
  const chosen = names.length > 0 ? TARGETS.filter((target) => names.includes(target.name)) : TARGETS;
  const outDir = join(ROOT, "dist", "release");
  rmSync(outDir, { recursive: true, force: true });
  const archives: Archive[] = [];
  const rows: string[] = [];
  const failed: string[] = [];
  for (const target of chosen) {
    const binary = join(outDir, "build", target.name, target.executable);
    try {
      await compile({ outfile: join(outDir, "build", target.name, "pennant"), target: target.bun });
      const packed = await packageRelease(binary, target, pkg.version, outDir);
      archives.push(...packed);
      const [tarball, zip] = packed as [Archive, Archive];
      rows.push(`| ${target.name} | ${mebibytes(statSync(binary).size)} | ${mebibytes(tarball.bytes)} | ${mebibytes(zip.bytes)} |`);
      console.log(`built ${target.name}`);
    } catch (error) {
      failed.push(`${target.name}: ${(error as Error).message}`);
      console.error(`not built: ${target.name}: ${(error as Error).message}`);
    }
  }
  rmSync(join(outDir, "build"), { recursive: true, force: true });
  if (archives.length > 0) await writeChecksums(archives, outDir);
  const table = [`Pennant ${pkg.version}, Bun ${Bun.version}`, "", "| target | executable | .tar.gz | .zip |", "|---|---|---|---|", ...rows].join("\n");
  writeFileSync(join(outDir, "SIZES.md"), `${table}\n`);
  console.log(`\n${table}\n\nin dist/release/ with SHA256SUMS`);
  if (failed.length > 0) {
    console.error(`error: ${failed.length} target(s) not built:\n  ${failed.join("\n  ")}`);
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
