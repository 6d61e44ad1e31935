// The PostgreSQL push's functions live in one file (src/store/postgres/push-functions.sql),
// applied at every start after the migrations: whatever a migration or a hand
// once made of them, the definition a started store runs is the file's.

import { beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import pushFunctions from "../../src/store/postgres/push-functions.sql" with { type: "text" };
import { openPostgres } from "../../src/store/postgres/open-postgres.ts";
import { track } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

/** Each function the file makes, with its body as the file writes it. */
function bodiesInFile(): Map<string, string> {
  const made = [...pushFunctions.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?AS \$\$([\s\S]*?)\$\$;/g)];
  return new Map(made.map(([, name, body]) => [name!, body!]));
}

async function liveBodies(sql: SQL): Promise<Map<string, string>> {
  const rows: Array<{ proname: string; prosrc: string }> = await sql`SELECT proname, prosrc FROM pg_proc WHERE proname LIKE 'pennant\\_%'`;
  return new Map(rows.map((row) => [row.proname, row.prosrc]));
}

test("a started store runs the file's functions, even over an older definition", async () => {
  const url = await postgres.database();
  const inFile = bodiesInFile();
  expect([...inFile.keys()].sort()).toEqual([
    "pennant_expire_idle_registrations", "pennant_plugin_push", "pennant_push_finish", "pennant_push_key", "pennant_push_start", "pennant_push_token",
    "pennant_server_push",
  ]);
  const first = await openPostgres(url);
  track(() => first.$client.close());
  const sql = new SQL(url, { max: 1 });
  track(() => sql.close());
  expect(await liveBodies(sql)).toEqual(inFile);

  // An older definition, as migration 0001 left it before 0006: replaced again at the next start.
  await sql.unsafe(`CREATE OR REPLACE FUNCTION pennant_push_finish(p_token int8, p_grew boolean, p_max_bytes int8, p_now int8, p_last_used_before int8)
    RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$`);
  expect((await liveBodies(sql)).get("pennant_push_finish")).toBe(" BEGIN END ");
  const second = await openPostgres(url);
  track(() => second.$client.close());
  expect(await liveBodies(sql)).toEqual(inFile);
});
