// Debian's Chromium (/usr/bin/chromium, installed by `npm test`) driven by
// playwright-core: never a browser downloaded by a test tool. Playwright runs
// it headless with a new empty profile; the flags keep it off the network
// (this machine's closed network refuses its background connections).
//
// A machine without Chromium fails the browser tests with a line saying so;
// PENNANT_SKIP_BROWSER_TESTS=1 skips them, on purpose only.

import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { track } from "./cleanup.ts";
import { CHROMIUM, missingPackage } from "./debian.ts";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium with the flags above and `extra` (a test's own, such as a host name mapped to loopback). */
export async function launchChromium(extra: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw missingPackage(`Chromium at ${CHROMIUM} (PENNANT_SKIP_BROWSER_TESTS=1 skips the browser tests)`, "chromium");
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extra], timeout: 60_000 });
  track(() => browser.close());
  return browser;
}
