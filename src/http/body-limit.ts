// No endpoint takes a body over its bound (MAX_BODY_BYTES, or a larger one a
// few paths take), so a request that declares a larger Content-Length is
// answered 413 in the JSON error shape before any route runs, on every path.
// Bun's own cap (listen.ts) sits far above this, because Bun answers an empty
// 413 of its own and drops the connection. Bodies of unknown length (chunked)
// are cut by the routes' streaming reader at the same bound.

import { Elysia } from "elysia";
import { BodyDeadline } from "./body-deadline.ts";
import { HttpError } from "./errors.ts";
import { requestTarget } from "./request-url.ts";

/**
 * A body up to this size is read and thrown away before the 413 is sent: a
 * client that writes its whole body before reading the answer (Java's
 * HttpURLConnection, the plugin's client, does) would otherwise see a reset
 * connection instead of the 413. Larger bodies are not worth the bandwidth.
 */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

async function discard(body: ReadableStream<Uint8Array>, deadlineMs: number): Promise<void> {
  const reader = body.getReader();
  const deadline = new BodyDeadline(deadlineMs);
  try {
    while (!(await deadline.read(reader)).done) {
      // the bytes are dropped as they arrive; nothing is kept
    }
  } catch {
    // the client hung up, or trickles: answer now (the connection is closed after)
  }
}

/** `maxBytes` on every path but those `larger` names, which take their own bound. */
export function bodyLimit(maxBytes: number, larger: ReadonlyMap<string, number>, deadlineMs: number) {
  return new Elysia({ name: "pennant/body-limit" }).onRequest(async ({ request }) => {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (!(declared > maxBytes)) return;
    // The path as routes match it, without the query.
    const bound = larger.get(requestTarget(request.url).split("?", 1)[0]!) ?? maxBytes;
    if (!(declared > bound)) return;
    // With Expect: 100-continue the client waits for a go-ahead that never comes: nothing to drain.
    const waiting = request.headers.get("expect")?.toLowerCase() === "100-continue";
    if (request.body && !waiting && declared <= DRAIN_LIMIT_BYTES) await discard(request.body, deadlineMs);
    // Thrown, not returned: an early answer from onRequest would skip the
    // request's log line and metrics (error-handling.ts answers it).
    throw new HttpError(413, "payload_too_large", `the body must be at most ${bound} bytes`, { Connection: "close" });
  });
}
