// Builds signed requests the way a client does, from the rules of docs/signed-api.md,
// written independently of src/auth so that a mistake there cannot hide in
// both. By default over method and path (X-Signature-Version: 2), which every
// signed endpoint takes; `scheme` picks one of the older ones the plugin's
// endpoints still take.

import { createHmac, randomUUID } from "node:crypto";

export interface SignedCall {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  token: string;
  /** Raw body text; objects are JSON-encoded. */
  body?: string | object;
  /** Seconds by default. */
  timestamp?: number | string;
  tokenHeader?: "X-Server-Token" | "X-Plugin-Token";
  serverUuid?: string;
  /**
   * "request" (default): over method, path and query, timestamp and body, sent with X-Signature-Version: 2;
   * "standard": over timestamp + "." + body; "legacy": over the body alone (deployed plugin builds).
   */
  scheme?: "request" | "standard" | "legacy";
  headers?: Record<string, string>;
  signature?: string;
}

export function hmacHex(token: string, message: string): string {
  return createHmac("sha256", token).update(message).digest("hex");
}

export function signedRequest(baseUrl: string, call: SignedCall, nowMs: number): Request {
  const method = call.method ?? "POST";
  // PUT carries a body as POST does (networks).
  const withBody = method === "POST" || method === "PUT";
  const body = call.body === undefined ? (withBody ? "{}" : "") : typeof call.body === "string" ? call.body : JSON.stringify(call.body);
  const timestamp = String(call.timestamp ?? Math.floor(nowMs / 1000));
  const scheme = call.scheme ?? "request";
  const url = new URL(baseUrl + call.path);
  const message = { request: `${method} ${url.pathname}${url.search}\n${timestamp}.${body}`, standard: `${timestamp}.${body}`, legacy: body }[scheme];
  const signature = call.signature ?? hmacHex(call.token, message);
  const headers: Record<string, string> = {
    ...(scheme === "request" ? { "X-Signature-Version": "2" } : {}),
    [call.tokenHeader ?? "X-Server-Token"]: call.token,
    "X-Timestamp": timestamp,
    "X-Signature": signature,
    ...(withBody ? { "Content-Type": "application/json" } : {}),
    ...(call.serverUuid ? { "X-Server-UUID": call.serverUuid } : {}),
    ...call.headers,
  };
  return new Request(baseUrl + call.path, { method, headers, body: withBody ? body : undefined });
}

export function newUuid(): string {
  return randomUUID();
}

export async function json(response: Response): Promise<any> {
  return response.json();
}
