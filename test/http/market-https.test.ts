// The sites are asked over HTTPS, their certificates checked: `serve` runs as
// its own process so that it trusts the test's certificate the way a
// deployment trusts a public one (NODE_EXTRA_CA_CERTS is read when a process
// starts); without that trust the same stand-in is "unavailable".

import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../support/cleanup.ts";
import { startMarketPeers } from "../support/market-peers.ts";
import { startServe } from "../support/process.ts";
import { json } from "../support/signing.ts";

function certificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem"), key = join(dir, "key.pem");
  const made = Bun.spawnSync([
    "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
  ], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
  return { cert, key };
}

test("a badge read over HTTPS from a site whose certificate is trusted; the same site untrusted is unavailable", async () => {
  const dir = tempDir("market-tls");
  const tls = certificate(dir);
  const peers = startMarketPeers(tls);
  expect(peers.urls.modrinth).toStartWith("https://localhost:");
  const badge = "/shields/modrinth/sodium/downloads.json";

  const trusting = await startServe({ ...peers.env, PENNANT_DB: join(dir, "trusting.db"), NODE_EXTRA_CA_CERTS: tls.cert });
  expect(await json(await fetch(trusting.url + badge))).toMatchObject({ label: "downloads", message: "51M" });
  expect(peers.requests.modrinth.length).toBe(3);

  const doubting = await startServe({ ...peers.env, PENNANT_DB: join(dir, "doubting.db") });
  expect(await json(await fetch(doubting.url + badge))).toMatchObject({ label: "downloads", message: "unavailable" });
  // The handshake failed: no request reached the site.
  expect(peers.requests.modrinth.length).toBe(3);
}, 60_000);
