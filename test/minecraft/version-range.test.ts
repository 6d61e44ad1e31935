import { describe, expect, test } from "bun:test";
import { releaseSpan, versionRange } from "../../src/minecraft/version-range.ts";

describe("a plugin's game versions (versionRange, spec 4.6)", () => {
  test("across minor lines: the lowest and highest line, compared as numbers", () => {
    expect(versionRange(["1.20.4", "1.21", "1.21.1"])).toBe("1.20-1.21");
    // As strings "1.8.8" > "1.21" and "1.9" > "1.10": the range would come out backwards.
    expect(versionRange(["1.21.4", "1.8.8", "1.12.2"])).toBe("1.8-1.21");
    expect(versionRange(["1.10", "1.9"])).toBe("1.9-1.10");
  });

  test("within one line the exact ends; one version as it is", () => {
    expect(versionRange(["1.21.4", "1.21.1", "1.21"])).toBe("1.21-1.21.4");
    expect(versionRange(["1.21.4"])).toBe("1.21.4");
    expect(versionRange(["1.21.4", "1.21.4"])).toBe("1.21.4");
  });

  test("entries that are not versions are skipped; none left is null", () => {
    expect(versionRange(["latest", "24w14a", "1.20.6", "1.21-pre1"])).toBe("1.20-1.21");
    expect(versionRange(["latest"])).toBeNull();
    expect(versionRange([])).toBeNull();
  });
});

describe("a marketplace project's game versions (releaseSpan)", () => {
  test("the lowest and highest release, both exact, compared as numbers", () => {
    expect(releaseSpan(["1.20", "1.20.1", "1.20.4", "1.21", "1.21.4"])).toBe("1.20-1.21.4");
    // As strings "1.8.8" > "1.21" and "1.9" > "1.10": the range would come out backwards.
    expect(releaseSpan(["1.21", "1.8.8", "1.12.2"])).toBe("1.8.8-1.21");
    expect(releaseSpan(["1.10", "1.9"])).toBe("1.9-1.10");
    // Listed in any order, with gaps: the ends only (shields #10346).
    expect(releaseSpan(["1.21.4", "1.17", "1.19"])).toBe("1.17-1.21.4");
  });

  test("one release as it is; repeats once", () => {
    expect(releaseSpan(["1.21.4"])).toBe("1.21.4");
    expect(releaseSpan(["1.21.4", "1.21.4"])).toBe("1.21.4");
  });

  test("snapshots, pre-releases and names are skipped; none left is null", () => {
    expect(releaseSpan(["24w14a", "1.21-pre1", "1.21-rc1", "1.20.6", "1.21", "latest", "1.21.x"])).toBe("1.20.6-1.21");
    expect(releaseSpan(["1.22-pre1"])).toBeNull();
    expect(releaseSpan(["Early Access"])).toBeNull();
    expect(releaseSpan([])).toBeNull();
  });

  test("an entry that is a range counts both its ends (Hangar lists \"1.8-1.21.4\")", () => {
    expect(releaseSpan(["1.8-1.21.4"])).toBe("1.8-1.21.4");
    expect(releaseSpan(["1.20-1.20.6", "1.21.1"])).toBe("1.20-1.21.1");
    expect(releaseSpan(["1.20-pre1"])).toBeNull();
  });
});
