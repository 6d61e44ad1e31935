// What a webhook URL may be, before any name is resolved: https (plain http
// only when private targets are allowed, for tests and LANs), no credentials
// in it, a bounded length. Where its host resolves is judged at subscription
// and again at every delivery (lookup/target-address.ts).

/** Longer than any Discord webhook URL (about 120 characters) by far. */
export const MAX_URL_LENGTH = 2048;

export type UrlCheck = { url: URL } | { refused: string };

export function checkWebhookUrl(text: string, allowPrivate: boolean): UrlCheck {
  if (text.length > MAX_URL_LENGTH) return { refused: `the url must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: "the url is not an absolute URL" };
  }
  if (url.protocol === "http:" && !allowPrivate) return { refused: "the url must be https (plain http only with PENNANT_WEBHOOK_PRIVATE=on)" };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { refused: "the url must be https" };
  // Credentials would be stored and listed with the URL; a receiver keys on its own path and the signature.
  if (url.username || url.password) return { refused: "the url must not carry a user name or password" };
  return { url };
}

/**
 * Discord's hosts a webhook URL may name: what Discord's app copies (the
 * stable client's, PTB's and Canary's), and discordapp.com, its older name
 * that still serves the API.
 */
const DISCORD_HOSTS = new Set(["discord.com", "ptb.discord.com", "canary.discord.com", "discordapp.com", "ptb.discordapp.com", "canary.discordapp.com"]);
/** /api/webhooks/{id}/{token}, with an API version or without: the id a snowflake, the token Discord's 68 URL-safe characters (a little room). */
const DISCORD_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d{1,20})\/([A-Za-z0-9_-]{1,128})\/?$/;

/** A Discord webhook: its id and token, and the thread of a forum channel it posts in (null: the channel itself). */
export interface DiscordWebhook {
  id: string;
  token: string;
  threadId: string | null;
}

/**
 * A Discord webhook URL as Discord gives it out (https, one of its hosts,
 * /api/webhooks/{id}/{token}, optionally ?thread_id=), or why not. Only its
 * id, token and thread are kept: every request goes to Discord's API itself
 * (discord-api.ts), never to the host the URL names.
 */
export function discordWebhook(text: string): { webhook: DiscordWebhook } | { refused: string } {
  const checked = checkWebhookUrl(text, false);
  if ("refused" in checked) return checked;
  const { url } = checked;
  const path = DISCORD_PATH.exec(url.pathname);
  if (!DISCORD_HOSTS.has(url.hostname) || url.port !== "" || !path) {
    return { refused: "a discord-live url must be a Discord webhook URL, https://discord.com/api/webhooks/{id}/{token}" };
  }
  const params = [...url.searchParams.keys()];
  // `wait` is the sender's to choose (Pennant always waits); anything else Discord's webhook URLs never carry.
  if (params.some((name) => name !== "thread_id" && name !== "wait")) return { refused: "a Discord webhook url may carry only thread_id in its query" };
  const threadId = url.searchParams.get("thread_id");
  if (threadId !== null && !/^\d{1,20}$/.test(threadId)) return { refused: "thread_id must be a Discord id (digits)" };
  return { webhook: { id: path[1]!, token: path[2]!, threadId } };
}
