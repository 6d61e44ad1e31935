// The backends bench's table and its three targets (issue 21), computed from
// the figures, never written by hand.

import { count, ms, table, times } from "../report/markdown.ts";
import type { TargetRow } from "../report/targets.ts";
import type { Measured } from "./measure.ts";

/** The loads, by the name the report gives them and the scenario (bench/http/scenarios.mjs) that sends them. */
export const KINDS = [
  { name: "signed push", scenario: "signed update" },
  { name: "cached banner", scenario: "cached banner" },
  { name: "new banner", scenario: "distinct banner" },
  { name: "cached badge", scenario: "badge" },
] as const;

export const SETUPS = { sqlite: "SQLite, 1 instance", shared: "PostgreSQL + Redis, 1 instance", pair: "PostgreSQL + Redis, 2 instances + proxy" } as const;

export interface BackendCell {
  kind: string;
  setup: string;
  measured: Measured;
}

export interface BackendsFigures {
  cells: BackendCell[];
}

/** CPU milliseconds per answer. */
export function perRequestMs(cpuSeconds: number, measured: Measured): number {
  return measured.responses > 0 ? (cpuSeconds * 1000) / measured.responses : Number.NaN;
}

function cell(figures: BackendsFigures, kind: string, setup: string): Measured | undefined {
  return figures.cells.find((c) => c.kind === kind && c.setup === setup)?.measured;
}

export function formatBackends(figures: BackendsFigures): string {
  const rows = figures.cells.map(({ kind, setup, measured: m }) => [
    kind,
    setup,
    count(m.responses / m.seconds),
    ms(perRequestMs(m.serverCpu, m)),
    setup === SETUPS.sqlite ? "-" : ms(perRequestMs(m.serviceCpu, m)),
    setup === SETUPS.pair ? ms(perRequestMs(m.proxyCpu, m)) : "-",
    count(m.responses),
    count(m.errors),
  ]);
  return table(["load", "set-up", "req/s", "server CPU ms/req", "PostgreSQL + Redis CPU ms/req", "proxy CPU ms/req", "answers", "errors"], rows);
}

/** A ratio of server CPU per request, other set-up over SQLite, or NaN when either was not measured. */
function cpuRatio(figures: BackendsFigures, kind: string, setup: string): number {
  const sqlite = cell(figures, kind, SETUPS.sqlite), other = cell(figures, kind, setup);
  if (!sqlite || !other) return Number.NaN;
  return perRequestMs(other.serverCpu, other) / perRequestMs(sqlite.serverCpu, sqlite);
}

/** Every ratio the report prints: each load's server CPU per request on the shared set-ups over SQLite's. */
export function formatRatios(figures: BackendsFigures): string {
  const rows = KINDS.map(({ name }) => [name, times(cpuRatio(figures, name, SETUPS.shared)), times(cpuRatio(figures, name, SETUPS.pair))]);
  return table(["load", "PostgreSQL + Redis over SQLite (1 instance)", "2 instances + proxy over SQLite (servers only)"], rows);
}

/** Errors in a measured cell make its figure suspect (a refused request costs less): the target is then missed. */
function errorsIn(figures: BackendsFigures, kind: string): number {
  return figures.cells.filter((c) => c.kind === kind).reduce((n, c) => n + c.measured.errors, 0);
}

const SOURCE = "issue 21";

export function backendTargets(figures: BackendsFigures): TargetRow[] {
  const row = (target: string, value: number, met: (v: number) => boolean, measured: string, kind: string): TargetRow => {
    const errors = errorsIn(figures, kind);
    if (!Number.isFinite(value)) return { source: SOURCE, target, measured: "-", verdict: "not measured" };
    return {
      source: SOURCE,
      target,
      measured: errors > 0 ? `${measured}, but ${count(errors)} errors` : measured,
      verdict: met(value) && errors === 0 ? "met" : "missed",
    };
  };
  const banner = cpuRatio(figures, "cached banner", SETUPS.shared);
  const push = cpuRatio(figures, "signed push", SETUPS.shared);
  const sqlitePush = cell(figures, "signed push", SETUPS.sqlite);
  const sqlitePushMs = sqlitePush ? perRequestMs(sqlitePush.serverCpu, sqlitePush) : Number.NaN;
  return [
    row("a cached banner costs the same server CPU on either backend (within 10%)", banner, (r) => Math.abs(r - 1) <= 0.1, `PostgreSQL + Redis ${times(banner)} SQLite's`, "cached banner"),
    row("a signed push on PostgreSQL + Redis costs at most 2x its SQLite server CPU", push, (r) => r <= 2, `${times(push)}`, "signed push"),
    row("a signed push on SQLite costs at most 0.4 ms of server CPU", sqlitePushMs, (v) => v <= 0.4, `${ms(sqlitePushMs)} ms`, "signed push"),
  ];
}
