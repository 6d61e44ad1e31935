// Each host's placeholder (src/lookup/sleeping-signatures.ts) as a status
// answer built from its quoted source, and answers of real servers that look
// like it without its whole shape: someone online, or the words within more.
// A field the source does not quote is a plain value that decides nothing.

export interface SleepingAnswer {
  host: string;
  /** The status JSON the host answers for a stopped server. */
  placeholder: object;
  /** Real servers' answers that must stay online. */
  lookalikes: readonly object[];
}

const nobody = { online: 0, max: 20 };

export const SLEEPING_ANSWERS: readonly SleepingAnswer[] = [
  {
    // Pingernos: version name "§4● Offline".
    host: "Aternos",
    placeholder: { version: { name: "§4● Offline", protocol: -1 }, players: { online: 0, max: 0 }, description: "" },
    lookalikes: [
      { version: { name: "§4● Offline", protocol: -1 }, players: { online: 1, max: 0 }, description: "" },
      { version: { name: "§4● Offline mode 1.21.4", protocol: 769 }, players: nobody, description: "§7Cracked server" },
    ],
  },
  {
    // iris-bot: version "§9◉ Sleeping" (name_clean "◉ Sleeping"), players 0/10, the server's own MOTD.
    host: "exaroton",
    placeholder: { version: { name: "§9◉ Sleeping", protocol: -1 }, players: { online: 0, max: 10 }, description: "The Unofficial LoadingArtist Community Server" },
    lookalikes: [
      { version: { name: "§9◉ Sleeping", protocol: -1 }, players: { online: 2, max: 10 }, description: "The Unofficial LoadingArtist Community Server" },
      { version: { name: "§9◉ Sleeping Beauty 1.21.4", protocol: 769 }, players: { online: 0, max: 10 }, description: "A fairy-tale server" },
      { version: { name: "Paper 1.21.4", protocol: 769 }, players: { online: 0, max: 10 }, description: "§9◉ Sleeping" },
    ],
  },
  {
    // Falix's knowledge base: "This server is OFFLINE!" / "Start the server at FalixNodes.net/start".
    host: "FalixNodes",
    placeholder: { version: { name: "1.21.4", protocol: 769 }, players: nobody, description: "This server is OFFLINE!\nStart the server at FalixNodes.net/start" },
    lookalikes: [
      { version: { name: "1.21.4", protocol: 769 }, players: { online: 3, max: 20 }, description: "This server is OFFLINE!\nStart the server at FalixNodes.net/start" },
      { version: { name: "1.21.4", protocol: 769 }, players: nobody, description: "§eThis server is OFFLINE! Start the server at FalixNodes.net/start\n§7...just kidding, come in" },
    ],
  },
  {
    // Minehut/Meta issue 31: "server is offline. start via the lobby with /join <server>".
    host: "Minehut",
    placeholder: { version: { name: "1.21.4", protocol: 769 }, players: nobody, description: "server is offline. start via the lobby with /join skyforge" },
    lookalikes: [
      { version: { name: "1.21.4", protocol: 769 }, players: { online: 1, max: 20 }, description: "server is offline. start via the lobby with /join skyforge" },
      { version: { name: "1.21.4", protocol: 769 }, players: nobody, description: "Server is offline. Start via the lobby with /join skyforge §7(back at 6pm)" },
    ],
  },
  {
    // minecraft-server-hibernation's default: msh-config.json's InfoHibernation, Version and Protocol; players 0/0.
    host: "minecraft-server-hibernation",
    placeholder: {
      description: { text: "                   §fserver status:\n                   §b§lHIBERNATING" },
      players: { max: 0, online: 0 }, version: { name: "1.19.2", protocol: 760 },
    },
    lookalikes: [
      { description: { text: "                   §fserver status:\n                   §b§lHIBERNATING" }, players: { max: 20, online: 4 }, version: { name: "1.19.2", protocol: 760 } },
      { description: { text: "§fserver status: §b§lHIBERNATING§r §7until the event" }, players: { max: 0, online: 0 }, version: { name: "1.19.2", protocol: 760 } },
    ],
  },
  {
    // lazymc's defaults: the sleeping MOTD, version 1.20.3 (protocol 765) before it knows the server's, players 0/0.
    host: "lazymc",
    placeholder: { version: { name: "1.20.3", protocol: 765 }, players: { online: 0, max: 0 }, description: "☠ Server is sleeping\n§2☻ Join to start it up" },
    lookalikes: [
      { version: { name: "1.20.3", protocol: 765 }, players: { online: 2, max: 0 }, description: "☠ Server is sleeping\n§2☻ Join to start it up" },
      { version: { name: "Paper 1.20.4", protocol: 765 }, players: nobody, description: "§c☠ Server is sleeping\n§2☻ Join to start it up §7- just kidding, we are open" },
    ],
  },
  {
    // SleepingServerStarter's default serverName as its MOTD; its maxPlayers default 20.
    host: "SleepingServerStarter",
    placeholder: { version: { name: "1.20.4", protocol: 765 }, players: nobody, description: "SleepingServer, waiting for his prince..." },
    lookalikes: [
      { version: { name: "1.20.4", protocol: 765 }, players: { online: 5, max: 20 }, description: "SleepingServer, waiting for his prince..." },
      { version: { name: "1.20.4", protocol: 765 }, players: nobody, description: "§dSleepingServer, waiting for his prince... §7and his dragon" },
    ],
  },
];
