// Opening PostgreSQL (src/store/postgres/open-postgres.ts) against a real
// server from Debian's package (test/support/postgres.ts): the embedded
// migrations, the advisory lock that lets instances start together, jsonb
// that holds objects, and a clear, bounded failure when nothing answers.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import sqliteJournal from "../../migrations/meta/_journal.json" with { type: "json" };
import journal from "../../migrations-pg/meta/_journal.json" with { type: "json" };
import { MIGRATION_LOCK, openPostgres, PG_TIMEOUTS, type PgDb } from "../../src/store/postgres/open-postgres.ts";
import { pgEmbeddedMigrations, PG_SQL_BY_TAG } from "../../src/store/postgres/postgres-migrations.ts";
import { runPostgres } from "../../src/store/postgres/pg-queries.ts";
import { rows, run } from "../../src/store/query-steps.ts";
import { SQLITE_SQL_BY_TAG as SQLITE_SQL_BY_TAG } from "../../src/store/migrations.ts";
import { track } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { freePort, silentPort } from "../support/services.ts";
import { testEmbeddedMigrations } from "../support/embedded-migrations.ts";

const MIGRATIONS = join(import.meta.dir, "..", "..", "migrations-pg");
const TABLES = [
  "history_marks", "network_members", "networks", "plugins", "push_refusals", "replay_memory", "server_history", "server_samples", "servers", "tokens",
  "used_signatures",
  "webhook_deliveries", "webhook_states", "webhooks",
];

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

async function open(url: string): Promise<PgDb> {
  const db = await openPostgres(url);
  track(() => db.$client.close());
  return db;
}

/** A plain client on `url` for looking at what the code under test left, closed after the test. */
function inspect(url: string): SQL {
  const sql = new SQL(url, { max: 1 });
  track(() => sql.close());
  return sql;
}

async function tablesOf(sql: SQL): Promise<string[]> {
  const rows: { table_name: string }[] = await sql`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
  return rows.map((row) => row.table_name);
}

describe("migrations", () => {
  testEmbeddedMigrations({ folder: MIGRATIONS, journal, sqlByTag: PG_SQL_BY_TAG, embeddedMigrations: pgEmbeddedMigrations });

  test("apply to an empty database, and opening it again applies nothing", async () => {
    const url = await postgres.database();
    await open(url);
    const sql = inspect(url);
    expect(await tablesOf(sql)).toEqual(TABLES);
    await open(url);
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    expect(n).toBe(journal.entries.length);
  });

  test("instances opening an empty database at the same moment all start, and the schema is made once", async () => {
    const url = await postgres.database();
    // Separate processes, as instances are, each with its own connections; all
    // loaded first, then told to open at once.
    const instances = Array.from({ length: 4 }, () => {
      const child = Bun.spawn([process.execPath, "-e", OPEN_ON_CUE, url], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
      track(() => child.kill("SIGKILL"), () => child.kill("SIGKILL"));
      return child;
    });
    await Promise.all(instances.map((child) => child.stdout.getReader().read()));
    for (const child of instances) {
      child.stdin.write("go\n");
      void child.stdin.end();
    }
    const opened = await Promise.all(
      instances.map(async (child) => ({ stderr: await new Response(child.stderr).text(), code: await child.exited })),
    );
    expect(opened).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stderr: "" })));
    const sql = inspect(url);
    expect(await tablesOf(sql)).toEqual(TABLES);
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    expect(n).toBe(journal.entries.length);
  });

  test("start-up waits for the instance holding the migration lock, within the migration timeout", async () => {
    const url = await postgres.database();
    const other = await inspect(url).reserve();
    track(() => other.release());
    await other`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    const started = performance.now();
    await expect(openPostgres(url, { ...PG_TIMEOUTS, migrationMs: 300 })).rejects.toThrow("canceling statement due to statement timeout");
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    await other`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    await open(url);
  });
});

/** What each racing instance runs: load, say so, wait for its cue on stdin, open the database named by its argument, exit. */
const OPEN_ON_CUE = `
  const { openPostgres } = await import(${JSON.stringify(join(import.meta.dir, "..", "..", "src/store/postgres/open-postgres.ts"))});
  console.log("ready");
  for await (const _ of console) break;
  const db = await openPostgres(process.argv.at(-1));
  await db.$client.close();
`;

describe("the schema", () => {
  test("has the SQLite database's tables, columns, keys, indexes and foreign keys, in matching types", async () => {
    const url = await postgres.database();
    await open(url);
    const pg = await postgresCatalog(inspect(url));
    const sqlite = sqliteCatalog();
    expect(Object.keys(pg)).toEqual(Object.keys(sqlite));
    for (const [table, shape] of Object.entries(sqlite)) {
      const { types: pgTypes, ...pgShape } = pg[table]!;
      const { types: sqliteTypes, ...sqliteShape } = shape;
      expect({ table, ...pgShape }).toEqual({ table, ...sqliteShape });
      const pairs = sqliteTypes.map((type, n) => `${table}.${shape.columns[n]![0]}: ${type} -> ${pgTypes[n]}`);
      for (const pair of pairs) expect(pair).toMatch(/: (integer -> (bigint|integer|boolean)|real -> double precision|text -> (text|jsonb))$/);
    }
  });

  test("JSON columns hold objects and arrays, which PostgreSQL's JSON operators read", async () => {
    const url = await postgres.database();
    const db = await open(url);
    // Through the queries both backends share (src/store/query-steps.ts), on PostgreSQL's tables.
    await runPostgres(db, function* ({ db, tables: { tokens, servers, plugins } }) {
      const [token] = yield* rows(db.insert(tokens).values({ hash: "a".repeat(64), scope: "all", origin: "cli", createdAt: 1_764_000_000_000 }).returning());
      yield* run(db.insert(servers).values({ uuid: "s1", tokenId: token!.id, extra: { tps_5m: 19.5 }, firstSeen: 1, lastSeen: 1 }));
      yield* run(db.insert(plugins).values({ uuid: "p1", tokenId: token!.id, meta: { status: "stable" }, minecraftVersions: ["1.21"], firstSeen: 1, lastSeen: 1 }));
    });
    const sql = inspect(url);
    const [server] = await sql`SELECT jsonb_typeof(extra) AS type, extra->>'tps_5m' AS tps FROM servers`;
    expect(server).toEqual({ type: "object", tps: "19.5" });
    const [plugin] = await sql`
      SELECT jsonb_typeof(meta) AS meta, meta->>'status' AS status, jsonb_typeof(minecraft_versions) AS versions,
             jsonb_typeof(stats) AS stats, jsonb_typeof(server_software) AS software FROM plugins`;
    expect(plugin).toEqual({ meta: "object", status: "stable", versions: "array", stats: "object", software: "array" });
    // Read back through drizzle as the values written, times and ids as numbers.
    const [tokens, plugins] = await runPostgres(db, function* ({ db, tables }) {
      return [yield* rows(db.select({ id: tables.tokens.id, createdAt: tables.tokens.createdAt }).from(tables.tokens)), yield* rows(db.select().from(tables.plugins))] as const;
    });
    expect(tokens).toEqual([{ id: 1, createdAt: 1_764_000_000_000 }]);
    expect(plugins[0]).toMatchObject({ meta: { status: "stable" }, stats: {}, minecraftVersions: ["1.21"], serverSoftware: [] });
  });
});

/** A table as both catalogs describe it: columns [name, not null, in the primary key], indexes, foreign keys, and the column types apart. */
interface TableShape {
  columns: [string, boolean, boolean][];
  types: string[];
  indexes: [string, boolean, string[]][];
  foreignKeys: [string[], string, string[], string][];
}

/** What SQLite's own catalog says of a database made by its embedded migrations. */
function sqliteCatalog(): Record<string, TableShape> {
  const db = new Database(":memory:");
  try {
    for (const { tag } of sqliteJournal.entries) db.run(SQLITE_SQL_BY_TAG[tag]!.replaceAll("--> statement-breakpoint", ""));
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    return Object.fromEntries(
      tables.map(({ name }) => {
        const columns = db.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_xinfo(${name})`).all();
        const indexes = db.query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list(${name})`).all().filter((index) => index.origin !== "pk");
        const keys = db.query<{ id: number; table: string; from: string; to: string; on_delete: string }, []>(`PRAGMA foreign_key_list(${name})`).all();
        const shape: TableShape = {
          columns: columns.map((column) => [column.name, column.notnull === 1, column.pk > 0]),
          types: columns.map((column) => column.type.toLowerCase()),
          indexes: indexes
            .map((index): [string, boolean, string[]] => [
              index.name,
              index.unique === 1,
              db.query<{ name: string }, []>(`PRAGMA index_info(${index.name})`).all().map((column) => column.name),
            ])
            .sort(),
          // Sorted: SQLite lists a table's keys last declared first, PostgreSQL's query by constraint name.
          foreignKeys: keys.map((key): [string[], string, string[], string] => [[key.from], key.table, [key.to], key.on_delete.toLowerCase()]).sort(),
        };
        return [name, shape];
      }),
    );
  } finally {
    db.close();
  }
}

/** What PostgreSQL's catalog says of the public schema of the database `sql` is connected to. */
async function postgresCatalog(sql: SQL): Promise<Record<string, TableShape>> {
  const shapes: Record<string, TableShape> = {};
  for (const table of await tablesOf(sql)) {
    const columns: { name: string; type: string; not_null: boolean; pk: boolean }[] = await sql`
      SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
             EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS pk
      FROM pg_attribute a WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`;
    const indexes: { name: string; unique: boolean; columns: string[] }[] = await sql`
      SELECT c.relname AS name, i.indisunique AS unique,
             array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = ${table}::regclass AND NOT i.indisprimary ORDER BY c.relname`;
    const keys: { columns: string[]; target: string; target_columns: string[]; on_delete: string }[] = await sql`
      SELECT array(SELECT attname FROM pg_attribute WHERE attrelid = conrelid AND attnum = ANY (conkey)) AS columns,
             confrelid::regclass::text AS target,
             array(SELECT attname FROM pg_attribute WHERE attrelid = confrelid AND attnum = ANY (confkey)) AS target_columns,
             CASE confdeltype WHEN 'c' THEN 'cascade' WHEN 'a' THEN 'no action' ELSE confdeltype::text END AS on_delete
      FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'f' ORDER BY conname`;
    shapes[table] = {
      columns: columns.map((column) => [column.name, column.not_null, column.pk]),
      types: columns.map((column) => column.type),
      indexes: indexes.map((index) => [index.name, index.unique, [...index.columns]]),
      foreignKeys: keys.map((key): [string[], string, string[], string] => [[...key.columns], key.target, [...key.target_columns], key.on_delete]).sort(),
    };
  }
  return shapes;
}

describe("a database that does not answer", () => {
  test("a closed port fails at once, saying so", async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const started = performance.now();
    await expect(openPostgres(url)).rejects.toThrow(`cannot open database ${url}: connection refused`);
    expect(performance.now() - started).toBeLessThan(PG_TIMEOUTS.connectMs);
  });

  test("a server that accepts the connection but never answers fails within the connect timeout", async () => {
    const url = `postgres://postgres@127.0.0.1:${await silentPort()}/postgres`;
    const started = performance.now();
    await expect(openPostgres(url, { ...PG_TIMEOUTS, connectMs: 500 })).rejects.toThrow(`cannot open database ${url}: no answer within 500 ms`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("a statement that runs past the statement timeout is cancelled by PostgreSQL", async () => {
    const db = await openPostgres(await postgres.database(), { ...PG_TIMEOUTS, statementMs: 200 });
    track(() => db.$client.close());
    await expect(db.$client`SELECT pg_sleep(2)`).rejects.toThrow("canceling statement due to statement timeout");
    expect(await db.$client`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  test("the error names the database without its password", async () => {
    const url = `postgres://pennant:s3cret@127.0.0.1:${await freePort()}/pennant`;
    const error = await openPostgres(url).catch((failure: Error) => failure);
    expect(String(error)).toContain(`cannot open database ${url.replace("s3cret", "***")}: `);
    expect(String(error)).not.toContain("s3cret");
  });
});
