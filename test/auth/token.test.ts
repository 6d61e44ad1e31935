import { describe, expect, test } from "bun:test";
import { generateToken, hashToken, sameHash } from "../../src/auth/token.ts";

describe("generateToken", () => {
  test("is pn_ and 256 random bits in base64url, new every time", () => {
    const tokens = new Set(Array.from({ length: 100 }, generateToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^pn_[A-Za-z0-9_-]{43}$/);
  });
});

describe("sameHash", () => {
  test("is true only for the same hash: a different one, a prefix or a longer one is false, never an exception", () => {
    const hash = hashToken("pn_some-token-0123456789");
    expect(sameHash(hash, hashToken("pn_some-token-0123456789"))).toBe(true);
    expect(sameHash(hash, hashToken("pn_some-token-0123456788"))).toBe(false);
    expect(sameHash(hash, hash.slice(0, 63))).toBe(false);
    expect(sameHash(hash, `${hash}0`)).toBe(false);
    expect(sameHash(hash, "")).toBe(false);
  });
});
