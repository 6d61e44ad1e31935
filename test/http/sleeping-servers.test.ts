// Stopped servers whose host answers the ping with its placeholder (issue 44),
// end to end: a local peer answers exactly each host's placeholder
// (test/support/sleeping-answers.ts, built from the quoted sources), and
// GET /api/lookup reads it offline and sleeping, naming the host, while a
// data_mode=query banner draws the offline look with "Sleeping (host)" for
// its MOTD, pixel for pixel. Answers that only look like a placeholder stay
// online in both.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BannerOptions, ServerBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { PALETTES } from "../../src/banner/theme.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { countColor, decodeImage, differingPixels } from "../support/images.ts";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { SLEEPING_ANSWERS } from "../support/sleeping-answers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
const peers: CountingPeer[] = [];
beforeAll(async () => {
  server = await startTestServer({}, { lookup: new LookupService({ allowPrivate: true }) });
});
afterAll(async () => {
  await server.close();
  for (const peer of peers.splice(0)) await peer.close();
});

async function peerAnswering(status: object): Promise<number> {
  const peer = await startCountingPeer("modern", status);
  peers.push(peer);
  return peer.port;
}

async function lookup(port: number) {
  const response = await fetch(`${server.url}/api/lookup?address=127.0.0.1:${port}`);
  expect(response.status).toBe(200);
  return json(response);
}

async function banner(port: number) {
  const response = await fetch(`${server.url}/api/banner?data_mode=query&ip_address=127.0.0.1:${port}&template_key=minimal-status`, { headers: { Accept: "image/png" } });
  expect(response.status).toBe(200);
  return decodeImage(response);
}

const STRIP: BannerOptions = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 };

/** What an offline server's banner draws: nothing of its answer, its address as typed. */
function offlineData(port: number, fields: Partial<ServerBannerData> = {}): ServerBannerData {
  const address = `127.0.0.1:${port}`;
  return { name: address, status: "offline", players: null, motd: ["", ""], version: null, latencyMs: null, favicon: null, history: [], address, ...fields };
}

describe.each(SLEEPING_ANSWERS.map((answer) => [answer.host, answer] as const))("%s", (host, answer) => {
  test("its placeholder: the lookup reads offline and sleeping, the banner the offline look saying \"Sleeping\"", async () => {
    const port = await peerAnswering(answer.placeholder);
    expect(await lookup(port)).toMatchObject({
      online: false, sleeping: true, sleeping_host: host, error: { code: "sleeping" }, version: null, players: null, motd: null, latency_ms: null,
    });
    const shown = await banner(port);
    expect(differingPixels(shown, renderBanner("minimal-status", offlineData(port, { sleepingHost: host }), STRIP))).toBe(0);
    // Not the plain offline banner: it says whose placeholder answered.
    expect(differingPixels(shown, renderBanner("minimal-status", offlineData(port), STRIP))).toBeGreaterThan(0);
    expect(countColor(shown, PALETTES.dark.status.offline)).toBeGreaterThan(3);
    expect(countColor(shown, PALETTES.dark.status.online)).toBe(0);
  });

  test("what only looks like it: online in the lookup and the banner", async () => {
    for (const lookalike of answer.lookalikes) {
      const port = await peerAnswering(lookalike);
      expect(await lookup(port)).toMatchObject({ online: true, sleeping: false, sleeping_host: null, error: null });
      const shown = await banner(port);
      expect(countColor(shown, PALETTES.dark.status.online)).toBeGreaterThan(3);
      expect(countColor(shown, PALETTES.dark.status.offline)).toBe(0);
    }
  });
});

test("server_status=online draws a sleeping server online, without the sleeping line", async () => {
  const port = await peerAnswering(SLEEPING_ANSWERS[0]!.placeholder);
  const response = await fetch(`${server.url}/api/banner?data_mode=query&ip_address=127.0.0.1:${port}&template_key=minimal-status&server_status=online`, { headers: { Accept: "image/png" } });
  const shown = await decodeImage(response);
  expect(differingPixels(shown, renderBanner("minimal-status", offlineData(port, { status: "online" }), STRIP))).toBe(0);
});
