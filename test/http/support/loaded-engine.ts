// Run as a child process by answering-thread-modules.test.ts, so that what it
// loads is its own: starts the app on PENNANT_RENDER_THREADS from its
// environment, asks it for what every kind of visitor asks (banners in each
// format, badges of an unknown server as PNG and SVG, an error image, the
// template list, the designer page, a pushed server's page with its charts,
// card and widget), and prints as JSON which modules of the drawing engine this
// thread (the one that answers) has loaded by then, and again after a banner
// and a badge whose text is beyond the faces' tables (Japanese, accented Latin).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { createApp } from "../../../src/serve/app.ts";
import { listen } from "../../../src/serve/listen.ts";
import { createLogger } from "../../../src/log.ts";
import { openSqliteStore } from "../../../src/store/sqlite-store.ts";

/** A server pushed before the app starts: its page and images are asked for. */
const PUSHED = "00000000-0000-4000-8000-000000000042";

/** What only drawing needs: the font parser, the encoders, the engine's text and its entry. */
const ENGINE = /node_modules\/(fontkit|@jsquash|omggif)\/|src\/render\/(index|text\/outline-face|encode\/webp)\.ts$/;

const PATHS = [
  "/api/banner?server_name=Hello&format=png",
  "/api/banner?server_name=Hello&format=webp&size=728x90",
  "/api/banner?server_name=Hello&format=gif&animate=motd&motd_line_1=a&motd_line_2=b",
  "/api/banner?size=1x1",
  "/shields/servers/00000000-0000-4000-8000-000000000000/players.png",
  "/shields/servers/00000000-0000-4000-8000-000000000000/players.svg",
  "/api/templates",
  "/",
  ...["", "/chart.svg", "/chart.png", "/og.png", "/widget"].map((path) => `/s/${PUSHED}${path}`),
];

const dir = mkdtempSync(join(tmpdir(), "pennant-engine-"));
const config = loadConfig({ PENNANT_DB: join(dir, "pennant.db"), PENNANT_RENDER_THREADS: process.env.PENNANT_RENDER_THREADS ?? "2" });
const store = openSqliteStore(config.dbPath);
const token = await store.tokens.create({ hash: "p".repeat(64), scope: "all", label: "probe", now: Date.now() });
await store.push({
  credentials: { tokenId: token.id, tokenHash: token.hash },
  replay: { key: "probe".padEnd(64, "0"), fingerprint: "probe", timestampMs: Date.now(), expiresAt: Number.MAX_SAFE_INTEGER },
  now: Date.now(),
  bounds: { registrationMax: 1, maxBytesPerToken: 1 << 20 },
  record: { kind: "server", uuid: PUSHED, serverPush: "update", fields: { name: "Probe", status: "online", playersOnline: 3, playersMax: 20, motd: "§aHello" }, maxPerToken: 1 },
});
const app = await createApp({ config, store, now: Date.now, log: createLogger({ level: "error", write: () => {} }), startRenderThreads: true });
const port = listen(app, "127.0.0.1", 0);
const answers: Record<string, string> = {};
async function ask(path: string): Promise<void> {
  // Asked as an <img> asks: a refused banner answers with an error image.
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept: "image/avif,image/webp,image/*,*/*;q=0.8" } });
  await answer.arrayBuffer();
  answers[path] = `${answer.status} ${answer.headers.get("content-type")}`;
}
// Bun lists every module it has evaluated, ES modules too, in require.cache.
const engineModules = () => Object.keys(require.cache).filter((name) => ENGINE.test(name)).map((name) => name.slice(name.lastIndexOf("/src/") + 1));
for (const path of PATHS) await ask(path);
const loaded = engineModules();
await ask(`/api/banner?server_name=${encodeURIComponent("日本のサーバー")}&motd_line_1=${encodeURIComponent("Café")}`);
// A badge as small as any, of such text: drawn by a render thread all the same.
await ask(`/shields/servers/${PUSHED}/players.png?label=${encodeURIComponent("日本")}`);
console.log(JSON.stringify({ answers, loaded, loadedAfterUnicode: engineModules() }));
await app.stop(true);
await store.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
