// The live server both banner services look up: a status peer on loopback
// answering as a Paper 1.21.4 server would (name in the MOTD, a two-line
// coloured MOTD as a chat component, a 64x64 favicon, 3 of 50 players), and an
// address where nothing listens (connection refused), for the offline banner.

import { iconRgba } from "../render/scenes.ts";
import { Pixmap, encodePng } from "../../src/render/index.ts";
import { startCountingPeer, type CountingPeer } from "../../test/support/java-peers.ts";
import { freePort } from "../../test/support/services.ts";

export const SERVER_NAME = "Skyblock Paradise";
const DEFAULT_GAME_PORT = 25565;

/** What a Paper server sends: the MOTD as components (line 2 after the "\n"), the favicon as a data URL. */
function paperStatus(): object {
  const favicon = encodePng(Pixmap.fromStraightRgba(64, 64, iconRgba()));
  return {
    version: { name: "Paper 1.21.4", protocol: 769 },
    players: { online: 3, max: 50, sample: [{ name: "Alex", id: "00000000-0000-0000-0000-000000000001" }] },
    description: {
      text: "",
      extra: [
        { text: "Welcome to ", color: "green" },
        { text: SERVER_NAME, color: "gold" },
        { text: "!\n", color: "green" },
        { text: "Islands, quests and weekly events", color: "gray" },
      ],
    },
    favicon: `data:image/png;base64,${Buffer.from(favicon).toString("base64")}`,
  };
}

export interface LiveServer {
  peer: CountingPeer;
  /** The host and port as typed into both services (no port when it is the game's default). */
  host: string;
  port: number;
  /** host:port where the connection is refused. */
  offline: { host: string; port: number };
}

/**
 * 127.0.0.2:25565 when free, so the address reads as players type it (no
 * port); else any free port on 127.0.0.1.
 */
export async function startLiveServer(): Promise<LiveServer> {
  const status = paperStatus();
  let peer: CountingPeer, host: string;
  try {
    peer = await startCountingPeer("modern", status, DEFAULT_GAME_PORT, "127.0.0.2");
    host = "127.0.0.2";
  } catch {
    peer = await startCountingPeer("modern", status);
    host = "127.0.0.1";
  }
  return { peer, host, port: peer.port, offline: { host: "127.0.0.1", port: await freePort() } };
}

/** `host` alone on the game's default port, else `host:port`. */
export function typedAddress(host: string, port: number): string {
  return port === DEFAULT_GAME_PORT ? host : `${host}:${port}`;
}
