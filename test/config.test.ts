import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("configuration", () => {
  test("defaults", () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: "0.0.0.0",
      dbPath: "./data/pennant.db",
      clockSkewSeconds: 300,
      legacySignatures: true,
      registration: "closed",
      rateLimit: { count: 120, windowSeconds: 60 },
      trustProxy: false,
      lookupPrivate: false,
    });
  });

  test("reads every variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      PENNANT_DB: "/tmp/x.db",
      PENNANT_CLOCK_SKEW: "30",
      PENNANT_LEGACY_SIGNATURES: "off",
      PENNANT_REGISTRATION: "open",
      PENNANT_RATE_LIMIT: "10/5",
      PENNANT_TRUST_PROXY: "true",
      PENNANT_LOOKUP_PRIVATE: "1",
    });
    expect(config).toEqual({
      port: 9000,
      host: "127.0.0.1",
      dbPath: "/tmp/x.db",
      clockSkewSeconds: 30,
      legacySignatures: false,
      registration: "open",
      rateLimit: { count: 10, windowSeconds: 5 },
      trustProxy: true,
      lookupPrivate: true,
    });
  });

  const invalid: Array<[string, string]> = [
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PENNANT_CLOCK_SKEW", "-5"],
    ["PENNANT_LEGACY_SIGNATURES", "maybe"],
    ["PENNANT_REGISTRATION", "public"],
    ["PENNANT_RATE_LIMIT", "120"],
    ["PENNANT_RATE_LIMIT", "0/60"],
    ["PENNANT_TRUST_PROXY", "2"],
    ["PENNANT_LOOKUP_PRIVATE", "yes please"],
  ];
  for (const [variable, value] of invalid) {
    test(`rejects ${variable}=${value} naming the variable`, () => {
      let caught: unknown;
      try {
        loadConfig({ [variable]: value });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).variable).toBe(variable);
      expect((caught as Error).message).toContain(variable);
    });
  }
});
