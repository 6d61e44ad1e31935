// Command-line entry: `pennant <command>`. Each command is one small function;
// the table below is the whole surface, and --help is generated from it.

import { existsSync } from "node:fs";
import pkg from "../package.json" with { type: "json" };
import { SWEEP_INTERVAL_MS } from "./alerts/alert-sweep.ts";
import { TOKEN_SCOPES, generateToken, hashToken, type TokenScope } from "./auth/token.ts";
import { closest } from "./closest.ts";
import { ConfigError, debugging, loadConfig, type Config } from "./config.ts";
import { unknownVariables, unknownVariableWarning } from "./unknown-variables.ts";
import { createApp } from "./serve/app.ts";
import { exitOnSignals, stopGracefully } from "./serve/graceful-stop.ts";
import { ListenError, listen } from "./serve/listen.ts";
import { createLogger } from "./log.ts";
import { LookupService } from "./lookup/lookup-service.ts";
import { lookupJson } from "./lookup/view.ts";
import { BackupError } from "./store/backup.ts";
import { DatabaseOpenError } from "./store/database.ts";
import { describeCounts, StoreNotEmptyError } from "./store/dump.ts";
import { DEFAULT_EDITION, isEdition } from "./minecraft/edition.ts";
import { stripFormatting } from "./minecraft/format.ts";
import { statusAt } from "./minecraft/status.ts";
import { describeStore, openStore, type StoreLocation } from "./store/open-store.ts";
import { PgOpenError } from "./store/postgres/open-postgres.ts";
import { REFUSALS_KEPT_MS, type RefusalCount } from "./store/push-refusals.ts";
import type { ServerRow } from "./store/records.ts";
import type { Store } from "./store/store.ts";
import { subscriptionState } from "./store/webhook-records.ts";

interface Command {
  /** One [usage, summary] pair per form of the command, for --help. */
  forms: Array<[string, string]>;
  run(args: string[]): Promise<number>;
}

/** Splits `--name value` / `--name=value` options from positional arguments. */
export function parseArgs(args: string[], known: readonly string[]): { options: Map<string, string>; rest: string[] } {
  const options = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    // One dash and a letter is an option too (-p for --port), never an operand: none starts so.
    if (/^-[A-Za-z]/.test(arg)) throw new UsageError(unknownOption(arg.split("=")[0]!, known));
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!known.includes(name)) throw new UsageError(unknownOption(`--${name}`, known));
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
  }
  return { options, rest };
}

/** One line for an option the command does not take: the one meant when it is a slip or two away, else the ones it takes. */
function unknownOption(written: string, known: readonly string[]): string {
  const taken = known.length > 0 ? `this command takes ${known.map((option) => `--${option}`).join(", ")}` : "this command takes no options";
  const name = written.replace(/^-+/, "");
  // The start of one option (-p, --sc) names it; else a slip or two, one per two letters typed (a lone -x names nothing).
  const started = known.filter((option) => name.length > 0 && option.startsWith(name));
  const nearest = closest(name, known);
  const meant = started.length === 1 ? started[0] : nearest && nearest.distance <= Math.min(2, Math.floor(name.length / 2)) ? nearest.name : undefined;
  return meant ? `unknown option ${written}: did you mean --${meant}? (${taken})` : `unknown option ${written} (${taken})`;
}

/** A command that takes no operands refuses one: a port or path typed without its option would otherwise be ignored. */
function noOperands(command: string, rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`${command} takes no operands, not "${rest[0]}" (usage: ${usageOf(command)})`);
}

/**
 * The environment's configuration with --port/--host/--db flags laid over it.
 * Every command that reads it first warns of the `PENNANT_*` variables it does not know.
 */
function configWith(options: Map<string, string>): Config {
  for (const unknown of unknownVariables(process.env)) console.error(unknownVariableWarning(unknown));
  const env = { ...process.env };
  const flagToVariable: Record<string, string> = { port: "PORT", host: "HOST", db: "PENNANT_DB" };
  for (const [flag, variable] of Object.entries(flagToVariable)) {
    const value = options.get(flag);
    if (value !== undefined) env[variable] = value;
  }
  return loadConfig(env);
}

/**
 * Opens a database that must exist already, for the commands that read or
 * change what is there: opening an SQLite path creates a file, and a mistyped
 * path would then answer "nothing yet" instead of pointing at the mistake. (A
 * PostgreSQL database is made by its server: a mistyped name fails to open.)
 */
async function openExistingStore(
  config: StoreLocation,
  hint = "PENNANT_DB or --db names it; serve, migrate and token create make one",
): Promise<Store> {
  if (!config.databaseUrl && !existsSync(config.dbPath)) {
    throw new UsageError(`no database at ${config.dbPath} (${hint})`);
  }
  return openStore(config);
}

async function serve(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["port", "host", "db"]);
  noOperands("serve", rest);
  const config = configWith(options);
  const store = await openStore(config);
  const log = createLogger({ level: config.logLevel });
  const app = await createApp({ config, store, now: Date.now, log, startRenderThreads: true, watchHeap: true, alertIntervalMs: SWEEP_INTERVAL_MS, sweepHistory: true });
  let port: number;
  try {
    port = listen(app, config.host, config.port);
  } catch (error) {
    await store.close();
    throw error;
  }
  // Before the "listening" line: a supervisor may send a signal as soon as it reads it.
  exitOnSignals(log, (hurry) => stopGracefully(app, store, { timeoutMs: config.shutdownTimeoutSeconds * 1000, log, hurry }));
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const threads = config.renderThreads === 0 ? "drawing on this thread" : `${config.renderThreads} render thread${config.renderThreads === 1 ? "" : "s"}`;
  console.log(`pennant ${pkg.version} listening on http://${host}:${port} (database ${describeStore(config)}, ${threads})`);
  return new Promise<number>(() => {});
}

async function migrate(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["db"]);
  noOperands("migrate", rest);
  const config = configWith(options);
  const created = !config.databaseUrl && !existsSync(config.dbPath);
  await (await openStore(config)).close();
  console.log(created ? `created database ${config.dbPath}` : `database ${describeStore(config)} is up to date`);
  return 0;
}

async function backup(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["db"]);
  const [target, extra] = rest;
  if (!target || extra !== undefined) throw new UsageError("usage: backup <file> [--db PATH]");
  const config = configWith(options);
  const store = await openExistingStore(config);
  try {
    const bytes = await store.backup(target);
    console.log(`backed up ${config.dbPath} to ${target} (${bytes} bytes)`);
    return 0;
  } finally {
    await store.close();
  }
}

/** A listing command: no operands, --db only, over the existing store. */
async function listing(args: string[], name: string, list: (store: Store, config: Config) => Promise<void>): Promise<number> {
  const { options, rest } = parseArgs(args, ["db"]);
  if (rest.length > 0) throw new UsageError(`usage: ${name} [--db PATH]`);
  const config = configWith(options);
  const store = await openExistingStore(config);
  try {
    await list(store, config);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * The servers, the most recently seen first, each followed by the pushes of
 * its UUID refused in the last day; then the UUIDs whose pushes were refused
 * and none accepted (a wrong token, a bad signature, over a limit).
 */
function listServerRecords(args: string[]): Promise<number> {
  return listing(args, "servers", async (store, config) => {
    const now = Date.now();
    const [rows, refused] = await Promise.all([store.servers.list(), store.refusals.list(now - REFUSALS_KEPT_MS)]);
    if (rows.length === 0 && refused.length === 0) console.log("no server has pushed yet: configure the plugin with this server's URL and a token");
    const refusalsOf = Map.groupBy(refused, (refusal) => refusal.serverUuid);
    for (const row of rows) {
      const status = statusAt(row, now, config.staleAfterSeconds * 1000);
      const players = row.playersOnline === null ? "-" : `${row.playersOnline}/${row.playersMax ?? "?"}`;
      const seen = new Date(row.lastSeen).toISOString();
      console.log(`${row.uuid}\t${status}\t${players}\tlast push ${seen}\ttoken ${row.tokenId}\t${serverLabel(row)}`);
      printRefusals(refusalsOf.get(row.uuid));
      refusalsOf.delete(row.uuid);
    }
    for (const [uuid, refusals] of refusalsOf) {
      console.log(`${uuid}\tno push accepted`);
      printRefusals(refusals);
    }
  });
}

/** The most of a MOTD line or an address shown beside a server's name. */
const BESIDE_NAME_CHARS = 60;

/**
 * A server's name, and beside it what tells servers apart when their plugin
 * pushes the software's name ("Paper"): the MOTD's first line, else the address.
 */
function serverLabel(row: ServerRow): string {
  const motdLine = stripFormatting(row.motd ?? "").split("\n").map((line) => line.trim()).find((line) => line !== "");
  const address = row.extra?.address;
  const beside = motdLine ?? (typeof address === "string" && address !== "" ? address : undefined);
  if (beside === undefined) return row.name ?? "";
  const shown = beside.length > BESIDE_NAME_CHARS ? `${beside.slice(0, BESIDE_NAME_CHARS - 1)}…` : beside;
  return row.name ? `${row.name} (${shown})` : `(${shown})`;
}

function printRefusals(refusals: RefusalCount[] | undefined): void {
  for (const { code, count, lastAt, tokenId } of refusals ?? []) {
    const token = tokenId === null ? "not authenticated" : `token ${tokenId}`;
    console.log(`  refused ${code}: ${count} in the last 24 h, the last at ${new Date(lastAt).toISOString()}, ${token}`);
  }
}

function listWebhooks(args: string[]): Promise<number> {
  return listing(args, "webhooks", async (store) => {
    let listed = 0;
    for (const server of await store.servers.list()) {
      for (const hook of await store.webhooks.list(server.uuid)) {
        listed += 1;
        const last = hook.lastDeliveryAt === null ? "never delivered" : `last ${hook.lastStatus} at ${new Date(hook.lastDeliveryAt).toISOString()}`;
        console.log(`${hook.id}\t${server.uuid}\t${subscriptionState(hook)}\t${hook.events.join(",")}\t${hook.format}\t${last}\tdropped ${hook.dropped}\t${hook.url}`);
      }
    }
    if (listed === 0) console.log("no webhooks: a server's token subscribes with POST /api/server/webhooks");
  });
}

async function token(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["scope", "label", "db"]);
  const [action, ...operands] = rest;
  const usage = `usage: ${usageOf("token")}`;
  if (action !== "create" && action !== "list" && action !== "revoke") throw new UsageError(usage);
  const config = configWith(options);
  const store = action === "create" ? await openStore(config) : await openExistingStore(config);
  try {
    switch (action) {
      case "create": {
        const scope = options.get("scope") ?? "all";
        if (!TOKEN_SCOPES.includes(scope as TokenScope)) {
          throw new UsageError(`--scope must be one of ${TOKEN_SCOPES.join(", ")}`);
        }
        const secret = generateToken();
        const row = await store.tokens.create({
          hash: hashToken(secret),
          scope: scope as TokenScope,
          label: options.get("label") ?? "",
          now: Date.now(),
        });
        console.log(`created token ${row.id} (scope ${row.scope}${row.label ? `, label "${row.label}"` : ""})`);
        console.log("store it now: it is shown only once. The token:");
        console.log(secret);
        return 0;
      }
      case "list": {
        const rows = await store.tokens.list();
        if (rows.length === 0) console.log("no tokens yet: create one with `token create`");
        for (const row of rows) {
          const state = row.revokedAt ? `revoked ${new Date(row.revokedAt).toISOString()}` : "active";
          const used = row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : "never";
          console.log(`${row.id}\t${row.scope}\t${state}\tlast used ${used}\t${row.origin}\t${row.label}`);
        }
        return 0;
      }
      case "revoke": {
        const id = Number(operands[0]);
        if (!Number.isInteger(id) || id < 1) throw new UsageError("usage: token revoke <id> (see `token list`)");
        if (!(await store.tokens.revoke(id, Date.now()))) {
          console.error(`no active token with id ${id}`);
          return 1;
        }
        console.log(`revoked token ${id}`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

/** A store `copy` names: a postgres:// (or postgresql://) URL, else an SQLite file path. */
function copyLocation(option: string, value: string): StoreLocation {
  if (/^postgres(ql)?:\/\//i.test(value)) return { databaseUrl: value, dbPath: "" };
  // Any other scheme is a mistake, not a file of that name.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new UsageError(`--${option} must be an SQLite file path or a postgres:// URL`);
  return { databaseUrl: null, dbPath: value };
}

async function copy(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["from", "to"]);
  const [from, to] = [options.get("from"), options.get("to")];
  if (!from || !to || rest.length > 0) throw new UsageError("usage: copy --from SOURCE --to TARGET (each an SQLite file path or a postgres:// URL)");
  const [source, target] = [copyLocation("from", from), copyLocation("to", to)];
  // The source first: a missing one is refused before the target is created.
  const sourceStore = await openExistingStore(source, "--from names an existing SQLite file or a postgres:// URL");
  try {
    const targetStore = await openStore(target);
    try {
      const counts = await targetStore.load(sourceStore.dump(Date.now()));
      console.log(`copied ${describeCounts(counts)} from ${describeStore(source)} to ${describeStore(target)}`);
      return 0;
    } catch (error) {
      if (error instanceof StoreNotEmptyError) throw new UsageError(`nothing copied: ${describeStore(target)} already holds data (${describeCounts(error.counts)}); copy into a new, empty database`);
      throw error;
    } finally {
      await targetStore.close();
    }
  } finally {
    await sourceStore.close();
  }
}

/** How long `pennant lookup` waits for a Query that had not answered when the ping did. */
const CLI_QUERY_WAIT_MS = 1_000;

async function lookup(args: string[]): Promise<number> {
  const { options, rest } = parseArgs(args, ["edition"]);
  const [address, extra] = rest;
  if (!address || extra !== undefined) throw new UsageError("usage: lookup <address> [--edition java|bedrock|hytale]");
  const edition = options.get("edition") ?? DEFAULT_EDITION;
  if (!isEdition(edition)) throw new UsageError("--edition must be java, bedrock or hytale");
  const config = configWith(options);
  const lookups = new LookupService({ allowPrivate: config.lookupPrivate });
  const first = await lookups.lookup({ address, edition });
  // A person asked, so Query's details (software, plugins, map) are worth a short wait, never the whole deadline.
  await Promise.race([lookups.lateQueriesEnded(), Bun.sleep(CLI_QUERY_WAIT_MS)]);
  lookups.dropLateQueries();
  const result = first.online ? await lookups.lookup({ address, edition }) : first;
  console.log(JSON.stringify(lookupJson(result), null, 2));
  if (result.operatorNote) console.error(`note: ${result.operatorNote}`);
  if (result.error?.code === "invalid_address") return 2;
  return result.online ? 0 : 1;
}

const commands: Record<string, Command> = {
  serve: { forms: [["serve [--port N] [--host ADDR] [--db PATH]", "start the HTTP server"]], run: serve },
  token: {
    forms: [
      ["token create [--scope server|plugin|all] [--label TEXT] [--db PATH]", "create an API token (printed as the last line)"],
      ["token list [--db PATH]", "list tokens: id, scope, state, last use, origin, label"],
      ["token revoke <id> [--db PATH]", "revoke a token"],
    ],
    run: token,
  },
  servers: {
    forms: [
      [
        "servers [--db PATH]",
        "list the servers that pushed: UUID (for banner URLs), status, players, last push, token, name (with the MOTD's first line or the address), and each UUID's pushes refused in the last 24 hours",
      ],
    ],
    run: listServerRecords,
  },
  webhooks: {
    forms: [["webhooks [--db PATH]", "list the alert subscriptions: id, server, state (active, failing, paused), events, format, last delivery, dropped, URL"]],
    run: listWebhooks,
  },
  migrate: { forms: [["migrate [--db PATH]", "create or upgrade the database, then exit"]], run: migrate },
  backup: {
    forms: [["backup <file> [--db PATH]", "write a consistent copy of the SQLite database to a new file (safe while serving); PostgreSQL: names pg_dump"]],
    run: backup,
  },
  copy: {
    forms: [["copy --from SOURCE --to TARGET", "copy everything to an empty database (each an SQLite path or a postgres:// URL; exit 2 if it holds data)"]],
    run: copy,
  },
  lookup: {
    forms: [["lookup <address> [--edition java|bedrock|hytale]", "look up a server's live status, print it as JSON (exit 0 online, 1 offline)"]],
    run: lookup,
  },
};

/** A command's forms, as its help shows them. */
function usageOf(name: string): string {
  return commands[name]!.forms.map(([usage]) => usage).join(" | ");
}

/** `pennant <command> --help`: that command's forms and what each does. */
function commandHelp(name: string): string {
  return commands[name]!.forms.map(([usage, summary]) => `usage: pennant ${usage}\n  ${summary}`).join("\n");
}

function help(): string {
  const forms = Object.values(commands).flatMap((command) => command.forms);
  const width = Math.max(...forms.map(([usage]) => usage.length));
  const lines = [
    `pennant ${pkg.version}: banner and badge server for Minecraft servers and plugins`,
    "",
    "usage: pennant <command> [options]",
    "",
    "commands:",
    ...forms.map(([usage, summary]) => `  ${usage.padEnd(width)}  ${summary}`),
    "",
    "  --help       show this help",
    "  --version    print the version",
    "",
    "Configuration comes from the environment; see README.md.",
  ];
  return lines.join("\n");
}

/** One line for a command we do not have: the likely intended one when it is a typo away, else the list. */
function unknownCommand(name: string): string {
  const names = Object.keys(commands);
  const nearest = closest(name, names);
  // Two edits catch a dropped, doubled or swapped letter without proposing an unrelated word.
  if (nearest && nearest.distance <= 2) return `unknown command "${name}": did you mean "${nearest.name}"? (pennant --help lists the commands)`;
  return `unknown command "${name}" (commands: ${names.join(", ")}; pennant --help describes them)`;
}

/** Mistakes in the command line, the environment or the files it names: exit 2, one line. */
function isConfigurationError(error: unknown): error is Error {
  return [ConfigError, UsageError, DatabaseOpenError, PgOpenError, ListenError, BackupError].some((type) => error instanceof type);
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    console.error(help());
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(help());
    return 0;
  }
  if (name === "--version" || name === "-v") {
    console.log(pkg.version);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    console.error(`error: ${unknownCommand(name)}`);
    return 2;
  }
  // Before the options are read: --help is no option of any command.
  if (args.includes("--help")) {
    console.log(commandHelp(name));
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (isConfigurationError(error)) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    // Unforeseen: still one line for the user; the trace is for a bug report.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`error: ${message}${debugging() ? "" : " (set PENNANT_DEBUG=1 to see where)"}`);
    if (debugging() && error instanceof Error && error.stack) console.error(error.stack);
    return 1;
  }
}

/** A mistake in the command line; printed without a stack trace. */
export class UsageError extends Error {}
