// Live Discord messages from outside (issue 44): a discord-live subscription
// through the signed API, a real Pennant sweeping on the test's clock, and a
// stand-in of Discord's webhook API written from Discord's documentation
// (test/support/discord-peer.ts). Time moves only when the test moves the
// clock; the short real sleeps only let several sweeps run, so that a request
// that should not come would have come.

import { afterEach, describe, expect, test } from "bun:test";
import { startDiscordPeer, type DiscordPeer } from "../support/discord-peer.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

const PUBLIC_URL = "https://banners.example.com";
/** Long enough for several sweeps (every 30 ms): a request that should not come would have come. */
const SEVERAL_SWEEPS_MS = 300;

let server: TestServer;
let discord: DiscordPeer;
afterEach(async () => {
  await server?.close();
});

async function start(env: Record<string, string> = {}): Promise<void> {
  // One clock for both: the stand-in judges waits by the app's time.
  discord = startDiscordPeer({ get now() { return server.clock.now; } });
  server = await startTestServer({ PENNANT_PUBLIC_URL: PUBLIC_URL, PENNANT_STALE_AFTER: "3600", ...env }, { alertIntervalMs: 30, discordApi: discord.api, clockStart: Date.UTC(2025, 5, 1, 12) });
}

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await Bun.sleep(10);
  }
}

/** A token and a server it pushed: online, 7 of 20, a MOTD with codes on two lines, a version and an address. */
async function pushedServer(): Promise<{ token: string; serverUuid: string; update: (body: object) => Promise<void> }> {
  const token = server.token("server");
  const serverUuid = newUuid();
  let pushes = 0;
  const update = async (body: object) => {
    // A different body each time: an exact resend in the same second would be a duplicate.
    const response = await send({ path: "/api/server/update", token, serverUuid, body: { ...body, stats: { ...(body as any).stats, tps: 20 - (pushes++ % 7) / 10 } } });
    expect(response.status).toBe(200);
  };
  await update({ name: "Lobby", status: "online", address: "Play.Example.com:25565", stats: { players: { online: 7, max: 20 }, motd: "§a§lWelcome §rto Lobby\n§7second line", version: "Paper 1.21.4" } });
  return { token, serverUuid, update };
}

async function subscribeLive(token: string, serverUuid: string, more: object = {}): Promise<Response> {
  return send({ path: "/api/server/webhooks", token, serverUuid, body: { url: discord.webhookUrl, format: "discord-live", ...more } });
}

async function listed(token: string, serverUuid: string): Promise<Record<string, unknown>> {
  const rows = (await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<Record<string, unknown>>;
  return rows[0]!;
}

/** The requests so far, as "POST" or "PATCH <message id>". */
const calls = () => discord.requests.map((request) => (request.method === "POST" ? "POST" : `PATCH ${request.path.split("/").at(-1)}`));
const fieldOf = (body: any, name: string) => body.embeds[0].fields.find((field: any) => field.name === name)?.value;
/** Whether every attempt sent has been recorded in the store: the clock may move only then, or a wait would be counted from the moved time. */
const settled = () => (server.db.$client.query("select count(*) as n from webhooks where live_leased_until > 0").get() as { n: number }).n === 0;

describe("a live message", () => {
  test("is posted once with wait, then edited only when what it shows changes, never sooner than the interval", async () => {
    await start();
    const { token, serverUuid, update } = await pushedServer();
    expect((await subscribeLive(token, serverUuid)).status).toBe(201);
    await until(() => discord.requests.length === 1 && settled());
    const [post] = discord.requests;
    expect(post!.query.get("wait")).toBe("true");
    const posted = [...discord.messages.keys()][0]!;
    const embed = post!.body.embeds[0];
    expect(embed).toMatchObject({ title: "Lobby", url: `${PUBLIC_URL}/s/${serverUuid}`, description: "Welcome to Lobby", color: 0x2ecc71 });
    expect(fieldOf(post!.body, "Players")).toBe("7/20");
    expect(fieldOf(post!.body, "Version")).toBe("Paper 1.21.4");
    expect(fieldOf(post!.body, "Join")).toBe("play.example.com");
    expect(fieldOf(post!.body, "Status")).toMatch(/^Online since <t:\d+:R>$/);
    expect(fieldOf(post!.body, "Last push")).toBe(`<t:${Math.floor(server.clock.now / 1000)}:R>`);
    expect(fieldOf(post!.body, "Uptime (24 h)")).toMatch(/^(–|\d+\.\d%)$/);
    expect(embed.image.url).toStartWith(`${PUBLIC_URL}/api/banner?data_mode=plugin&server_uuid=${serverUuid}&v=`);
    expect(post!.body.allowed_mentions).toEqual({ parse: [] });
    expect((await listed(token, serverUuid)).message_id).toBe(posted);

    // Nothing changed: nothing is sent, however long.
    server.clock.now += 10 * 60_000;
    await update({ status: "online", stats: { players: { online: 7, max: 20 } } });
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(calls()).toEqual(["POST"]);

    // A change past the interval: edited at once, the banner's URL changed with it.
    await update({ stats: { players: { online: 8, max: 20 } } });
    await until(() => discord.requests.length === 2 && settled());
    expect(calls()).toEqual(["POST", `PATCH ${posted}`]);
    const edit = discord.requests[1]!.body;
    expect(fieldOf(edit, "Players")).toBe("8/20");
    expect(edit.embeds[0].image.url).not.toBe(embed.image.url);

    // Changes within the interval wait for it, and make one edit.
    await update({ stats: { players: { online: 9, max: 20 } } });
    await update({ stats: { players: { online: 10, max: 20 }, version: "Paper 1.21.5" } });
    server.clock.now += 59_000;
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(discord.requests).toHaveLength(2);
    server.clock.now += 1_000;
    await until(() => discord.requests.length === 3 && settled());
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(calls()).toEqual(["POST", `PATCH ${posted}`, `PATCH ${posted}`]);
    expect([fieldOf(discord.requests[2]!.body, "Players"), fieldOf(discord.requests[2]!.body, "Version")]).toEqual(["10/20", "Paper 1.21.5"]);

    // The state shows at once (no grace): offline at the next edit.
    server.clock.now += 60_000;
    await update({ status: "offline" });
    await until(() => discord.requests.length === 4 && settled());
    expect(discord.requests[3]!.body.embeds[0]).toMatchObject({ color: 0xe74c3c });
    expect(fieldOf(discord.requests[3]!.body, "Status")).toMatch(/^Offline since/);
    expect(fieldOf(discord.requests[3]!.body, "Players")).toBe("–");
    expect(discord.violations).toEqual([]);
    expect(await listed(token, serverUuid)).toMatchObject({ format: "discord-live", state: "active", last_status: 200, interval_seconds: 60, grace_seconds: null, events: [] });
  });

  test("deleted in Discord, it is posted anew once and the edits go to the new one", async () => {
    await start();
    const { token, serverUuid, update } = await pushedServer();
    await subscribeLive(token, serverUuid, { interval_seconds: 30 });
    await until(() => discord.requests.length === 1 && settled());
    const first = [...discord.messages.keys()][0]!;
    discord.messages.delete(first);
    server.clock.now += 30_000;
    await update({ stats: { players: { online: 3, max: 20 } } });
    await until(() => discord.requests.length === 3 && settled());
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    const second = [...discord.messages.keys()][0]!;
    expect(second).not.toBe(first);
    expect(calls()).toEqual(["POST", `PATCH ${first}`, "POST"]);
    expect(discord.requests.map((request) => request.status)).toEqual([200, 404, 200]);
    expect(fieldOf(discord.messages.get(second), "Players")).toBe("3/20");
    server.clock.now += 30_000;
    await update({ stats: { players: { online: 4, max: 20 } } });
    await until(() => discord.requests.length === 4 && settled());
    expect(calls().at(-1)).toBe(`PATCH ${second}`);
    expect(await listed(token, serverUuid)).toMatchObject({ state: "active", message_id: second });
  });

  test("a 429 is waited out for its retry_after, and an empty bucket until its reset", async () => {
    await start();
    const { token, serverUuid, update } = await pushedServer();
    await subscribeLive(token, serverUuid, { interval_seconds: 30 });
    await until(() => discord.requests.length === 1 && settled());
    const message = [...discord.messages.keys()][0]!;
    discord.script.push({
      status: 429, json: { message: "You are being rate limited.", retry_after: 5.5, global: false },
      headers: { "Retry-After": "6", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "5.5", "X-RateLimit-Scope": "user" },
    });
    server.clock.now += 30_000;
    await update({ stats: { players: { online: 2, max: 20 } } });
    await until(() => discord.requests.length === 2 && settled());
    expect(discord.requests[1]!.status).toBe(429);
    // The larger of retry_after and Retry-After: 6 s.
    server.clock.now += 5_900;
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(discord.requests).toHaveLength(2);
    expect(await listed(token, serverUuid)).toMatchObject({ state: "active", last_status: 429 });
    server.clock.now += 100;
    await until(() => discord.requests.length === 3 && settled());
    expect(calls().at(-1)).toBe(`PATCH ${message}`);

    // An edit that leaves the bucket empty for 90 s: the next waits for it, past the 30 s interval.
    discord.script.push({ status: 200, json: { id: message }, headers: { "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "90" } });
    server.clock.now += 30_000;
    await update({ stats: { players: { online: 3, max: 20 } } });
    await until(() => discord.requests.length === 4 && settled());
    await update({ stats: { players: { online: 4, max: 20 } } });
    server.clock.now += 89_000;
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(discord.requests).toHaveLength(4);
    server.clock.now += 1_000;
    await until(() => discord.requests.length === 5 && settled());
    expect(fieldOf(discord.requests[4]!.body, "Players")).toBe("4/20");
    expect(discord.violations).toEqual([]);
  });

  test("a global 429 holds every live message of the instance until its retry_after", async () => {
    await start();
    const one = await pushedServer();
    const other = await pushedServer();
    await subscribeLive(one.token, one.serverUuid, { interval_seconds: 30 });
    await until(() => discord.requests.length === 1 && settled());
    await subscribeLive(other.token, other.serverUuid, { interval_seconds: 30 });
    await until(() => discord.requests.length === 2 && settled());
    discord.script.push({ status: 429, json: { message: "You are being rate limited.", retry_after: 10, global: true }, headers: { "Retry-After": "10", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global" } });
    server.clock.now += 30_000;
    await one.update({ stats: { players: { online: 1, max: 20 } } });
    await until(() => discord.requests.length === 3 && settled());
    // The other server's message, due now, waits for the global limit too.
    await other.update({ stats: { players: { online: 2, max: 20 } } });
    server.clock.now += 9_000;
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(discord.requests).toHaveLength(3);
    server.clock.now += 1_000;
    await until(() => discord.requests.length === 5 && settled());
    expect(discord.violations).toEqual([]);
  });

  test("a webhook removed in Discord pauses the subscription: 401 on the post, 404 Unknown Webhook on an edit (no post anew)", async () => {
    await start();
    const first = await pushedServer();
    discord.removeWebhook(401);
    await subscribeLive(first.token, first.serverUuid);
    await until(() => discord.requests.length === 1 && settled());
    expect(await listed(first.token, first.serverUuid)).toMatchObject({ state: "paused", last_status: 401, message_id: null });
    server.clock.now += 3_600_000;
    await first.update({ stats: { players: { online: 1, max: 20 } } });
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(discord.requests).toHaveLength(1);

    await server.close();
    await start();
    const second = await pushedServer();
    await subscribeLive(second.token, second.serverUuid);
    await until(() => discord.requests.length === 1 && settled());
    discord.removeWebhook(404);
    server.clock.now += 60_000;
    await second.update({ stats: { players: { online: 1, max: 20 } } });
    await until(() => discord.requests.length === 2 && settled());
    await Bun.sleep(SEVERAL_SWEEPS_MS);
    expect(calls()).toEqual(["POST", `PATCH ${[...discord.messages.keys()][0]}`]);
    expect(await listed(second.token, second.serverUuid)).toMatchObject({ state: "paused", last_status: 404 });
  });

  test("without PENNANT_PUBLIC_URL it has no link and no image; text from the server cannot format or mention", async () => {
    await start({ PENNANT_PUBLIC_URL: "" });
    const token = server.token("server");
    const serverUuid = newUuid();
    const name = "**@everyone** [free](https://evil.example) <t:0:R> `x` _y_ ~~z~~ > quote\n# big";
    await send({ path: "/api/server/update", token, serverUuid, body: { name, status: "online", stats: { motd: "§c-# tiny ||spoiler||", players: { online: 1, max: 5 } } } });
    await subscribeLive(token, serverUuid);
    await until(() => discord.requests.length === 1 && settled());
    const embed = discord.requests[0]!.body.embeds[0];
    expect(embed.url).toBeUndefined();
    expect(embed.image).toBeUndefined();
    expect(embed.title).toBe(String.raw`\*\*\@everyone\*\* \[free\]\(https\://evil.example\) \<t\:0\:R\> \`x\` \_y\_ \~\~z\~\~ \> quote \# big`);
    expect(embed.description).toBe(String.raw`\-\# tiny \|\|spoiler\|\|`);
    expect(discord.requests[0]!.status).toBe(200);
  });
});

describe("subscribing a live message", () => {
  test("takes a Discord webhook URL and an interval of 30 s or more, no events or grace; anything else is a 400 and stores nothing", async () => {
    await start();
    const { token, serverUuid } = await pushedServer();
    const rows = () => (server.db.$client.query("select count(*) as n from webhooks").get() as { n: number }).n;
    const refusals: Array<[object, string, string]> = [
      [{ url: "https://example.com/api/webhooks/1/abc" }, "refused_url", "Discord webhook URL"],
      [{ url: "https://discord.com/api/channels/1/messages" }, "refused_url", "Discord webhook URL"],
      [{ url: "https://discord.com:8443/api/webhooks/1/abc" }, "refused_url", "Discord webhook URL"],
      [{ url: "http://discord.com/api/webhooks/1/abc" }, "refused_url", "https"],
      [{ url: "https://discord.evil.com/api/webhooks/1/abc" }, "refused_url", "Discord webhook URL"],
      [{ url: `${"https://discord.com/api/webhooks/1/abc"}?redirect=x` }, "refused_url", "thread_id"],
      [{ url: `${"https://discord.com/api/webhooks/1/abc"}?thread_id=x` }, "refused_url", "thread_id"],
      [{ url: discord.webhookUrl, events: ["offline"] }, "invalid_payload", "no events"],
      [{ url: discord.webhookUrl, grace_seconds: 0 }, "invalid_payload", "grace_seconds"],
      [{ url: discord.webhookUrl, interval_seconds: 29 }, "invalid_payload", "from 30"],
      [{ url: discord.webhookUrl, interval_seconds: 30.5 }, "invalid_payload", "whole number"],
      [{ url: discord.webhookUrl, interval_seconds: 86_401 }, "invalid_payload", "86400"],
      [{ url: discord.webhookUrl, interval_seconds: "60" }, "invalid_payload", "interval_seconds"],
    ];
    for (const [body, code, words] of refusals) {
      const response = await subscribeLive(token, serverUuid, body);
      const answer = (await response.json()) as { error: { code: string; message: string } };
      expect(`${JSON.stringify(body)}: ${response.status} ${answer.error.code} ${answer.error.message}`).toContain(`400 ${code}`);
      expect(answer.error.message).toContain(words);
    }
    expect(rows()).toBe(0);
    // The forms Discord's clients copy: the API version, the older host, PTB's, a thread.
    for (const url of [
      discord.webhookUrl.replace("/api/", "/api/v10/"), discord.webhookUrl.replace("discord.com", "discordapp.com"),
      discord.webhookUrl.replace("discord.com", "ptb.discord.com"), `${discord.webhookUrl}?thread_id=1170000000000000002`,
    ]) {
      expect((await subscribeLive(token, serverUuid, { url, interval_seconds: 30 })).status).toBe(201);
    }
    expect(rows()).toBe(4);
    // Events subscriptions take a grace (default 120 s) and no interval.
    const events = { url: "https://example.com/hook", events: ["offline"], format: "json" };
    const withInterval = await send({ path: "/api/server/webhooks", token, serverUuid, body: { ...events, interval_seconds: 60 } });
    expect(withInterval.status).toBe(400);
    const badGrace = await send({ path: "/api/server/webhooks", token, serverUuid, body: { ...events, grace_seconds: -1 } });
    expect(badGrace.status).toBe(400);
    expect(rows()).toBe(4);
  });

  test("posts to the thread the URL names, and edits there", async () => {
    await start();
    const { token, serverUuid, update } = await pushedServer();
    await subscribeLive(token, serverUuid, { url: `${discord.webhookUrl}?thread_id=1170000000000000002`, interval_seconds: 30 });
    await until(() => discord.requests.length === 1 && settled());
    server.clock.now += 30_000;
    await update({ stats: { players: { online: 1, max: 20 } } });
    await until(() => discord.requests.length === 2 && settled());
    expect(discord.requests.map((request) => request.query.get("thread_id"))).toEqual(["1170000000000000002", "1170000000000000002"]);
  });
});
