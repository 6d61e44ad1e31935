// The backends bench's section of docs/performance.md: what was run and on
// what, fixed text; the tables and this run's service versions and load
// average come from bench/backends.ts's --json markdown.

import type { Section } from "../report/document.ts";

export function backendsSection(markdown: Record<string, string>): Section {
  const part = (key: string) => {
    const text = markdown[key];
    if (text === undefined) throw new Error(`bench/backends.ts wrote no "${key}" table`);
    return text;
  };
  return {
    title: "Backends: SQLite, PostgreSQL + Redis, two instances (`bench/backends.ts`)",
    explanation:
      "Three set-ups started side by side in one run, each over a database of its own seeded alike (the 1,000 server tokens and the " +
      "plugin record of the HTTP bench): one `serve` over SQLite (`PENNANT_DB`); one over PostgreSQL (`PENNANT_DATABASE_URL`) counting " +
      "every limit in Redis (`PENNANT_REDIS_URL`); two over the same PostgreSQL and Redis behind a round-robin, a small Bun proxy in a " +
      "process of its own (`bench/backends/proxy.ts`; nginx is not on every bench machine). PostgreSQL and Redis are Debian's packages, started " +
      "by the bench run itself with the test harness (`test/support/postgres.ts`, `redis.ts`) on loopback on this same machine: " +
      "PostgreSQL in a temporary cluster with `fsync=off`, `synchronous_commit=off` and `full_page_writes=off`, Redis without " +
      "persistence. So the figures hold no network round trip and no disk sync: a PostgreSQL on another machine, or one that syncs each " +
      "commit, adds its round trips and syncs to each push's latency, which these figures do not show. SQLite, as Pennant opens it, does " +
      "sync every commit (WAL, `synchronous=FULL`, its file in the system's temporary folder on disk): the signed-push ratio compares a " +
      "syncing SQLite with a PostgreSQL that does not sync, which flatters PostgreSQL by the sync's CPU. The limits are raised " +
      "(`PENNANT_RATE_LIMIT`, `PENNANT_DRAW_BUDGET`, `PENNANT_PUSH_RATE_LIMIT` at 1000000/60: windows of the defaults' length, so that " +
      "Redis leases grow to a client's rate as on a real server instead of starting again from one unit every second) and the draw queue at its largest " +
      "(`PENNANT_DRAW_QUEUE_PER_CLIENT=1000`, `PENNANT_DRAW_QUEUE_UNITS=1000000`), so nothing should be refused; every answer outside 2xx, " +
      "socket error and timeout is counted under errors.\n\n" +
      "Four loads, autocannon under Node with 32 connections, each against each set-up in turn (rounds alternate the set-ups, so a " +
      "neighbour's load hits all three alike): signed pushes (`POST /api/server/update`, signed as the README says, cycling over the " +
      "1,000 tokens, each for a server of its own, each with the current timestamp and a body never sent before), the cached banner, new " +
      "banners (each URL new: drawn every time) and the cached badge. Server CPU per request is the user + system time " +
      "(`/proc/<pid>/stat`, render threads included) of every `serve` process of the set-up over the load, divided by the answers; the " +
      "proxy's and PostgreSQL's + Redis's (the postmaster, its backends and redis-server) are counted apart. Every set-up shares the " +
      "machine's 2 cores with the load client and the others' idle processes, so requests/s say less than CPU per request; the targets " +
      "compare server CPU per request (PostgreSQL + Redis: the one instance).",
    body: [part("backends"), part("ratios"), part("conditions")].join("\n\n"),
  };
}
