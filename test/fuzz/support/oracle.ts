// What every answer must be, whatever was asked: never a 5xx; an error in
// JSON is exactly {"error":{"code","message"}}; an image decodes with
// independent decoders and is what its Content-Type says; a 405 does not
// refuse the method it was asked with. The transport's own bare refusals
// (Bun answers 400, 431 or 505 without a body before the app sees the
// request) are accepted only for requests that are not valid HTTP or whose
// head is over Bun's 16 KiB limit.

import decodeWebp from "@jsquash/webp/decode.js";
import { PNG } from "pngjs";
import type { RawRequest, RawResponse } from "../../support/raw-http.ts";
import { parseXml } from "../../badge/support/svg-tree.ts";

export interface FuzzRequest extends RawRequest {
  /**
   * The request line or a header holds bytes HTTP does not allow (controls,
   * spaces in the target) or an unknown method: the transport may refuse it
   * bare or close the connection.
   */
  wireInvalid: boolean;
}

/** Bun refuses request heads over this many bytes with a bare 431. */
export const TRANSPORT_HEAD_LIMIT = 16 * 1024;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const TRANSPORT_STATUSES = new Set([400, 431, 505]);

/** Characters HTTP/1.1 never allows in a request target, and those it does not allow in a header value. */
const BAD_TARGET_BYTE = /[\x00-\x20\x7f]/;
const BAD_HEADER_BYTE = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Methods Bun knows; it closes the connection on any other without an answer. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]);

export function isWireInvalid(method: string, target: string, headers: ReadonlyArray<[string, string]>): boolean {
  return !KNOWN_METHODS.has(method) || BAD_TARGET_BYTE.test(target) || headers.some(([name, value]) => BAD_HEADER_BYTE.test(value) || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name));
}

function headBytes(request: RawRequest): number {
  return request.target.length + request.headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 64);
}

function errorShapeProblem(body: unknown): string | null {
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  if (!error || typeof error !== "object") return "an error answer without an \"error\" object";
  const keys = Object.keys(error).sort().join(",");
  if (keys !== "code,message") return `the error object has keys ${keys}, not code and message`;
  if (typeof error.code !== "string" || !/^[a-z][a-z0-9_]*$/.test(error.code)) return `error.code is not a snake_case string: ${JSON.stringify(error.code)}`;
  if (typeof error.message !== "string" || error.message.length === 0) return "error.message is empty or not a string";
  return null;
}

async function imageProblem(type: string, bytes: Uint8Array): Promise<string | null> {
  try {
    if (type === "image/png") {
      if (!PNG_MAGIC.every((byte, i) => bytes[i] === byte)) return "image/png whose bytes are not a PNG";
      const png = PNG.sync.read(Buffer.from(bytes));
      return png.width > 0 && png.height > 0 ? null : "an empty PNG";
    }
    if (type === "image/webp") {
      const tag = Buffer.from(bytes.subarray(0, 12)).toString("latin1");
      if (!tag.startsWith("RIFF") || tag.slice(8) !== "WEBP") return "image/webp whose bytes are not a WebP";
      const image = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
      return image.width > 0 && image.height > 0 ? null : "an empty WebP";
    }
    if (type === "image/svg+xml") {
      // Read strictly: markup or a character XML cannot hold from a hostile label would not parse.
      const svg = parseXml(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      return svg.name === "svg" && Number(svg.attributes.width) > 0 && Number(svg.attributes.height) > 0 ? null : "an SVG without a size";
    }
  } catch (error) {
    return `${type} that does not decode: ${(error as Error).message}`;
  }
  return `an image type nobody asked for: ${type}`;
}

/** What is wrong with this answer to this request, or null. */
export async function answerProblem(request: FuzzRequest, response: RawResponse): Promise<string | null> {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type === undefined && TRANSPORT_STATUSES.has(response.status) && response.body.length === 0) {
    if (request.wireInvalid || headBytes(request) > TRANSPORT_HEAD_LIMIT - 512) return null;
    return `a bare ${response.status} from the transport to a valid request`;
  }
  if (response.status >= 500) return `status ${response.status}`;
  if (response.status === 405) {
    const allow = response.headers.get("allow");
    if (!allow) return "405 without Allow";
    if (allow.split(/,\s*/).includes(request.method)) return `405 for ${request.method}, which Allow (${allow}) names`;
  }
  if (request.method === "HEAD" || response.status === 304 || response.status === 204) return null;
  // A redirect (the old /openapi addresses) carries its answer in Location, with no body.
  if (response.status >= 300 && response.status < 400) {
    return response.headers.get("location") && response.body.length === 0 ? null : `a ${response.status} without Location, or with a body`;
  }
  if (type === undefined) return `status ${response.status} without a Content-Type`;
  if (type === "application/json") {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(response.body));
    } catch {
      return "application/json that does not parse";
    }
    return response.status >= 400 ? errorShapeProblem(body) : null;
  }
  if (type.startsWith("image/")) return imageProblem(type, response.body);
  if (response.status >= 400) return `a ${response.status} error as ${type}, neither JSON nor an image`;
  return null;
}

/** A request as text fit for a failure message: bytes outside printable ASCII escaped, long runs cut. */
export function describeRequest(request: RawRequest): string {
  const show = (text: string, max: number) => {
    const cut = text.length > max ? `${text.slice(0, max)}...(${text.length} bytes)` : text;
    return cut.replace(/[^\x20-\x7e]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
  };
  const lines = [`${request.method} ${show(request.target, 600)}`, ...request.headers.map(([name, value]) => `${show(name, 80)}: ${show(value, 300)}`)];
  if (request.body) lines.push("", show(Buffer.from(request.body).toString("latin1"), 1500));
  return lines.join("\n");
}
