import { describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { CACHE_SHARES, ConfigError, knownVariables, loadConfig, splitCacheBudget } from "../src/config.ts";

describe("configuration", () => {
  test("defaults", () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: "0.0.0.0",
      dbPath: "./data/pennant.db",
      databaseUrl: null,
      clockSkewSeconds: 300,
      legacySignatures: true,
      registration: "closed",
      rateLimit: { count: 120, windowSeconds: 60 },
      drawBudget: { count: 6000, windowSeconds: 60 },
      drawQueue: { perClient: 16, maxUnits: 4096 },
      pushRateLimit: { count: 1200, windowSeconds: 60 },
      registrationLimit: { count: 10, windowSeconds: 3600 },
      registrationMax: 100,
      maxBytesPerToken: 1_048_576,
      maxServersPerToken: 100,
      maxPluginsPerToken: 50,
      trustProxy: false,
      lookupPrivate: false,
      webhookPrivate: false,
      staleAfterSeconds: 900,
      logLevel: "info",
      logClientIp: true,
      metricsToken: null,
      adminToken: null,
      shutdownTimeoutSeconds: 10,
      cacheBytes: CACHE_SHARES,
      renderThreads: availableParallelism(),
      redisUrl: null,
      publicUrl: null,
      markets: {
        enabled: true,
        urls: {
          modrinth: "https://api.modrinth.com/v2", spigot: "https://api.spiget.org/v2", hangar: "https://hangar.papermc.io/api/v1",
          curseforge: "https://api.cfwidget.com", polymart: "https://api.polymart.org/v1",
        },
      },
    });
  });

  test("reads every variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      PENNANT_DB: "/tmp/x.db",
      PENNANT_DATABASE_URL: "postgresql://pennant:secret@db.internal:5432/pennant",
      PENNANT_CLOCK_SKEW: "30",
      PENNANT_LEGACY_SIGNATURES: "off",
      PENNANT_REGISTRATION: "open",
      PENNANT_RATE_LIMIT: "10/5",
      PENNANT_DRAW_BUDGET: "300/10",
      PENNANT_DRAW_QUEUE_PER_CLIENT: "2",
      PENNANT_DRAW_QUEUE_UNITS: "500",
      PENNANT_PUSH_RATE_LIMIT: "30/10",
      PENNANT_REGISTRATION_LIMIT: "2/86400",
      PENNANT_REGISTRATION_MAX: "40",
      PENNANT_MAX_BYTES_PER_TOKEN: "200000",
      PENNANT_MAX_SERVERS_PER_TOKEN: "7",
      PENNANT_MAX_PLUGINS_PER_TOKEN: "3",
      PENNANT_TRUST_PROXY: "true",
      PENNANT_LOOKUP_PRIVATE: "1",
      PENNANT_WEBHOOK_PRIVATE: "on",
      PENNANT_STALE_AFTER: "600",
      PENNANT_LOG_LEVEL: "DEBUG",
      PENNANT_LOG_CLIENT_IP: "off",
      PENNANT_METRICS_TOKEN: "prometheus-scrape-secret",
      PENNANT_ADMIN_TOKEN: "console-admin-secret-0123",
      PENNANT_SHUTDOWN_TIMEOUT: "30",
      PENNANT_CACHE_MB: "64",
      PENNANT_RENDER_THREADS: "3",
      PENNANT_REDIS_URL: "redis://:secret@cache.internal:6379/2",
      PENNANT_PUBLIC_URL: "https://Status.Example.net/pennant/",
      PENNANT_MARKETS: "off",
      PENNANT_MODRINTH_URL: "https://modrinth.mirror.example/v2/",
      PENNANT_SPIGET_URL: "http://127.0.0.1:8400/v2",
      PENNANT_HANGAR_URL: "http://localhost:8401/api/v1",
      PENNANT_CFWIDGET_URL: "http://[::1]:8402",
      PENNANT_POLYMART_URL: "https://polymart.mirror.example/v1",
    });
    expect(config).toEqual({
      port: 9000,
      host: "127.0.0.1",
      dbPath: "/tmp/x.db",
      databaseUrl: "postgresql://pennant:secret@db.internal:5432/pennant",
      clockSkewSeconds: 30,
      legacySignatures: false,
      registration: "open",
      rateLimit: { count: 10, windowSeconds: 5 },
      drawBudget: { count: 300, windowSeconds: 10 },
      drawQueue: { perClient: 2, maxUnits: 500 },
      pushRateLimit: { count: 30, windowSeconds: 10 },
      registrationLimit: { count: 2, windowSeconds: 86_400 },
      registrationMax: 40,
      maxBytesPerToken: 200_000,
      maxServersPerToken: 7,
      maxPluginsPerToken: 3,
      trustProxy: true,
      lookupPrivate: true,
      webhookPrivate: true,
      staleAfterSeconds: 600,
      logLevel: "debug",
      logClientIp: false,
      metricsToken: "prometheus-scrape-secret",
      adminToken: "console-admin-secret-0123",
      shutdownTimeoutSeconds: 30,
      cacheBytes: splitCacheBudget(64),
      renderThreads: 3,
      redisUrl: "redis://:secret@cache.internal:6379/2",
      publicUrl: "https://status.example.net/pennant",
      markets: {
        enabled: false,
        urls: {
          modrinth: "https://modrinth.mirror.example/v2", spigot: "http://127.0.0.1:8400/v2", hangar: "http://localhost:8401/api/v1",
          curseforge: "http://[::1]:8402", polymart: "https://polymart.mirror.example/v1",
        },
      },
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
    ["PENNANT_PUSH_RATE_LIMIT", "fast"],
    ["PENNANT_REGISTRATION_LIMIT", "10/0"],
    // Below the largest banner's cost: that banner could never be drawn.
    ["PENNANT_DRAW_BUDGET", "205/60"],
    ["PENNANT_DRAW_QUEUE_PER_CLIENT", "0"],
    ["PENNANT_DRAW_QUEUE_UNITS", "0"],
    ["PENNANT_MAX_SERVERS_PER_TOKEN", "0"],
    ["PENNANT_MAX_PLUGINS_PER_TOKEN", "many"],
    ["PENNANT_TRUST_PROXY", "2"],
    ["PENNANT_LOOKUP_PRIVATE", "yes please"],
    ["PENNANT_STALE_AFTER", "5"],
    ["PENNANT_LOG_LEVEL", "verbose"],
    ["PENNANT_LOG_CLIENT_IP", "hashed"],
    ["PENNANT_METRICS_TOKEN", "short"],
    ["PENNANT_METRICS_TOKEN", "has spaces in the middle of it"],
    ["PENNANT_ADMIN_TOKEN", "too-short"],
    ["PENNANT_SHUTDOWN_TIMEOUT", "0"],
    ["PENNANT_DATABASE_URL", "mysql://pennant:secret@db:3306/pennant"],
    ["PENNANT_DATABASE_URL", "db.internal:5432"],
    ["PENNANT_DATABASE_URL", "postgres://"],
    ["PENNANT_REDIS_URL", "localhost:6379"],
    ["PENNANT_REDIS_URL", "postgres://db:5432/pennant"],
    ["PENNANT_REDIS_URL", "redis://"],
    ["PENNANT_PUBLIC_URL", "status.example.net"],
    ["PENNANT_PUBLIC_URL", "ftp://status.example.net"],
    ["PENNANT_PUBLIC_URL", "https://status.example.net/?page=1"],
    ["PENNANT_PUBLIC_URL", "https://status.example.net/#top"],
    ["PENNANT_PUBLIC_URL", "https://user:secret@status.example.net"],
    ["PENNANT_MARKETS", "sometimes"],
    // Plain HTTP only on this host: elsewhere anyone on the way could change what a badge says.
    ["PENNANT_MODRINTH_URL", "http://modrinth.mirror.example/v2"],
    ["PENNANT_SPIGET_URL", "api.spiget.org/v2"],
    ["PENNANT_HANGAR_URL", "https://hangar.papermc.io/api/v1?x=1"],
    ["PENNANT_CFWIDGET_URL", "https://user:secret@api.cfwidget.com"],
    ["PENNANT_POLYMART_URL", "ftp://api.polymart.org/v1"],
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

  test("a PostgreSQL URL it refuses is not repeated: its password would reach the terminal and the logs", () => {
    expect(() => loadConfig({ PENNANT_DATABASE_URL: "mysql://pennant:hunter2@db/pennant" })).toThrow(
      new ConfigError("PENNANT_DATABASE_URL", "expected a PostgreSQL URL, postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://)"),
    );
  });
});

describe("known variables", () => {
  test("every variable loadConfig reads is known, and PENNANT_DEBUG", () => {
    const known = knownVariables();
    expect(known).toContain("PORT");
    expect(known).toContain("PENNANT_RATE_LIMIT");
    expect(known).toContain("PENNANT_SHUTDOWN_TIMEOUT");
    expect(known).toContain("PENNANT_DEBUG");
  });
});
