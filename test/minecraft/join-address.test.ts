// The join address as players type it (src/minecraft/join-address.ts).

import { describe, expect, test } from "bun:test";
import { DEFAULT_PORTS, joinAddress } from "../../src/minecraft/join-address.ts";

describe("joinAddress", () => {
  test.each([
    ["play.example.com", "java", "play.example.com"],
    ["Play.Example.COM", "java", "play.example.com"],
    ["  play.example.com  ", "java", "play.example.com"],
    ["play.example.com:25565", "java", "play.example.com"],
    ["play.example.com:25566", "java", "play.example.com:25566"],
    ["play.example.com:19132", "bedrock", "play.example.com"],
    ["play.example.com:25565", "bedrock", "play.example.com:25565"],
    ["play.example.com.", "java", "play.example.com"],
    ["203.0.113.7", "java", "203.0.113.7"],
    ["203.0.113.7:25570", "java", "203.0.113.7:25570"],
    ["2001:DB8::1", "java", "[2001:db8::1]"],
    ["[2001:db8::1]", "java", "[2001:db8::1]"],
    ["[2001:db8::1]:25565", "java", "[2001:db8::1]"],
    ["[2001:db8::1]:25566", "java", "[2001:db8::1]:25566"],
    ["mc_srv.example.com", "java", "mc_srv.example.com"],
  ] as const)("%p (%s) -> %p", (input, edition, expected) => {
    expect(joinAddress(input, edition)).toBe(expected);
  });

  test.each([
    "", "   ", "https://play.example.com", "play example.com", "play.example.com:0", "play.example.com:65536",
    "play.example.com:port", "play.example.com:", "[2001:db8::1", "[not-v6]:25565", "-bad.example.com", "a/b", "x".repeat(300),
  ])("%p is no address", (input) => {
    expect(joinAddress(input, "java")).toBeNull();
  });

  test("the default ports are the game's", () => {
    expect(DEFAULT_PORTS).toEqual({ java: 25565, bedrock: 19132, hytale: 5520 });
  });
});
