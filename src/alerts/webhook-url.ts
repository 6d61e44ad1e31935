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
