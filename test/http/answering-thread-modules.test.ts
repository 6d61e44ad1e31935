// With render threads, the thread that answers requests draws only the
// smallest stills of the faces' tables' text (src/serve/drawing/
// small-draws-here.ts: a hop to a render thread costs more than drawing a
// badge or a 468x60 banner), so it loads the engine but never fontkit (some
// 40 MiB a thread, src/render/basics.ts): text beyond the tables is drawn by
// the render threads. Checked in a child process of its own
// (support/loaded-engine.ts), after it has answered every kind of request and
// again after a banner and a badge of such text; without render threads the
// same probe sees fontkit loaded once such text is drawn
// (src/render/text/face-tables.ts), which shows the probe sees it at all.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";

interface Probe {
  answers: Record<string, string>;
  loaded: string[];
  loadedAfterUnicode: string[];
}

/** The server the probe pushes before it asks (support/loaded-engine.ts). */
const PUSHED = "00000000-0000-4000-8000-000000000042";
const UNICODE_BADGE = `/shields/servers/${PUSHED}/players.png?label=${encodeURIComponent("日本")}`;
const UNICODE_BANNER = `/api/banner?server_name=${encodeURIComponent("日本のサーバー")}&motd_line_1=${encodeURIComponent("Café")}`;

const fontkit = (modules: string[]) => modules.some((name) => name.includes("/fontkit/"));

async function probe(threads: number): Promise<Probe> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "support", "loaded-engine.ts")], {
    env: { ...process.env, PENNANT_RENDER_THREADS: String(threads) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  return JSON.parse(out) as Probe;
}

describe("the answering thread's modules", () => {
  test("with render threads: every kind of image answered, small stills drawn here, and no font parser loaded, whatever the text", async () => {
    const { answers, loaded, loadedAfterUnicode } = await probe(2);
    expect(answers).toEqual({
      "/api/banner?server_name=Hello&format=png": "200 image/png",
      "/api/banner?server_name=Hello&format=webp&size=728x90": "200 image/webp",
      "/api/banner?server_name=Hello&format=gif&animate=motd&motd_line_1=a&motd_line_2=b": "200 image/gif",
      "/api/banner?size=1x1": "400 image/png",
      "/shields/servers/00000000-0000-4000-8000-000000000000/players.png": "404 image/png",
      "/shields/servers/00000000-0000-4000-8000-000000000000/players.svg": "404 image/svg+xml",
      "/api/templates": "200 application/json;charset=utf-8",
      "/": "200 text/html; charset=utf-8",
      [`/s/${PUSHED}`]: "200 text/html; charset=utf-8",
      [`/s/${PUSHED}/chart.svg`]: "200 image/svg+xml",
      [`/s/${PUSHED}/chart.png`]: "200 image/png",
      [`/s/${PUSHED}/og.png`]: "200 image/png",
      [`/s/${PUSHED}/widget`]: "200 text/html; charset=utf-8",
      [UNICODE_BANNER]: "200 image/png",
      [UNICODE_BADGE]: "200 image/png",
    });
    expect(loaded).toContain("src/render/index.ts");
    expect(fontkit(loaded)).toBe(false);
    expect(fontkit(loadedAfterUnicode)).toBe(false);
  }, 60_000);

  test("without render threads the same probe sees the engine loaded, and fontkit only for text beyond the tables", async () => {
    const { loaded, loadedAfterUnicode } = await probe(0);
    expect(loaded).toContain("src/render/index.ts");
    expect(fontkit(loaded)).toBe(false);
    expect(fontkit(loadedAfterUnicode)).toBe(true);
  }, 60_000);
});
