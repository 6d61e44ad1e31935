import { describe, expect, test } from "bun:test";
import {
  MANY_ISSUES, ageColor, ageText, compactNumber, downloadsColor, issuesColor, licenseBadge, plainNumber, ratingColor, ratingText, softwareList,
  versionColor, versionText,
} from "../../src/badge/value-display.ts";

describe("compact numbers (shields' metric())", () => {
  test.each([
    [0, "0"], [999, "999"], [1000, "1k"], [1049, "1k"], [1050, "1.1k"], [1234, "1.2k"], [9949, "9.9k"], [9999, "10k"],
    [12_345, "12k"], [999_499, "999k"], [999_500, "1M"], [1_500_000, "1.5M"], [2_000_000_000, "2G"],
  ])("%d -> %s", (value, text) => {
    expect(compactNumber(value)).toBe(text);
  });

  test.each([
    [1e-7, "0"], [0.4999, "0"], [0.5, "1"], [-0, "0"], [-1e-7, "0"], [-0.4, "0"], [-3, "-3"], [-1500, "-1.5k"], [9.96, "10"],
    [999.49, "999"], [999.5, "1k"], [1e15, "1P"], [1e15 - 1, "1P"], [2 ** 53, "9P"], [1e21, "1Z"], [999.6e24, "1000Y"], [1e30, "1000000Y"],
  ])("%d -> %s: whole, signed only when not zero, never an exponent", (value, text) => {
    expect(compactNumber(value)).toBe(text);
  });
});

describe("plain numbers (ids sent as numbers)", () => {
  test.each([
    [0, "0"], [-0, "0"], [12345, "12345"], [1e-7, "0.0000001"], [1.5e-7, "0.00000015"], [0.1, "0.1"], [1e15, "1000000000000000"],
    [123.456, "123.456"], [-2.5, "-2.5"],
  ])("%d -> %s", (value, text) => {
    expect(plainNumber(value)).toBe(text);
  });
});

describe("versions", () => {
  test("a v in front of versions starting with a digit, not of others, dates or hashes", () => {
    expect(versionText("3.2.1")).toBe("v3.2.1");
    expect(versionText("v3.2.1")).toBe("v3.2.1");
    expect(versionText("beta-4")).toBe("beta-4");
    expect(versionText("2024-05-01")).toBe("2024-05-01");
    expect(versionText("ab12cd3")).toBe("ab12cd3");
    expect(versionText("1234567")).toBe("v1234567");
  });

  test("orange for 0.x and pre-releases, blue for the rest", () => {
    expect(versionColor("3.2.1")).toBe("blue");
    expect(versionColor("v10.0")).toBe("blue");
    expect(versionColor("0.9.1")).toBe("orange");
    expect(versionColor("v0.1")).toBe("orange");
    expect(versionColor("3.0.0-beta.2")).toBe("orange");
    expect(versionColor("2.1-SNAPSHOT")).toBe("orange");
    expect(versionColor("4.0.0-rc1")).toBe("orange");
  });
});

test("download colours: none red, then yellow, yellowgreen, green, brightgreen at 10, 100, 1000", () => {
  expect([0, 1, 9, 10, 99, 100, 999, 1000, 10 ** 6].map(downloadsColor)).toEqual([
    "red", "yellow", "yellow", "yellowgreen", "yellowgreen", "green", "green", "brightgreen", "brightgreen",
  ]);
});

test("ratings: one decimal out of 5, votes compact; colours by stars", () => {
  expect(ratingText(4.56, 5)).toBe("4.6/5");
  expect(ratingText(4, 5, 1234)).toBe("4.0/5 (1.2k)");
  expect([1.9, 2, 2.9, 3, 3.9, 4, 5].map(ratingColor)).toEqual(["red", "yellow", "yellow", "yellowgreen", "yellowgreen", "brightgreen", "brightgreen"]);
});

test(`issues: greener when few, yellow from ${MANY_ISSUES}`, () => {
  expect([0, 1, 9, 10, MANY_ISSUES - 1, MANY_ISSUES, 500].map(issuesColor)).toEqual([
    "brightgreen", "green", "green", "yellowgreen", "yellowgreen", "yellow", "yellow",
  ]);
});

test("server software: two names, then how many more; duplicates once", () => {
  expect(softwareList(["Paper"])).toBe("Paper");
  expect(softwareList(["Paper", "Folia"])).toBe("Paper/Folia");
  expect(softwareList(["Paper", "Folia", "Purpur", "Spigot"])).toBe("Paper/Folia+2");
  expect(softwareList(["Paper", "paper", " ", "Folia"])).toBe("Paper/Folia");
  expect(softwareList([])).toBeNull();
});

describe("licences", () => {
  test.each([
    ["MIT", "MIT", "green"],
    ["MIT License", "MIT", "green"],
    ["Apache 2.0", "Apache-2.0", "green"],
    ["Apache License 2.0", "Apache-2.0", "green"],
    ["GPL-3.0-or-later", "GPL-3.0", "orange"],
    ["GNU General Public License v3.0", "GPL-3.0", "orange"],
    ["lgpl-3.0-only", "LGPL-3.0", "orange"],
    ["AGPL-3.0", "AGPL-3.0", "orange"],
    ["MPL-2.0", "MPL-2.0", "orange"],
    ["BSD-3-Clause", "BSD-3-Clause", "green"],
    ["The Unlicense", "Unlicense", "#7cd958"],
    ["CC0-1.0", "CC0-1.0", "#7cd958"],
    ["All Rights Reserved", "Custom", "lightgrey"],
    ["NOASSERTION", "Custom", "lightgrey"],
  ])("%s -> %s (%s)", (text, name, color) => {
    expect(licenseBadge(text)).toEqual({ name, color });
  });

  test("'no licence chosen' is no licence", () => {
    expect(licenseBadge("Unspecified")).toBeNull();
    expect(licenseBadge("  ")).toBeNull();
  });
});

test("ages: the largest whole unit, never under a minute; shields' age colours", () => {
  const minute = 60_000, day = 86_400_000;
  expect([0, 59_000, 2 * minute, 59 * minute, 60 * minute, 23 * 60 * minute, day, 2 * day + 1, 29 * day, 30 * day, 364 * day, 365 * day, 800 * day].map(ageText)).toEqual([
    "1 minute ago", "1 minute ago", "2 minutes ago", "59 minutes ago", "1 hour ago", "23 hours ago", "1 day ago", "2 days ago", "29 days ago",
    "1 month ago", "12 months ago", "1 year ago", "2 years ago",
  ]);
  expect([6, 7, 29, 30, 179, 180, 364, 365, 729, 730].map((days) => ageColor(days * day))).toEqual([
    "brightgreen", "green", "green", "yellowgreen", "yellowgreen", "yellow", "yellow", "orange", "orange", "red",
  ]);
});
