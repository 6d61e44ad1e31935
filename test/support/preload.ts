// Loaded before every test file (bunfig.toml): closes what tests leave running.

import { afterAll, afterEach, beforeEach } from "bun:test";
import { killOnExit, runEnded, testEnded, testStarted } from "./cleanup.ts";

beforeEach(testStarted);
afterEach(testEnded);
// What files started for the whole run (a PostgreSQL cluster each, ~20) is released here, one after
// another: over 30 s on a loaded 2-core machine, so this hook has a bound of its own.
afterAll(runEnded, { timeout: 180_000 });
process.on("exit", killOnExit);
