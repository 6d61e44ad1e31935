// An HTTP/1.1 client over a plain socket that sends exactly the bytes it is
// given: request lines and headers fetch() would refuse or rewrite (raw
// non-ASCII bytes, control characters, broken percent-encoding, duplicate
// headers, any method). It keeps the connection alive between requests, as
// the plugin's client and browsers do, and opens a new one when the server
// closed it. Every exchange has a deadline: a server that does not answer is
// reported, never waited for.

import { connect, type Socket } from "node:net";

export interface RawRequest {
  method: string;
  /** The request target as a byte string (each character one byte, 0-255). */
  target: string;
  /** Name and value as byte strings, sent in this order (duplicates allowed). */
  headers: Array<[string, string]>;
  body?: Uint8Array;
  /** The Host header's value ("pennant" unless given); null sends none. */
  host?: string | null;
  /** "1.1" unless given; a 1.0 request may go without a Host. */
  version?: "1.0" | "1.1";
}

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined by ", ". */
  headers: Map<string, string>;
  body: Uint8Array;
}

export class ExchangeTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = "ExchangeTimeout";
  }
}

/** The server closed the connection before a complete answer. */
export class ClosedEarly extends Error {
  constructor(readonly received: number) {
    super(`connection closed after ${received} bytes without a complete answer`);
    this.name = "ClosedEarly";
  }
}

/** Request bytes as the wire carries them; Content-Length is added for a body unless the headers carry one. */
export function serializeRequest(request: RawRequest): Uint8Array {
  const lines = [`${request.method} ${request.target} HTTP/${request.version ?? "1.1"}`];
  if (request.host !== null) lines.push(`Host: ${request.host ?? "pennant"}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const hasLength = request.headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  if (request.body && !hasLength) lines.push(`Content-Length: ${request.body.byteLength}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return request.body ? Buffer.concat([head, request.body]) : head;
}

const HEAD_END = Buffer.from("\r\n\r\n");

interface Parsed {
  response: RawResponse;
  /** Bytes of the buffer this response used. */
  used: number;
}

/** One complete response at the start of `buffer`, or null while more bytes are needed (or until close). */
function parseResponse(buffer: Buffer, forHead: boolean, ended: boolean): Parsed | null {
  let start = 0;
  for (;;) {
    const headEnd = buffer.indexOf(HEAD_END, start);
    if (headEnd < 0) return null;
    const lines = buffer.subarray(start, headEnd).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? NaN);
    if (!Number.isFinite(status)) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    const bodyStart = headEnd + 4;
    // An interim answer (100 Continue): the real one follows.
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    if (forHead || status === 204 || status === 304) return { response: { status, headers, body: new Uint8Array() }, used: bodyStart };
    if (headers.get("transfer-encoding")?.toLowerCase().includes("chunked")) {
      const chunks: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", at);
        if (lineEnd < 0) return null;
        const size = parseInt(buffer.subarray(at, lineEnd).toString("latin1"), 16);
        if (!Number.isFinite(size)) throw new Error("bad chunk size");
        if (buffer.length < lineEnd + 2 + size + 2) return null;
        if (size === 0) return { response: { status, headers, body: Buffer.concat(chunks) }, used: lineEnd + 4 };
        chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    const length = headers.get("content-length");
    if (length !== undefined) {
      const size = Number(length);
      if (buffer.length < bodyStart + size) return null;
      return { response: { status, headers, body: new Uint8Array(buffer.subarray(bodyStart, bodyStart + size)) }, used: bodyStart + size };
    }
    // No length: the body runs to the end of the connection.
    return ended ? { response: { status, headers, body: new Uint8Array(buffer.subarray(bodyStart)) }, used: buffer.length } : null;
  }
}

/** One keep-alive connection at a time to a loopback port, reopened when the server closes it. */
export class RawClient {
  private socket: Socket | null = null;

  constructor(
    private readonly port: number,
    private readonly host = "127.0.0.1",
  ) {}

  /** Sends the request and reads its answer; rejects with ExchangeTimeout when none comes in time. */
  async exchange(request: RawRequest, timeoutMs: number): Promise<RawResponse> {
    const reused = this.socket !== null && !this.socket.destroyed;
    try {
      return await this.once(request, timeoutMs);
    } catch (error) {
      // A kept-alive connection the server closed while it sat idle: once more on a new one.
      if (reused && error instanceof ClosedEarly && error.received === 0) return this.once(request, timeoutMs);
      throw error;
    }
  }

  private async once(request: RawRequest, timeoutMs: number): Promise<RawResponse> {
    const socket = await this.connection();
    const forHead = request.method === "HEAD";
    return new Promise<RawResponse>((resolve, reject) => {
      let buffer = Buffer.alloc(0);
      const finish = (error: Error | null, response?: RawResponse) => {
        clearTimeout(timer);
        socket.off("data", onData);
        socket.off("close", onClose);
        socket.off("error", onError);
        if (error) {
          this.drop();
          reject(error);
        } else {
          const close = response!.headers.get("connection")?.toLowerCase() === "close";
          if (close) this.drop();
          resolve(response!);
        }
      };
      const attempt = (ended: boolean) => {
        try {
          const parsed = parseResponse(buffer, forHead, ended);
          if (parsed) return finish(null, parsed.response);
          if (ended) finish(new ClosedEarly(buffer.length));
        } catch (error) {
          finish(error as Error);
        }
      };
      const onData = (data: Buffer) => {
        buffer = Buffer.concat([buffer, data]);
        attempt(false);
      };
      const onClose = () => {
        this.socket = null;
        attempt(true);
      };
      const onError = () => {
        // "close" follows and decides
      };
      const timer = setTimeout(() => finish(new ExchangeTimeout(timeoutMs)), timeoutMs);
      socket.on("data", onData);
      socket.on("close", onClose);
      socket.on("error", onError);
      socket.write(serializeRequest(request));
    });
  }

  close(): void {
    this.drop();
  }

  private drop(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connection(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, this.host, () => {
        socket.off("error", reject);
        // Errors after connecting surface as "close" in exchange().
        socket.on("error", () => {});
        this.socket = socket;
        resolve(socket);
      });
      socket.once("error", reject);
    });
  }
}
