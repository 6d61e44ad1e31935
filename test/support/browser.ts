// Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by
// playwright-core: never a browser downloaded by a test tool. Playwright runs
// it headless with a new empty profile; the flags keep it off the network
// (this machine's closed network refuses its background connections).
//
// A machine without Chromium fails the browser tests with a line saying so;
// PENNANT_SKIP_BROWSER_TESTS=1 skips them, on purpose only.

import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { track } from "./cleanup.ts";

export const CHROMIUM = process.env.PENNANT_CHROMIUM ?? "/usr/bin/chromium";
export const SKIP_BROWSER_TESTS = process.env.PENNANT_SKIP_BROWSER_TESTS === "1";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does), or set PENNANT_SKIP_BROWSER_TESTS=1 to skip the browser tests`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
  track(() => browser.close());
  return browser;
}
