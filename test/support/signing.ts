// Builds signed requests the way a plugin does, from the spec's rules, written
// independently of src/auth so that a mistake there cannot hide in both.

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
  /** Signature over the body alone (deployed plugin builds). */
  legacy?: boolean;
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
  const signature = call.signature ?? hmacHex(call.token, call.legacy ? body : `${timestamp}.${body}`);
  const headers: Record<string, string> = {
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
