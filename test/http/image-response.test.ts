import { describe, expect, test } from "bun:test";
import { acceptsImage, etagOf, imageResponse, matchesEtag, type EncodedImage } from "../../src/http/image-response.ts";

const image: EncodedImage = { bytes: new Uint8Array([1, 2, 3]), contentType: "image/png", etag: etagOf(["a", "b"]) };
const get = (headers: Record<string, string> = {}) => new Request("http://x/img", { headers });

describe("image answers", () => {
  test("an ETag is strong, quoted, and changes with any part or the split between parts", () => {
    expect(image.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf(["a", "b"])).toBe(image.etag);
    expect(etagOf(["a", "c"])).not.toBe(image.etag);
    expect(etagOf(["ab", ""])).not.toBe(image.etag);
  });

  test("If-None-Match with the ETag (in a list, or weak) is a 304 without a body", async () => {
    for (const header of [image.etag, `"other", ${image.etag}`, `W/${image.etag}`, "*"]) {
      const response = imageResponse(get({ "If-None-Match": header }), image, { "Cache-Control": "max-age=60" });
      expect(response.status).toBe(304);
      expect(response.headers.get("etag")).toBe(image.etag);
      expect(response.headers.get("cache-control")).toBe("max-age=60");
      expect((await response.arrayBuffer()).byteLength).toBe(0);
    }
  });

  test("another ETag, or none, gets the image with its type and ETag", async () => {
    for (const request of [get(), get({ "If-None-Match": '"stale"' })]) {
      const response = imageResponse(request, image);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("etag")).toBe(image.etag);
      expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3]);
    }
    expect(matchesEtag(get({ "If-None-Match": image.etag.slice(0, -2) + '"' }), image.etag)).toBe(false);
  });

  test("an error image is never turned into a 304", () => {
    expect(imageResponse(get({ "If-None-Match": image.etag }), image, {}, 404).status).toBe(404);
  });

  test("errors are images for <img> requests and JSON for API clients", () => {
    expect(acceptsImage(get({ Accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8" }))).toBe(true);
    expect(acceptsImage(get({ Accept: "image/*" }))).toBe(true);
    expect(acceptsImage(get({ Accept: "*/*" }))).toBe(false);
    expect(acceptsImage(get({ Accept: "application/json" }))).toBe(false);
    expect(acceptsImage(get())).toBe(false);
  });
});
