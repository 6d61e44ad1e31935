// A tiny DNS server over UDP for resolver tests: answers A, AAAA and SRV
// questions from a table (NXDOMAIN for unknown names), or stays silent.

import { createSocket } from "node:dgram";
import { ipv6Groups } from "../../src/lookup/address-policy.ts";

export interface DnsRecords {
  a?: string[];
  aaaa?: string[];
  srv?: Array<{ priority: number; weight: number; port: number; target: string }>;
}

export interface DnsPeer {
  /** "127.0.0.1:port", for Resolver.setServers. */
  server: string;
  questions: string[];
  close(): void;
}

const TYPE = { A: 1, AAAA: 28, SRV: 33 } as const;

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, "").split(".").filter(Boolean);
  return Buffer.concat([...labels.map((label) => Buffer.concat([Buffer.of(label.length), Buffer.from(label)])), Buffer.of(0)]);
}

function readName(message: Buffer, at: number): { name: string; next: number } {
  const labels: string[] = [];
  while (message[at]! !== 0) {
    labels.push(message.toString("latin1", at + 1, at + 1 + message[at]!));
    at += 1 + message[at]!;
  }
  return { name: labels.join(".").toLowerCase(), next: at + 1 };
}

function rdata(type: number, records: DnsRecords): Buffer[] {
  if (type === TYPE.A) return (records.a ?? []).map((ip) => Buffer.from(ip.split(".").map(Number)));
  if (type === TYPE.AAAA) {
    return (records.aaaa ?? []).map((ip) => Buffer.concat(ipv6Groups(ip)!.map((group) => Buffer.of(group >> 8, group & 0xff))));
  }
  if (type === TYPE.SRV) {
    return (records.srv ?? []).map((srv) => {
      const head = Buffer.alloc(6);
      head.writeUInt16BE(srv.priority, 0);
      head.writeUInt16BE(srv.weight, 2);
      head.writeUInt16BE(srv.port, 4);
      return Buffer.concat([head, encodeName(srv.target)]);
    });
  }
  return [];
}

export async function startDnsPeer(zone: Record<string, DnsRecords>, options: { silent?: boolean } = {}): Promise<DnsPeer> {
  const socket = createSocket("udp4");
  const peer: DnsPeer = { server: "", questions: [], close: () => socket.close() };
  socket.on("message", (message, remote) => {
    const { name, next } = readName(message, 12);
    const type = message.readUInt16BE(next);
    peer.questions.push(`${name} ${type}`);
    if (options.silent) return;
    const records = zone[name];
    const answers = records ? rdata(type, records) : [];
    const header = Buffer.alloc(12);
    message.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(records ? 0x8180 : 0x8183, 2); // response, recursion; NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const question = message.subarray(12, next + 4);
    const encoded = answers.map((data) => {
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      fixed.writeUInt16BE(type, 2);
      fixed.writeUInt16BE(1, 4); // class IN
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(data.length, 10);
      return Buffer.concat([fixed, data]);
    });
    socket.send(Buffer.concat([header, question, ...encoded]), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  peer.server = `127.0.0.1:${socket.address().port}`;
  return peer;
}
