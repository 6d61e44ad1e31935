// The placeholders hosts and sleep proxies answer the status ping with while
// the server behind them is stopped: a version or MOTD saying so, and nobody
// online. The game lists such a server as up; a lookup that matches one of
// these reads offline, sleeping, and names the host (result.ts).
//
// Rules: an entry goes in only with a public source quoting the answer (its
// URL and quote below; docs/lookups.md lists them), and matches that answer's
// whole shape, never a word in it: a real server whose MOTD says "sleeping"
// is still online. Every entry needs zero players online, as a stopped
// server has (a placeholder with someone on it is no placeholder). Texts are
// compared after `§` codes are dropped; MOTDs with whitespace runs as one
// space, trimmed, and without case (hosts restyle their wording); version
// names exactly (their symbols are the host's own).
// Test fixtures built from each quote: test/support/sleeping-answers.ts.

import { parseFormatted, stripFormatting, toPlainText } from "../minecraft/format.ts";

export interface SleepingSignature {
  /** The name a lookup reports (sleeping_host). */
  host: string;
  /** The version name, `§` codes dropped and trimmed, as it must be. */
  version?: string;
  /** The MOTD as plain text (see above), matched whole. */
  motd?: RegExp;
}

/** What a signature reads of an answer. */
export interface PlaceholderShape {
  versionName: string | null;
  /** The MOTD as kept (`§` text or a chat component's JSON). */
  motdRaw: string;
  playersOnline: number | null;
}

/** Longer MOTDs are no placeholder's (the longest below is 66 characters): they are not parsed to be compared. */
const MAX_PLACEHOLDER_MOTD_CHARS = 2_048;

export const SLEEPING_SIGNATURES: readonly SleepingSignature[] = [
  {
    // Pingernos, a bot for Aternos servers' status, cogs/status.py:
    // `if stat.version.name == "§4● Offline":` ("We are not able to gather info from offline servers").
    // https://github.com/DynamatrixOSS/pingernos/blob/078b22ab44ae8448a107166a8a3b257b679ad2b2/cogs/status.py
    host: "Aternos",
    version: "● Offline",
  },
  {
    // iris-bot's test "should provide null status if server is reporting Exaroton-style sleeping text":
    // `mapVersion('§9◉ Sleeping')`; later, as mcstatus.io reports one: version name_clean "◉ Sleeping",
    // players 0/10, the server's own MOTD. https://github.com/jbrowneuk/iris-bot/blob/6a8ab80dd99fdf4a7283320206dffa3e8e617212/src/personality/mc-server.spec.ts
    // and https://github.com/jbrowneuk/iris-bot/blob/318d1ba7547f13026768cb2ad93fb70ec27aeb4e/src/personality/mc-server.spec.ts
    host: "exaroton",
    version: "◉ Sleeping",
  },
  {
    // Falix's knowledge base, "External Start and Offline MOTD": "While your server is offline, its MOTD
    // is automatically replaced with a message that looks like this: This server is OFFLINE! / Start the
    // server at FalixNodes.net/start".
    // https://github.com/KuroiJigoku/KB-articles/blob/db19c6c1ac8d56491368db51fac3fba14993d616/content/_posts/falix/dashboard/2024-10-18-external-start.md
    host: "FalixNodes",
    motd: /^this server is offline! start the server at falixnodes\.net\/start$/i,
  },
  {
    // Minehut/Meta issue 31, "Changing offline MOTD": "The default Offline server MOTD is
    // server is offline. start via the lobby with /join <server>". https://github.com/Minehut/Meta/issues/31
    host: "Minehut",
    motd: /^server is offline\. start via the lobby with \/join \S+$/i,
  },
  {
    // minecraft-server-hibernation's default InfoHibernation, msh-config.json:
    // "                   §fserver status:\n                   §b§lHIBERNATING", sent with players max 0, online 0
    // (lib/conn/conn-prot.go); issue 96 quotes it as answered, issue 23 the older "§fServer status:§r\n ... HIBERNATING".
    // https://github.com/gekware/minecraft-server-hibernation/blob/b8b88c2595fb4324f3f896a2b6ec57bc8b01ee0b/msh-config.json
    // https://github.com/gekware/minecraft-server-hibernation/issues/96
    host: "minecraft-server-hibernation",
    motd: /^server status: hibernating$/i,
  },
  {
    // lazymc's default sleeping MOTD, src/config.rs: "☠ Server is sleeping\n§2☻ Join to start it up", sent with
    // players online 0 (src/status.rs). https://github.com/timvisee/lazymc/blob/2db85b548073534acbfe044b5216a4a6ba910216/src/config.rs
    host: "lazymc",
    motd: /^☠ server is sleeping ☻ join to start it up$/i,
  },
  {
    // SleepingServerStarter's default serverName, the MOTD it answers while the server sleeps, sleepingSettings.yml:
    // serverName: "SleepingServer, waiting for his prince...".
    // https://github.com/vincss/mcsleepingserverstarter/blob/67b6672fc19ffb653eb710278b8562668050273b/sleepingSettings.yml
    host: "SleepingServerStarter",
    motd: /^sleepingserver, waiting for his prince\.\.\.$/i,
  },
];

function motdText(raw: string): string {
  return toPlainText(parseFormatted(raw)).replace(/\s+/g, " ").trim();
}

function matches(signature: SleepingSignature, version: string | null, motd: () => string): boolean {
  if (signature.version !== undefined && version !== signature.version) return false;
  return signature.motd === undefined || signature.motd.test(motd());
}

/** The host whose placeholder `answer` is, or null: a server's own answer. */
export function placeholderHost(answer: PlaceholderShape): string | null {
  if (answer.playersOnline !== 0 || answer.motdRaw.length > MAX_PLACEHOLDER_MOTD_CHARS) return null;
  const version = answer.versionName === null ? null : stripFormatting(answer.versionName).trim();
  let motd: string | undefined;
  const plainMotd = () => (motd ??= motdText(answer.motdRaw));
  return SLEEPING_SIGNATURES.find((signature) => matches(signature, version, plainMotd))?.host ?? null;
}
