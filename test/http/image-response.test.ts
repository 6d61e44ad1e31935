import { describe, expect, test } from "bun:test";
import { imageKey } from "../../src/image-plan.ts";
import { acceptsImage, matchesEtag } from "../../src/http/image-response.ts";

const etag = `"${imageKey(["a", "b"])}"`;
const get = (headers: Record<string, string> = {}) => new Request("http://x/img", { headers });

describe("image answers", () => {
  test("a key is 27 base64url characters and changes with any string of the description or the split between them", () => {
    expect(imageKey(["a", "b"])).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(imageKey(["a", "b"])).toBe(imageKey(["a", "b"]));
    expect(imageKey(["a", "c"])).not.toBe(imageKey(["a", "b"]));
    expect(imageKey(["ab", ""])).not.toBe(imageKey(["a", "b"]));
  });

  test("If-None-Match names the ETag: alone, in a list, weak, or as *", () => {
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) expect(matchesEtag(get({ "If-None-Match": header }), etag)).toBe(true);
    for (const header of [etag.slice(0, -2) + '"', '"stale"', ""]) expect(matchesEtag(get({ "If-None-Match": header }), etag)).toBe(false);
    expect(matchesEtag(get(), etag)).toBe(false);
  });

  test("errors are images for <img> requests and JSON for API clients", () => {
    expect(acceptsImage(get({ Accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8" }))).toBe(true);
    expect(acceptsImage(get({ Accept: "image/*" }))).toBe(true);
    expect(acceptsImage(get({ Accept: "*/*" }))).toBe(false);
    expect(acceptsImage(get({ Accept: "application/json" }))).toBe(false);
    expect(acceptsImage(get())).toBe(false);
  });
});
