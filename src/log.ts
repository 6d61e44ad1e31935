// The operational log: one JSON object per line on stderr (stdout carries a
// command's output, e.g. the token `token create` prints), filtered by level.
// Every line is bounded: callers pass a fixed set of fields, and every string is
// cut at a fixed length, so no value a client sends can make a line grow.

export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What a line may carry besides its message: strings, numbers, booleans, null
 * (undefined is left out); `error` becomes its message and stack; any other
 * value is written as its (cut) text.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Whether a line at this level is written (to skip building one that is not). */
  enabled(level: LogLevel): boolean;
}

/** Longest string value in a line; a longer one ends in "…". */
export const MAX_FIELD_CHARS = 1024;
/** A stack trace may be longer, for bug reports, but is bounded too. */
export const MAX_STACK_CHARS = 4096;

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) {
    const stack = error.stack?.split("\n").slice(1).join("\n").trim();
    return { error: clip(`${error.name}: ${error.message}`, MAX_FIELD_CHARS), ...(stack ? { stack: clip(stack, MAX_STACK_CHARS) } : {}) };
  }
  return { error: clip(String(error), MAX_FIELD_CHARS) };
}

/** One log line as JSON text (no newline). */
export function formatLine(time: number, level: LogLevel, message: string, fields: LogFields = {}): string {
  const { error, ...rest } = fields;
  const line: Record<string, unknown> = { time: new Date(time).toISOString(), level, msg: clip(message, MAX_FIELD_CHARS) };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    const plain = value === null || typeof value === "number" || typeof value === "boolean";
    line[key] = plain ? value : clip(String(value), MAX_FIELD_CHARS);
  }
  if (error !== undefined) Object.assign(line, errorFields(error));
  return JSON.stringify(line);
}

export interface LoggerOptions {
  level: LogLevel;
  /** Receives each line without its newline; stderr by default. */
  write?: (line: string) => void;
  now?: () => number;
}

export function createLogger({ level, write = (line) => process.stderr.write(`${line}\n`), now = Date.now }: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const enabled = (at: LogLevel) => LOG_LEVELS.indexOf(at) <= threshold;
  const at = (lineLevel: LogLevel) => (message: string, fields?: LogFields) => {
    if (enabled(lineLevel)) write(formatLine(now(), lineLevel, message, fields));
  };
  return { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug"), enabled };
}
