// The store's backends, for tests that must hold on every one of them: one
// test body, run once per backend (no copied suites). A backend joins by
// adding its factory to BACKENDS.

import { describe } from "bun:test";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { tempDir, track } from "./cleanup.ts";

/** A new, empty store (with a clock for what it times itself), closed after the test. */
export type OpenStore = (now?: () => number) => Promise<Store>;

interface Backend {
  name: string;
  open: OpenStore;
}

const BACKENDS: readonly Backend[] = [
  {
    name: "sqlite",
    async open(now) {
      const store = openSqliteStore(join(tempDir("store"), "pennant.db"), now);
      track(() => store.close());
      return store;
    },
  },
];

/** `describe(name)` once per backend, named after it, with the backend's way to open a store. */
export function forEachBackend(name: string, body: (open: OpenStore) => void): void {
  for (const backend of BACKENDS) describe(`${name} [${backend.name}]`, () => body(backend.open));
}
