// The documents stay short and their links hold (issue 39, points 8 and 9): the
// README within its bound, docs/performance-notes.md within its own, and every
// relative link in README.md and docs/*.md pointing at a file that exists and,
// with a #anchor, at a heading that file has, by GitHub's slug rules.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "../support/process.ts";

/** Lines a document may have at most. */
const BOUNDS: Record<string, number> = {
  "README.md": 400,
  "docs/performance-notes.md": 300,
};

const DOCUMENTS = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** The document's lines outside fenced code blocks. */
function outsideFences(text: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    lines.push(line);
  }
  return lines;
}

/** The document's lines outside fenced code blocks, with inline code spans blanked. */
function prose(text: string): string[] {
  return outsideFences(text).map((line) => line.replace(/(`+)[\s\S]*?\1/g, (span) => " ".repeat(span.length)));
}

/** GitHub's anchor of a heading: lower case, markup and punctuation but hyphens and underscores dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a document's headings have, a repeated one numbered as GitHub numbers it (-1, -2...). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of outsideFences(readFileSync(join(ROOT, file), "utf8"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every relative link of a document: `[text](target)` and `![alt](target)`, outside code. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  for (const line of prose(readFileSync(join(ROOT, file), "utf8"))) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
      links.push(target);
    }
  }
  return links;
}

/** What is wrong with a link from `file`, or null when it holds. */
function broken(file: string, target: string): string | null {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = path === "" ? file : relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path))).split("\\").join("/");
  if (!existsSync(join(ROOT, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined || anchor === "") return null;
  if (!resolved.endsWith(".md")) return `${resolved} is not a document with headings`;
  return anchors(resolved).has(decodeURIComponent(anchor)) ? null : `${resolved} has no heading #${anchor}`;
}

describe("the documents' bounds", () => {
  for (const [file, bound] of Object.entries(BOUNDS)) {
    test(`${file} has at most ${bound} lines`, () => {
      const lines = readFileSync(join(ROOT, file), "utf8").replace(/\n$/, "").split("\n").length;
      expect([file, lines <= bound ? "within" : `${lines} lines`]).toEqual([file, "within"]);
    });
  }
});

describe("every relative link in README.md and docs/ holds", () => {
  for (const file of DOCUMENTS) {
    test(file, () => {
      const faults = relativeLinks(file).flatMap((target) => {
        const fault = broken(file, target);
        return fault === null ? [] : [`${target}: ${fault}`];
      });
      expect(faults).toEqual([]);
    });
  }
});

describe("the slug rules the check uses are GitHub's", () => {
  test("lower case, punctuation and markup dropped, spaces to hyphens, hyphens and underscores kept", () => {
    expect(slug("Draw cost and the draw queue")).toBe("draw-cost-and-the-draw-queue");
    expect(slug("Drawing: fonts and the render engine")).toBe("drawing-fonts-and-the-render-engine");
    expect(slug("More than one box: PostgreSQL, Redis, N instances")).toBe("more-than-one-box-postgresql-redis-n-instances");
    expect(slug("API docs: `/docs` and `/openapi.json`")).toBe("api-docs-docs-and-openapijson");
    expect(slug("Live lookups (`npm run bench:lookup`), 2026-11-22")).toBe("live-lookups-npm-run-benchlookup-2026-11-22");
    expect(slug("One request: `GET /api/banner?server_name=a&template_key=card`")).toBe("one-request-get-apibannerserver_nameatemplate_keycard");
    expect(slug("#### 1. PostgreSQL (14 or newer)".replace(/^#+\s*/, ""))).toBe("1-postgresql-14-or-newer");
  });

  test("a link to a missing file, or to a heading its file lacks, is found", () => {
    expect(broken("README.md", "docs/no-such-page.md")).toBe("docs/no-such-page.md does not exist");
    expect(broken("README.md", "#no-such-heading")).toBe("README.md has no heading #no-such-heading");
    expect(broken("docs/deploy.md", "../README.md#configuration")).toBeNull();
    expect(broken("docs/deploy.md", "#systemd")).toBeNull();
  });
});
