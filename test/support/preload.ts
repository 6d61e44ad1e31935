// Loaded before every test file (bunfig.toml): closes what tests leave running.

import { afterAll, afterEach, beforeEach } from "bun:test";
import { killOnExit, runEnded, testEnded, testStarted } from "./cleanup.ts";

beforeEach(testStarted);
afterEach(testEnded);
afterAll(runEnded);
process.on("exit", killOnExit);
