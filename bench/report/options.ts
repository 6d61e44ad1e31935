// The options every bench part takes: --quick (a short run, for CI), --json
// FILE (its figures and markdown, for bench/index.ts), and any of its own
// that take a value (such as render's --images DIR).

export interface PartOptions {
  quick: boolean;
  json: string | undefined;
  /** Values of the part's own options, by name (without the dashes). */
  values: Record<string, string>;
}

export function partOptions(args: string[], usage: string, own: string[] = []): PartOptions {
  const options: PartOptions = { quick: false, json: undefined, values: {} };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === "--quick") options.quick = true;
    else if (arg === "--json" && value !== undefined) options.json = args[++i];
    else if (own.includes(arg.slice(2)) && arg.startsWith("--") && value !== undefined) options.values[arg.slice(2)] = args[++i]!;
    else {
      console.error(`error: unknown option or missing value: ${arg}\nusage: ${usage}`);
      process.exit(2);
    }
  }
  return options;
}
