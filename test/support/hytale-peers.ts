// Stand-ins for a Hytale server and its query plugins, written from the
// published formats (not from src/lookup/hytale, which they test):
// - HyQuery/OneQuery v2: Hyvote/hyquery docs/protocol-v2.md (a challenge whose
//   token a query must carry, a bad token answered by nothing; TLV records; the
//   players list "authentication required" by default, as HyQueryHandler.java);
// - HyQuery v1: HytaleOne/query-js src/protocol.ts and GameQ PR #763 (u16 port,
//   protocol fields) or Hyvote/hyquery HyQueryProtocol.java (i32 port, none);
// - QUIC: RFC 9000 sections 5.2.2, 6 and 17.2.1 (a Version Negotiation for a
//   long header of another version, only for a datagram of 1200 bytes or more);
// - A2S_INFO: Valve's "Server queries" page (with its S2C_CHALLENGE variant);
// - Nitrado Query: nitrado/hytale-plugin-query README and QueryResponseV1.java,
//   over HTTPS with a self-signed certificate made by openssl (as
//   test/http/webhook-https.test.ts makes one), 406 without its Accept type;
// - the PingProtocol plugin's Minecraft status ping: java-peers.ts.
// One game port P: UDP (v2, v1 and QUIC, told apart by their first bytes, as the
// plugins intercept their magic before the QUIC codec), TCP (the ping); A2S on
// P + 1, Nitrado on P + 3. Each reply can be mangled (truncated, oversized,
// lying) on its way out.

import { createSocket, type Socket } from "node:dgram";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { track } from "./cleanup.ts";
import { startCountingPeer, type CountingPeer } from "./java-peers.ts";

export const NITRADO_TYPE = "application/x.hytale.nitrado.query+json;version=1";

export interface ServerFacts {
  name: string;
  motd: string;
  online: number;
  max: number;
  version: string;
  protocol: number;
}

export const FACTS: ServerFacts = { name: "Orbis Test", motd: "§aWelcome to Orbis", online: 7, max: 50, version: "2026.01.24-6e2d4fc36", protocol: 2 };

type Mangle = (reply: Buffer) => Buffer;

export interface HytalePeerOptions {
  /** v2: the families answered, the names listed (undefined: the list asks for authentication). */
  hyquery2?: { families?: Array<"ONEQUERY" | "HYQUERY2">; players?: string[]; expectAnotherToken?: boolean; facts?: ServerFacts };
  hyquery1?: { variant: "hytaleone" | "hyvote"; facts?: ServerFacts };
  quic?: boolean;
  a2s?: { challenge?: boolean; facts?: ServerFacts; map?: string };
  /** The JSON document (or raw body), its status, and whether TLS is off (Tls.Insecure). */
  nitrado?: { document: unknown; status?: number; plain?: boolean };
  /** A status JSON answered by the ping on TCP (PingProtocol). */
  ping?: object;
  mangle?: Partial<Record<"v2Challenge" | "v2" | "v1" | "quic" | "a2s", Mangle>>;
  /** Milliseconds each way waits before it answers (v2: its query replies). */
  delay?: Partial<Record<"v2" | "v1" | "quic" | "a2s" | "nitrado", number>>;
}

export interface HytalePeer {
  port: number;
  /** Datagrams and requests seen, by way. */
  seen: Record<"v2" | "v1" | "quic" | "a2s" | "nitrado", number>;
  /** v2 queries dropped for a bad token. */
  badTokens: number;
  /** Host and Accept of each Nitrado request. */
  nitradoRequests: Array<{ host: string | undefined; accept: string | undefined }>;
  ping: CountingPeer | null;
  /** Connections to the Nitrado stand-in open now. */
  nitradoOpen(): Promise<number>;
  close(): Promise<void>;
}

const le16 = (value: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(value);
  return bytes;
};
const le32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32LE(value);
  return bytes;
};
const str16 = (text: string) => Buffer.concat([le16(Buffer.byteLength(text)), Buffer.from(text, "utf8")]);

/** HyQuery v2's SERVER_INFO record value. */
export function serverInfoValue(facts: ServerFacts): Buffer {
  return Buffer.concat([str16(facts.name), str16(facts.motd), le32(facts.online), le32(facts.max), str16(facts.version), le32(facts.protocol), str16("34f44244")]);
}

/** HyQuery v2's PLAYER_LIST record value: total, count, offset, then name and UUID (two 64-bit halves, big-endian) each. */
export function playerListValue(names: string[], count = names.length, total = names.length): Buffer {
  return Buffer.concat([le32(total), le32(count), le32(0), ...names.flatMap((name) => [str16(name), randomBytes(16)])]);
}

export function tlv(type: number, value: Buffer): Buffer {
  return Buffer.concat([le16(type), le16(value.length), value]);
}

/** A v2 reply: magic, version 1, flags, request id, payload length, payload. */
export function v2Reply(magic: string, flags: number, requestId: number, payload: Buffer): Buffer {
  const id = Buffer.alloc(4);
  id.writeUInt32LE(requestId);
  return Buffer.concat([Buffer.from(magic, "latin1"), Buffer.of(1), le16(flags), id, le16(payload.length), payload]);
}

/** A v1 basic reply of `variant`. */
export function v1Reply(variant: "hytaleone" | "hyvote", facts: ServerFacts, port: number): Buffer {
  const head = [Buffer.from("HYREPLY\0", "latin1"), Buffer.of(0), str16(facts.name), str16(facts.motd), le32(facts.online), le32(facts.max)];
  return variant === "hytaleone"
    ? Buffer.concat([...head, le16(port), str16(facts.version), le32(facts.protocol), str16("34f44244")])
    : Buffer.concat([...head, le32(port), str16(facts.version)]);
}

/** An A2S_INFO reply (Source format). */
export function a2sInfoReply(facts: ServerFacts, map: string): Buffer {
  const c = (text: string) => Buffer.from(`${text}\0`, "utf8");
  return Buffer.concat([
    Buffer.from([0xff, 0xff, 0xff, 0xff, 0x49, 17]), c(facts.name), c(map), c("hytale"), c("Hytale"), le16(0),
    Buffer.of(facts.online, facts.max, 0, 0x64, 0x6c, 0, 0), c(facts.version), Buffer.of(0),
  ]);
}

/** A Version Negotiation answering `probe` (RFC 9000 17.2.1); null when it is not a long header of 1200 bytes or more. */
export function versionNegotiation(probe: Buffer, versions: number[] = [1]): Buffer | null {
  if (probe.length < 1200 || (probe[0]! & 0x80) === 0 || probe.readUInt32BE(1) === 0) return null;
  const dcid = probe.subarray(6, 6 + probe[5]!);
  const scidAt = 6 + probe[5]!;
  const scid = probe.subarray(scidAt + 1, scidAt + 1 + probe[scidAt]!);
  const list = Buffer.alloc(4 * versions.length);
  versions.forEach((version, i) => list.writeUInt32BE(version, 4 * i));
  return Buffer.concat([Buffer.of(0xc0 | 0x15), Buffer.alloc(4), Buffer.of(scid.length), scid, Buffer.of(dcid.length), dcid, list]);
}

let certificate: { cert: string; key: string } | null = null;

/** A self-signed certificate for the Nitrado stand-in, made once by openssl. */
function selfSigned(): { cert: string; key: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), "pennant-hytale-tls-"));
  track(() => rmSync(dir, { recursive: true, force: true }));
  const [cert, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=hytale.localhost"], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
  certificate = { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") };
  return certificate;
}

function bindUdp(socket: Socket, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve();
    });
  });
}

function listen(server: HttpServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
}

/** Starts a peer with `options`, asks it with `ask` (given its game port), and times the answer. */
export async function askPeer<T>(options: HytalePeerOptions, ask: (port: number) => Promise<T>): Promise<{ answer: T; ms: number; peer: HytalePeer }> {
  const peer = await startHytalePeer(options);
  const startedAt = performance.now();
  const answer = await ask(peer.port);
  return { answer, ms: performance.now() - startedAt, peer };
}

/** Starts the peer on a free game port P (P + 1 and P + 3 free too), retrying on a taken one. */
export async function startHytalePeer(options: HytalePeerOptions): Promise<HytalePeer> {
  for (let attempt = 1; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    try {
      return await startOn(port, options);
    } catch (error) {
      if (attempt >= 10) throw error;
    }
  }
}

async function startOn(port: number, options: HytalePeerOptions): Promise<HytalePeer> {
  const mangle = (way: keyof NonNullable<HytalePeerOptions["mangle"]>, reply: Buffer) => options.mangle?.[way]?.(reply) ?? reply;
  const later = (way: keyof NonNullable<HytalePeerOptions["delay"]>, send: () => void) => {
    const ms = options.delay?.[way];
    if (ms === undefined) return send();
    const timer = setTimeout(send, ms);
    closers.push(() => clearTimeout(timer));
  };
  const closers: Array<() => unknown> = [];
  const peer: HytalePeer = {
    port,
    seen: { v2: 0, v1: 0, quic: 0, a2s: 0, nitrado: 0 },
    badTokens: 0,
    nitradoRequests: [],
    ping: null,
    nitradoOpen: async () => 0,
    close: async () => {
      await Promise.all(closers.splice(0).map((close) => close()));
    },
  };
  try {
    const game = createSocket("udp4");
    closers.push(() => game.close());
    const tokens = new Map<string, Buffer>();
    game.on("message", (message, remote) => {
      const reply = (bytes: Buffer | null, way?: "v2" | "v1" | "quic") => {
        if (bytes) later(way ?? "v2", () => game.send(bytes, remote.port, remote.address));
      };
      const magic = message.subarray(0, 8).toString("latin1");
      const v2 = options.hyquery2;
      if ((magic === "ONEQUERY" || magic === "HYQUERY2") && v2 && (v2.families ?? ["ONEQUERY", "HYQUERY2"]).includes(magic)) {
        peer.seen.v2++;
        const replyMagic = magic === "ONEQUERY" ? "ONEREPLY" : "HYREPLY2";
        if (message[8] === 0x00 && message.length === 9) {
          const token = randomBytes(32);
          tokens.set(remote.address, v2.expectAnotherToken ? randomBytes(32) : token);
          const challenge = mangle("v2Challenge", Buffer.concat([Buffer.from(replyMagic, "latin1"), Buffer.of(0), token, Buffer.alloc(7)]));
          return void game.send(challenge, remote.port, remote.address);
        }
        if (message.length < 51 || !tokens.get(remote.address)?.equals(message.subarray(9, 41))) {
          peer.badTokens++;
          return; // "Invalid/expired challenge token: Request is silently dropped"
        }
        const requestId = message.readUInt32LE(41);
        const info = tlv(1, serverInfoValue(v2.facts ?? FACTS));
        if (message[8] === 0x02) {
          const reply2 = v2.players ? v2Reply(replyMagic, 0, requestId, tlv(2, playerListValue(v2.players))) : v2Reply(replyMagic, 0x0002, requestId, info);
          return reply(mangle("v2", reply2));
        }
        return reply(mangle("v2", v2Reply(replyMagic, 0, requestId, info)));
      }
      if (magic === "HYQUERY\0" && options.hyquery1) {
        peer.seen.v1++;
        return reply(mangle("v1", v1Reply(options.hyquery1.variant, options.hyquery1.facts ?? FACTS, port)), "v1");
      }
      if (options.quic && (message[0]! & 0x80) !== 0) {
        peer.seen.quic++;
        const answer = versionNegotiation(message);
        return reply(answer && mangle("quic", answer), "quic");
      }
    });
    await bindUdp(game, port);

    if (options.a2s) {
      const a2s = options.a2s;
      const query = createSocket("udp4");
      closers.push(() => query.close());
      const challenge = randomBytes(4);
      query.on("message", (message, remote) => {
        if (message.subarray(0, 5).toString("latin1") !== "\xff\xff\xff\xffT") return;
        peer.seen.a2s++;
        const given = message.subarray(25);
        const answer = a2s.challenge && !given.equals(challenge)
          ? Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0x41]), challenge])
          : mangle("a2s", a2sInfoReply(a2s.facts ?? FACTS, a2s.map ?? "orbis"));
        later("a2s", () => query.send(answer, remote.port, remote.address));
      });
      await bindUdp(query, port + 1);
    }

    if (options.nitrado) {
      const nitrado = options.nitrado;
      const handler = (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => {
        peer.seen.nitrado++;
        peer.nitradoRequests.push({ host: request.headers.host, accept: request.headers.accept });
        if (request.url !== "/Nitrado/Query") return response.writeHead(404).end();
        if (!request.headers.accept?.includes(NITRADO_TYPE)) return response.writeHead(406).end();
        const body = typeof nitrado.document === "string" ? nitrado.document : JSON.stringify(nitrado.document, null, 2);
        later("nitrado", () => response.writeHead(nitrado.status ?? 200, { "Content-Type": NITRADO_TYPE }).end(body));
      };
      const web: HttpServer = nitrado.plain ? createHttpServer(handler) : createHttpsServer(selfSigned(), handler);
      closers.push(() => new Promise<void>((resolve) => { web.closeAllConnections(); web.close(() => resolve()); }));
      await listen(web, port + 3);
      peer.nitradoOpen = () => new Promise((resolve) => web.getConnections((_, count) => resolve(count)));
    }

    if (options.ping) {
      peer.ping = await startCountingPeer("modern", options.ping, port);
      closers.push(() => peer.ping?.close());
    }
    track(() => peer.close());
    return peer;
  } catch (error) {
    await peer.close();
    throw error;
  }
}
