// Image routes answer their own unexpected failures (here: the database
// handle is gone, so every read throws) with an image stating the problem
// when the client shows images (an <img> on a forum or in a README), and the
// JSON error otherwise; either way one error line is logged, with the code on
// the request's line, and nothing of the failure's inside is shown.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { decodeImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid } from "../support/signing.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close().catch(() => {}));

const IMAGE = { Accept: "image/avif,image/webp,image/png,*/*;q=0.8" };

function breakDatabase(): void {
  server.db.$client.close();
}

function unexpectedErrorLines() {
  return server.logs().filter((line) => line.level === "error" && line.msg === "unexpected error");
}

test("a banner whose record cannot be read: a 500 image for an <img>, the JSON error otherwise", async () => {
  const path = `/api/banner?data_mode=plugin&server_uuid=${newUuid()}&size=728x90`;
  breakDatabase();
  const shown = await fetch(server.url + path, { headers: IMAGE });
  expect(shown.status).toBe(500);
  expect(shown.headers.get("cache-control")).toBe("no-store");
  expect(shown.headers.get("x-request-id")).toBeTruthy();
  const image = await decodeImage(shown);
  expect([image.type, image.width, image.height]).toEqual(["image/png", 728, 90]);

  const asked = await fetch(server.url + path, { headers: { Accept: "application/json" } });
  expect(asked.status).toBe(500);
  const body = await json(asked);
  expect(body.error.code).toBe("internal");
  expect(JSON.stringify(body)).not.toMatch(/closed|sqlite|database/i);
  expect(unexpectedErrorLines()).toHaveLength(2);
  // A request's line is written once its answer is sent.
  const requestLines = () => server.logs().filter((line) => line.route === "/api/banner");
  for (let waited = 0; waited < 2000 && requestLines().length < 2; waited += 5) await Bun.sleep(5);
  expect(requestLines().map((line) => [line.status, line.code])).toEqual([[500, "internal"], [500, "internal"]]);
});

test("a badge whose record cannot be read: a 500 badge for .png, the JSON error for .json", async () => {
  const uuid = newUuid();
  breakDatabase();
  for (const subject of ["plugins", "servers"]) {
    const png = await fetch(`${server.url}/shields/${subject}/${uuid}/status.png?style=flat-square`);
    expect(png.status).toBe(500);
    expect(png.headers.get("access-control-allow-origin")).toBe("*");
    expect(png.headers.get("cache-control")).toBe("no-store");
    const image = await decodeImage(png);
    expect(image.type).toBe("image/png");
    expect(image.height).toBe(20);
    // Wider than "badge | rate limited" would be is not the point; a red message segment is.
    const right = (image.width - 3) * 4 + 10 * image.width * 4;
    expect(image.data[right]!).toBeGreaterThan(150);
    expect(image.data[right + 1]!).toBeLessThan(120);

    const endpoint = await fetch(`${server.url}/shields/${subject}/${uuid}/status.json`);
    expect(endpoint.status).toBe(500);
    expect((await json(endpoint)).error.code).toBe("internal");
  }
  expect(unexpectedErrorLines()).toHaveLength(4);
});
