// The store's backends, for tests that must hold on every one of them: one
// test body, run once per backend (no copied suites). A backend joins by
// adding its factory to BACKENDS.

import { beforeAll, describe } from "bun:test";
import { join } from "node:path";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { tempDir, track } from "./cleanup.ts";
import { startPostgres, type Postgres } from "./postgres.ts";

/** A new, empty store (with a clock for what it times itself), closed after the test. */
export type OpenStore = (now?: () => number) => Promise<Store>;
/** Two stores over one new, empty database, as two instances have (race tests), closed after the test. */
export type OpenTwoStores = () => Promise<[Store, Store]>;

interface Backend {
  name: string;
  /** Starts what the backend's stores need, once for the whole run (called in beforeAll). */
  prepare?(): Promise<void>;
  open: OpenStore;
  openTwo: OpenTwoStores;
}

function tracked<S extends Store>(store: S): S {
  track(() => store.close());
  return store;
}

/** One PostgreSQL cluster for every test of the run that needs one (initdb takes ~1.7 s); each store gets a new database of it. */
let cluster: Promise<Postgres> | undefined;

const BACKENDS: readonly Backend[] = [
  {
    name: "sqlite",
    async open(now) {
      return tracked(openSqliteStore(join(tempDir("store"), "pennant.db"), now));
    },
    async openTwo() {
      const path = join(tempDir("store"), "pennant.db");
      return [tracked(openSqliteStore(path)), tracked(openSqliteStore(path))];
    },
  },
  {
    name: "postgres",
    async prepare() {
      await (cluster ??= startPostgres());
    },
    async open(now) {
      const postgres = await (cluster ??= startPostgres());
      return tracked(await openPostgresStore(await postgres.database(), undefined, now));
    },
    async openTwo() {
      const url = await (await (cluster ??= startPostgres())).database();
      return [tracked(await openPostgresStore(url)), tracked(await openPostgresStore(url))];
    },
  },
];

/** `describe(name)` once per backend, named after it, with the backend's way to open a store. */
export function forEachBackend(name: string, body: (open: OpenStore, openTwo: OpenTwoStores) => void): void {
  for (const backend of BACKENDS) {
    describe(`${name} [${backend.name}]`, () => {
      // Outside any test, so that what it starts lives until the run ends (cleanup.ts).
      if (backend.prepare) beforeAll(backend.prepare);
      body(backend.open, backend.openTwo);
    });
  }
}
