// The Debian packages the tests and benches run programs from, and how each
// is found. scripts/install-dev.ts installs the missing ones before `npm test`
// and `npm run bench` (or says the one command that does); a harness that
// still finds one missing fails with missingPackage(). Nothing here imports a
// dev package: the installer reads this list before those are installed.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Where the browser tests find Chromium (Debian's chromium package puts it at /usr/bin/chromium). */
export const CHROMIUM = process.env.PENNANT_CHROMIUM ?? "/usr/bin/chromium";
/** PENNANT_SKIP_BROWSER_TESTS=1 skips the designer's browser tests, on purpose only: nor is Chromium installed for them. */
export const SKIP_BROWSER_TESTS = process.env.PENNANT_SKIP_BROWSER_TESTS === "1";

const POSTGRES_VERSIONS = "/usr/lib/postgresql";

/** The bin folder of the newest PostgreSQL Debian installed (/usr/lib/postgresql/N/bin), or of initdb on the PATH. */
export function findPostgresBin(): string | undefined {
  const versions = existsSync(POSTGRES_VERSIONS)
    ? readdirSync(POSTGRES_VERSIONS)
        .filter((version) => existsSync(join(POSTGRES_VERSIONS, version, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] !== undefined) return join(POSTGRES_VERSIONS, versions[0], "bin");
  const onPath = Bun.which("initdb");
  return onPath ? join(onPath, "..") : undefined;
}

/** Debian's nginx, in /usr/sbin (which a user's PATH may lack), or on the PATH. */
export function findNginx(): string | undefined {
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : (Bun.which("nginx") ?? undefined);
}

/** Who needs a package: the test suite, the benches (`npm run bench`), or both. */
export type Need = "test" | "bench";

export interface DebianPackage {
  name: string;
  needed: readonly Need[];
  /** True when its programs are where the tests look for them. */
  present(): boolean;
}

export const DEBIAN_PACKAGES: readonly DebianPackage[] = [
  { name: "postgresql", needed: ["test", "bench"], present: () => findPostgresBin() !== undefined },
  { name: "redis-server", needed: ["test", "bench"], present: () => Bun.which("redis-server") !== null },
  // The https webhook receiver's certificate, and the hand-signing example of docs/signed-api.md (with curl).
  { name: "openssl", needed: ["test"], present: () => Bun.which("openssl") !== null },
  { name: "curl", needed: ["test"], present: () => Bun.which("curl") !== null },
  { name: "chromium", needed: SKIP_BROWSER_TESTS ? [] : ["test"], present: () => existsSync(CHROMIUM) },
  // The load balancer of docs/deploy.md in front of two instances (test/scale-out/proxy-failover.test.ts).
  { name: "nginx", needed: ["test"], present: () => findNginx() !== undefined },
];

/** The apt-get command that installs these packages. */
export function aptInstall(names: readonly string[]): string {
  return `apt-get install -y --no-install-recommends ${names.join(" ")}`;
}

/** The error a harness fails with when a package's program is missing (only when the installer could not run or was bypassed). */
export function missingPackage(what: string, name: string): Error {
  return new Error(`${what} not found: Debian's ${name} package is missing; \`npm test\` installs it (as root), or run: sudo ${aptInstall([name])}`);
}
