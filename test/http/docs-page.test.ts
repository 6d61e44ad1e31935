// GET /docs works with no internet access: the page is served by Pennant
// itself, references no other host and loads nothing but /openapi.json; its
// Content-Security-Policy lets exactly its own inline script and style run.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let page: string;
let policy: string;
beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.url}/docs`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  policy = response.headers.get("content-security-policy") ?? "";
  page = await response.text();
});
afterAll(async () => {
  await server.close();
});

const EXTERNAL = /\b(?:https?:)?\/\/[a-z0-9.-]+/gi;

test("the page names no other host, and everything it loads is relative to this server", () => {
  expect(page).toContain("<!doctype html>");
  expect(page.match(EXTERNAL)).toBeNull();
  const references = [...page.matchAll(/\b(?:src|href|action)\s*=\s*["']([^"']*)["']/gi)].map((match) => match[1]);
  expect(references).toContain("openapi.json");
  expect(references.filter((reference) => reference !== "openapi.json" && !reference!.startsWith("#"))).toEqual([]);
  const loads = [...page.matchAll(/\b(?:fetch|import|importScripts)\s*\(\s*["']([^"']*)["']/g)].map((match) => match[1]);
  expect(loads).toEqual(["openapi.json"]);
  expect(page).not.toMatch(/<link\b|<img\b|<iframe\b|@import|url\(/i);
});

test("what the page loads, /openapi.json, names no other host either", async () => {
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect((await response.text()).match(EXTERNAL)).toBeNull();
});

test("the policy lets its own inline script and style run, fetches from this server only, and nothing else", () => {
  const digest = (tag: string) => {
    const text = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page)![1]!;
    return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  };
  const directives = Object.fromEntries(policy.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives).toEqual({
    "default-src": ["'none'"],
    "script-src": [digest("script")],
    "style-src": [digest("style")],
    "connect-src": ["'self'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
  });
  expect(page.match(/<script\b/g)).toHaveLength(1);
  expect(page.match(/<style\b/g)).toHaveLength(1);
  expect(page).not.toMatch(/\son[a-z]+\s*=|\sstyle\s*=/i); // inline handlers and style attributes would be blocked
});

test("the page renders the document with textContent only: nothing from it becomes markup", () => {
  expect(page).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
});
