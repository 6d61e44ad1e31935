// GET /console and its assets over real HTTP: a strict policy (this server's
// stylesheet, script and connections only; images of its own or made by its
// script), not framed, no Referer; and the script's own rules, read from its
// text: it writes no markup (every server text is textContent), keeps the
// token in sessionStorage only, and never puts it in an address.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import script from "../../src/http/console-assets/console.js" with { type: "text" };
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("GET /console", () => {
  test("the page under its policy, with its stylesheet and script from this server only", async () => {
    const response = await fetch(`${server.url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect([response.headers.get("x-frame-options"), response.headers.get("referrer-policy")]).toEqual(["DENY", "no-referrer"]);
    const page = await response.text();
    const assets = [...page.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual([expect.stringMatching(/^data:,$/), expect.stringMatching(/^\/console\/console\.css\?v=\w+$/), expect.stringMatching(/^\/console\/console\.js\?v=\w+$/)]);
    expect(page).not.toContain("<style");
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    for (const asset of assets.slice(1)) {
      const served = await fetch(`${server.url}${asset}`);
      expect([asset, served.status]).toEqual([asset, 200]);
    }
    expect(await (await fetch(`${server.url}${assets[1]}`)).text()).toContain(".pc-mean");
  });

  test("the script writes no markup, keeps tokens in sessionStorage only and signs as docs/signed-api.md says", () => {
    // The code, without its comments (which name what it never does).
    const code = script.replace(/^\s*(\/\/|\/\*\*|\*).*$/gm, "");
    expect(code.match(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|eval\(|new Function/g)).toBeNull();
    expect(code.match(/localStorage|document\.cookie|indexedDB/g)).toBeNull();
    expect(code).toContain("sessionStorage.setItem");
    expect(code).toContain('"X-Signature-Version": "2"');
    expect(code).toContain("`${method} ${target}\\n${timestamp}.${text}`");
  });
});
