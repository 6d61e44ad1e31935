// bedrock-protocol's package entry also loads its client, which insists on the
// native raknet addon (not built here: its install script is denied). The
// server module alone works with the pure-JS 'jsp-raknet' backend.
declare module "bedrock-protocol/src/createServer.js" {
  export function createServer(options: Record<string, unknown>): { close(): void };
}

declare module "bedrock-protocol/src/server.js" {
  export class Server {
    constructor(options: Record<string, unknown>);
    listen(): Promise<unknown>;
    close(): Promise<void>;
    /** RakJsServer > jsp-raknet Server > its dgram socket. */
    raknet: { raknet: { socket: import("node:dgram").Socket } };
  }
}
