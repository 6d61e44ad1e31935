// The compiled single-file binary must carry its migrations, fonts and wasm
// inside it: build it, run it from an empty folder far from the source tree,
// push to it, and draw text with a second binary built from the render code.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { decodePng } from "../../src/render/index.ts";
import { tempDir } from "../support/cleanup.ts";
import { ROOT } from "../support/process.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const dir = tempDir("binary");
const binary = join(dir, "pennant");
const renderBinary = join(dir, "render-sample");

async function compile(entry: string, outfile: string): Promise<void> {
  const build = Bun.spawn([process.execPath, "build", "--compile", entry, "--outfile", outfile], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await build.exited) !== 0) throw new Error(await new Response(build.stderr).text());
}

beforeAll(async () => {
  await Promise.all([compile("src/index.ts", binary), compile("test/cli/support/render-entry.ts", renderBinary)]);
}, 180_000);

async function run(args: string[], executable = binary): Promise<string> {
  const child = Bun.spawn([executable, ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const stdout = await new Response(child.stdout).text();
  expect(await child.exited).toBe(0);
  return stdout;
}

describe("compiled binary", () => {
  test("migrates, makes tokens and serves signed pushes with its embedded migrations", async () => {
    expect((await run(["--version"])).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const token = (await run(["token", "create", "--db", "db/pennant.db"])).trimEnd().split("\n").at(-1)!;

    const server = Bun.spawn([binary, "serve", "--port", "0", "--host", "127.0.0.1", "--db", "db/pennant.db"], {
      cwd: dir,
      stdout: "pipe",
      stderr: "inherit",
    });
    try {
      const reader = server.stdout.getReader();
      let output = "";
      while (!/listening on (\S+)/.test(output)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(output);
        output += new TextDecoder().decode(value);
      }
      const url = /listening on (\S+)/.exec(output)![1]!;
      const response = await fetch(signedRequest(url, { path: "/api/server/heartbeat", token, serverUuid: newUuid(), body: { name: "bin" } }, Date.now()));
      expect(response.status).toBe(200);
    } finally {
      server.kill("SIGKILL");
      await server.exited;
    }
  });

  test("draws text with its embedded fonts and encodes PNG and WebP with its embedded wasm", async () => {
    const { faces, png, webp } = JSON.parse(await run([], renderBinary)) as { faces: string[][]; png: string; webp: string };
    expect(faces[0]).toEqual(["DejaVu Sans", "Unifont", "Unifont Upper"]);
    expect(faces[1]).toEqual(["DejaVu Sans Bold"]);
    expect(faces[2]).toEqual(["Pennant Pixel", "Unifont"]);
    const decoded = decodePng(new Uint8Array(Buffer.from(png, "base64")));
    expect(decoded.ok && decoded.image.width === 260 && decoded.image.data.some((v) => v > 0)).toBe(true);
    expect(Buffer.from(webp, "base64").subarray(8, 12).toString("latin1")).toBe("WEBP");
  });
});
