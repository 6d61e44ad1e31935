// bedrock-protocol's package entry also loads its client, which insists on the
// native raknet addon (not built here: its install script is denied). The
// server module alone works with the pure-JS 'jsp-raknet' backend.
declare module "bedrock-protocol/src/createServer.js" {
  export function createServer(options: Record<string, unknown>): { close(): void };
}
