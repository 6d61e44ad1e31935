// MCBanners' public API (github.com/MCBanners/mcbanners-api), run from a
// checkout outside this repository: its own entry point under Bun, with
// NODE_ENV=production, the only setting under which it pings live servers
// (otherwise it answers from built-in fixtures). Nothing of it is imported:
// it is a process spoken to over HTTP, like any peer.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort } from "../../test/support/services.ts";

const ENTRY = join("apps", "api", "src", "index.ts");
const STARTUP_MS = 30_000;

export interface RunningMcBanners {
  url: string;
  /** Its process, for its CPU time (bench/http/load.ts). */
  pid: number;
  /** The commit of the checkout, when it is a git work tree. */
  commit: string | null;
  stop(): Promise<void>;
}

/** Why it cannot be started from `dir`, or null when it looks runnable. */
function missing(dir: string): string | null {
  if (!existsSync(join(dir, ENTRY))) return `no ${ENTRY} under ${dir} (clone github.com/MCBanners/mcbanners-api there)`;
  if (!existsSync(join(dir, "node_modules"))) return `no node_modules in ${dir} (run \`bun install --frozen-lockfile\` there)`;
  return null;
}

function commitOf(dir: string): string | null {
  const result = Bun.spawnSync(["git", "-C", dir, "rev-parse", "--short", "HEAD"], { stdout: "pipe", stderr: "ignore" });
  return result.exitCode === 0 ? result.stdout.toString().trim() : null;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).ok;
  } catch {
    return false;
  }
}

/** Starts MCBanners from `dir` on a free loopback port; throws with the reason (and its output) when it does not come up. */
export async function startMcBanners(dir: string): Promise<RunningMcBanners> {
  const reason = missing(dir);
  if (reason) throw new Error(reason);
  const port = await freePort();
  const child: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn([process.execPath, ENTRY], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), LOG_LEVEL: "warn" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stop = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_MS;
  while (!(await healthy(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      const output = (await new Response(child.stderr).text()) + (await new Response(child.stdout).text());
      throw new Error(`it did not answer /health within ${STARTUP_MS / 1000} s: ${output.trim().split("\n").slice(-5).join(" | ")}`);
    }
    await Bun.sleep(100);
  }
  return { url, pid: child.pid, commit: commitOf(dir), stop };
}

/** Its server banner of host:port (always 300x100), with its query parameters (`namespace__key`). */
export function mcBannersUrl(base: string, host: string, port: number, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${base}/banner/server/${host}/${port}/banner.png${search ? `?${search}` : ""}`;
}

/** Its 11 background presets (`background__template`), as its API accepts them; MOONLIGHT_PURPLE is the default. */
export const MCBANNERS_BACKGROUNDS = [
  "MOONLIGHT_PURPLE", "BLUE_RADIAL", "BURNING_ORANGE", "MANGO", "ORANGE_RADIAL", "VELVET",
  "YELLOW", "MALACHITE_GREEN", "DARK_GUNMETAL", "PURPLE_TAUPE", "LIGHT_MODE",
] as const;
