// The release binary, built once with the release flags (.ci/build.ts), run
// from an empty folder far from the source tree: it creates its data folder,
// makes a token, serves signed pushes, status reads, /healthz, /metrics, the
// API description and its page (/openapi.json, /docs: embedded, nothing from
// elsewhere) and JSON log lines, stops cleanly on SIGTERM. Release archives unpack to a
// working executable. Drawing on the answering thread (no render threads)
// loads the engine from the bundle on first use and gives the render
// threads' bytes. A second binary built from the render code draws text
// with the embedded fonts and encodes with the embedded wasm.

import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../../.ci/build.ts";
import { packageRelease, sha256, TARGETS, writeChecksums } from "../../.ci/release.ts";
import { decodePng } from "../../src/render/index.ts";
import { tempDir } from "../support/cleanup.ts";
import { startPostgres } from "../support/postgres.ts";
import { startServe, type RunningServer } from "../support/process.ts";
import { startRedis } from "../support/redis.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const buildDir = tempDir("binary");
const binary = join(buildDir, "pennant");
const renderBinary = join(buildDir, "render-sample");

beforeAll(async () => {
  await Promise.all([compile({ outfile: binary }), compile({ outfile: renderBinary, entry: "test/cli/support/render-entry.ts" })]);
}, 180_000);

async function run(args: string[], cwd: string, executable = binary, env: Record<string, string> = {}): Promise<string> {
  const child = Bun.spawn([executable, ...args], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

/**
 * Image routes the smoke test requests of the server it pushed: [path, Content-Type].
 * Each draws with the embedded fonts and encodes with the embedded wasm.
 */
const imageRequests = (server: string): Array<[string, string]> => [
  [`/shields/servers/${server}/players.png`, "image/png"],
  [`/shields/servers/${server}/players.png?style=for-the-badge&scale=2`, "image/png"],
  [`/api/banner?data_mode=plugin&server_uuid=${server}`, "image/png"],
  [`/api/banner?data_mode=plugin&server_uuid=${server}&template_key=classic&size=1200x300&format=webp`, "image/webp"],
];

describe("release binary", () => {
  test("from an empty folder: data folder, token, signed update, status, /healthz, /openapi.json, /docs, /metrics, logs, clean stop", async () => {
    const home = tempDir("binary-home"); // nothing in it, and not where the binary is
    expect((await run(["--version"], home)).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const token = (await run(["token", "create", "--label", "smoke"], home)).trimEnd().split("\n").at(-1)!;
    expect(existsSync(join(home, "data", "pennant.db"))).toBe(true);

    const serve = await startServe({}, { command: [binary], cwd: home });
    const uuid = newUuid();
    const update = { name: "Smoke", status: "online", stats: { players: { online: 7, max: 50 }, tps: 19.9, motd: "§aHello", version: "1.21.4" } };
    const signed = (path: string, method: "GET" | "POST" = "POST", body?: object) =>
      fetch(signedRequest(serve.url, { method, path, token, serverUuid: uuid, ...(body ? { body } : {}) }, Date.now()));
    try {
      expect((await signed("/api/server/update", "POST", update)).status).toBe(200);
      const status = await signed("/api/server/status", "GET");
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ uuid, name: "Smoke", status: "online", stats: { players: { online: 7, max: 50 }, motd: "§aHello" } });

      for (const [path, contentType] of imageRequests(uuid)) {
        const image = await fetch(`${serve.url}${path}`);
        expect([path, image.status, image.headers.get("content-type")]).toEqual([path, 200, contentType]);
      }

      const health = await fetch(`${serve.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get("x-request-id")).toBeTruthy();
      const description = await fetch(`${serve.url}/openapi.json`);
      expect(description.status).toBe(200);
      const document = (await description.json()) as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths)).toContain("/api/plugins/{plugin_uuid}/data");
      const docs = await fetch(`${serve.url}/docs`);
      expect([docs.status, docs.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      const page = await docs.text();
      expect(page).toContain('fetch("openapi.json")');
      expect(page).not.toMatch(/https?:\/\//);

      const metrics = await (await fetch(`${serve.url}/metrics`)).text();
      expect(metrics).toContain('pennant_http_requests_total{method="POST",route="/api/server/update",status="200"} 1');
      // The designer page and its script, embedded by import.
      const designer = await (await fetch(`${serve.url}/`)).text();
      const script = /src="(\/designer\/designer\.js\?v=\w+)"/.exec(designer)?.[1];
      expect(script && (await (await fetch(serve.url + script)).text()).includes("livePreview")).toBe(true);

      serve.signal("SIGTERM");
      expect(await serve.exited).toBe(0);
    } finally {
      await serve.kill();
    }
    const wal = join(home, "data", "pennant.db-wal");
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const lines = serve
      .stderr()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.route === "/api/server/update")).toMatchObject({ level: "info", status: 200, uuid });
    expect(serve.stderr()).not.toContain(token);
  });

  test("on PostgreSQL and Redis from an empty folder: its embedded migrations, a token, a signed push, a banner, /healthz; no SQLite file", async () => {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    const env = { PENNANT_DATABASE_URL: await postgres.database(), PENNANT_REDIS_URL: redis.url };
    const home = tempDir("binary-network");
    const token = (await run(["token", "create", "--label", "network"], home, binary, env)).trimEnd().split("\n").at(-1)!;

    const serve = await startServe(env, { command: [binary], cwd: home });
    try {
      await waitForLine(serve, "rate limits and budgets are shared through Redis");
      const uuid = newUuid();
      const update = { name: "Network", status: "online", stats: { players: { online: 12, max: 40 } } };
      expect((await fetch(signedRequest(serve.url, { path: "/api/server/update", token, serverUuid: uuid, body: update }, Date.now()))).status).toBe(200);
      const status = await fetch(signedRequest(serve.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, Date.now()));
      expect(await status.json()).toMatchObject({ uuid, name: "Network", stats: { players: { online: 12, max: 40 } } });
      const banner = await fetch(`${serve.url}/api/banner?data_mode=plugin&server_uuid=${uuid}`);
      expect([banner.status, banner.headers.get("content-type")]).toEqual([200, "image/png"]);
      expect(await (await fetch(`${serve.url}/shields/servers/${uuid}/players.json`)).json()).toMatchObject({ message: "12/40" });
      const health = await fetch(`${serve.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { ok: true, limits: { shared: true } }]);
      serve.signal("SIGTERM");
      expect(await serve.exited).toBe(0);
    } finally {
      await serve.kill();
    }
    // Nothing of SQLite's: no data folder was made.
    expect(existsSync(join(home, "data"))).toBe(false);
  });

  test("drawing on its answering thread (PENNANT_RENDER_THREADS=0) loads the engine from the bundle on first use: the render threads' bytes", async () => {
    const paths = [
      "/api/banner?server_name=Hello%20%C2%A7aWorld&online_players=3&max_players=20&format=webp&size=728x90",
      "/api/banner?template_key=card&server_name=Hello&size=300x250&scale=2",
      `/shields/servers/${newUuid()}/players.png`,
    ];
    const answers: Record<string, string[]> = {};
    for (const threads of ["0", "2"]) {
      const serve = await startServe({ PENNANT_RENDER_THREADS: threads }, { command: [binary], cwd: tempDir("binary-threads") });
      try {
        answers[threads] = await Promise.all(paths.map(async (path) => {
          const answer = await fetch(serve.url + path);
          return `${answer.status} ${answer.headers.get("content-type")} ${Bun.hash(await answer.arrayBuffer())}`;
        }));
      } finally {
        await serve.kill();
      }
    }
    expect(answers["0"]!.map((answer) => answer.split(" ").slice(0, 2).join(" "))).toEqual(["200 image/webp", "200 image/png", "404 image/png"]);
    expect(answers["0"]).toEqual(answers["2"]!);
  });

  test("draws text with its embedded fonts and encodes PNG and WebP with its embedded wasm", async () => {
    const { faces, png, webp } = JSON.parse(await run([], buildDir, renderBinary)) as { faces: string[][]; png: string; webp: string };
    expect(faces[0]).toEqual(["DejaVu Sans", "Unifont", "Unifont Upper"]);
    expect(faces[1]).toEqual(["DejaVu Sans Bold"]);
    expect(faces[2]).toEqual(["Pennant Pixel", "Unifont"]);
    const decoded = decodePng(new Uint8Array(Buffer.from(png, "base64")));
    expect(decoded.ok && decoded.image.width === 260 && decoded.image.data.some((v) => v > 0)).toBe(true);
    expect(Buffer.from(webp, "base64").subarray(8, 12).toString("latin1")).toBe("WEBP");
  });

  test("release archives: .tar.gz and .zip unpack to a working executable with the licences; SHA256SUMS checks", async () => {
    // Packing does not depend on what the executable is: a small one keeps
    // CI from compressing 110 MB twice (npm run release does that).
    const out = tempDir("release");
    const executable = join(out, "built-pennant");
    writeFileSync(executable, "#!/bin/sh\necho 9.9.9\n");
    const target = TARGETS.find((candidate) => candidate.name === "linux-x64")!;
    const archives = await packageRelease(executable, target, "9.9.9", out);
    expect(archives.map(({ file }) => file)).toEqual([join(out, "pennant-9.9.9-linux-x64.tar.gz"), join(out, "pennant-9.9.9-linux-x64.zip")]);

    const sums = await writeChecksums(archives, out);
    const check = Bun.spawnSync(["sha256sum", "-c", sums], { cwd: out });
    expect(check.stdout.toString()).toBe("pennant-9.9.9-linux-x64.tar.gz: OK\npennant-9.9.9-linux-x64.zip: OK\n");

    for (const [archive, unpack] of [
      [archives[0]!.file, ["tar", "-xzf"]],
      [archives[1]!.file, ["unzip", "-q"]],
    ] as const) {
      const into = join(out, `unpacked-${unpack[0]}`);
      mkdirSync(into);
      expect(Bun.spawnSync([...unpack, archive], { cwd: into }).exitCode).toBe(0);
      const folder = join(into, "pennant-9.9.9-linux-x64");
      for (const file of ["README.md", "LICENSE", "licenses/fonts.md", "licenses/dejavu-LICENSE", "licenses/unifont-LICENSE"]) {
        expect(existsSync(join(folder, file))).toBe(true);
      }
      // Every page and picture the README links to is in the archive beside it.
      const linked = [...readFileSync(join(folder, "README.md"), "utf8").matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)].map((match) => match[1]!);
      expect(linked.length).toBeGreaterThan(10);
      expect(linked.filter((path) => !existsSync(join(folder, path)))).toEqual([]);
      expect(await sha256(join(folder, "pennant"))).toBe(await sha256(executable));
      expect((await run(["--version"], into, join(folder, "pennant"))).trim()).toBe("9.9.9");
    }
  });
});

/** Resolves once the server has written `text` to its log; fails after 2 s. */
async function waitForLine(server: RunningServer, text: string): Promise<void> {
  for (let waited = 0; !server.stderr().includes(text); waited += 20) {
    if (waited >= 2_000) throw new Error(`no "${text}" in the log after 2 s: ${server.stderr()}`);
    await Bun.sleep(20);
  }
}
