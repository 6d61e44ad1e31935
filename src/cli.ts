// Command-line entry: `pennant <command>`. Each command is one small function;
// the table below is the whole surface, and --help is generated from it.

import pkg from "../package.json" with { type: "json" };
import { ConfigError, loadConfig } from "./config.ts";
import { createApp } from "./http/app.ts";

interface Command {
  usage: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

async function serve(): Promise<number> {
  const config = loadConfig();
  const app = createApp({ config, now: Date.now });
  app.listen({ port: config.port, hostname: config.host });
  console.log(`pennant ${pkg.version} listening on http://${config.host}:${app.server?.port}`);
  return new Promise<number>(() => {});
}

const commands: Record<string, Command> = {
  serve: { usage: "serve", summary: "start the HTTP server", run: serve },
};

function help(): string {
  const lines = [
    `pennant ${pkg.version}: banner and badge server for Minecraft servers and plugins`,
    "",
    "usage: pennant <command> [options]",
    "",
    "commands:",
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(58)} ${c.summary}`),
    "",
    "  --help       show this help",
    "  --version    print the version",
    "",
    "Configuration comes from the environment; see README.md.",
  ];
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(help());
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "-v") {
    console.log(pkg.version);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    console.error(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

/** A mistake in the command line; printed without a stack trace. */
export class UsageError extends Error {}
