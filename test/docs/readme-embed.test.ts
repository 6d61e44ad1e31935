// The README's Quick start ends with the URL a new user embeds for the server
// their plugin pushes: it must draw what was pushed. A parameter that
// overrides pushed data (server_name=Your%20Server once did) shows the
// newcomer the README's words on their own banner.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { decodeImage, type DecodedImage } from "../support/images.ts";
import { ROOT } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

/** The parameters whose values stand in for what a server pushed (docs/banner-parameters.md). */
const OVERRIDES = ["server_name", "online_players", "max_players", "server_status", "motd_line_1", "motd_line_2"];
const PUSHED_NAME = "Emerald Isle";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The banner URL of the Quick start's steps, with THAT-UUID standing for the server. */
async function quickStartEmbed(): Promise<URL> {
  const readme = await Bun.file(join(ROOT, "README.md")).text();
  const start = readme.indexOf("\n## Quick start\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const urls = [...section.matchAll(/`(https?:\/\/[^`\s]*\/api\/banner\?[^`\s]*)`/g)].map((match) => match[1]!);
  expect(urls).toHaveLength(1);
  expect(urls[0]).toContain("server_uuid=THAT-UUID");
  return new URL(urls[0]!);
}

async function banner(url: URL): Promise<DecodedImage> {
  const response = await fetch(url);
  expect([url.search, response.status, response.headers.get("content-type")]).toEqual([url.search, 200, "image/png"]);
  return decodeImage(response);
}

const same = (a: DecodedImage, b: DecodedImage) => a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));

test("the Quick start's embed URL draws the name and data the server pushed, overriding none of it", async () => {
  const uuid = newUuid();
  const body = { name: PUSHED_NAME, stats: { players: { online: 7, max: 40 }, motd: "§aWelcome home", version: "1.21.4" } };
  const pushed = await fetch(signedRequest(server.url, { path: "/api/server/update", token: server.token("server"), serverUuid: uuid, body }, server.clock.now));
  expect(pushed.status).toBe(200);

  const readme = await quickStartEmbed();
  const url = new URL(`${readme.pathname}${readme.search.replace("THAT-UUID", uuid)}`, server.url);
  const drawn = await banner(url);
  // Nothing in it stands in for pushed data: without those parameters the image is the same...
  const bare = new URL(url);
  for (const name of OVERRIDES) bare.searchParams.delete(name);
  expect(same(drawn, await banner(bare))).toBe(true);
  // ...and it shows the pushed name, not another.
  const withName = (name: string) => {
    const copy = new URL(url);
    copy.searchParams.set("server_name", name);
    return banner(copy);
  };
  expect(same(drawn, await withName(PUSHED_NAME))).toBe(true);
  expect(same(drawn, await withName("Your Server"))).toBe(false);
});
