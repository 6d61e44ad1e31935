// The banner query's parameter table (src/http/banner-parameters.ts) against
// everything said to be derived from it, seen from outside: the route's
// schema, /openapi.json, GET /api/templates, the designer page's choices and
// what GET /api/banner accepts and refuses. Every check walks the table, so a
// parameter added to it is checked everywhere without a new test.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BANNER_SIZES } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { THEMES } from "../../src/banner/theme.ts";
import { BANNER_PARAMETERS, type BannerParameter } from "../../src/http/banner-parameters.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

type Json = any;

const TABLE = Object.entries(BANNER_PARAMETERS) as Array<[string, BannerParameter<unknown>]>;
const NAMES = TABLE.map(([name]) => name);
const defaulted = TABLE.filter(([, parameter]) => parameter.default !== undefined);
const choices = TABLE.filter(([, parameter]) => parameter.type.schema.enum !== undefined);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
});
afterAll(async () => {
  await server.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

/** The schema keywords of a parameter as JSON carries them (no undefined, arrays plain). */
const keywords = (parameter: BannerParameter<unknown>) => JSON.parse(JSON.stringify(parameter.type.schema));

describe("the table's own lists are the banner domain's", () => {
  test("template keys, sizes and themes", () => {
    expect(BANNER_PARAMETERS.template_key.type.schema.enum).toEqual([...templates.keys()]);
    expect(BANNER_PARAMETERS.size.type.schema.enum).toEqual(BANNER_SIZES.map((size) => `${size.width}x${size.height}`));
    expect(BANNER_PARAMETERS.theme.type.schema.enum).toEqual(THEMES);
  });
});

describe("derived from the table", () => {
  test("the route's query schema: every parameter, in order, with its type's keywords and description", () => {
    const route = (server.app.routes as Json[]).find((candidate) => candidate.method === "GET" && candidate.path === "/api/banner");
    const properties = route.hooks.query.properties;
    expect(Object.keys(properties)).toEqual(NAMES);
    for (const [name, parameter] of TABLE) {
      expect([name, properties[name]]).toEqual([name, expect.objectContaining({ type: "string", ...keywords(parameter), description: expect.stringContaining(parameter.description) })]);
    }
  });

  test("/openapi.json: every parameter of GET /api/banner, optional, with its choices or bounds, default and readers", async () => {
    const document = await json(await get("/openapi.json"));
    const parameters: Json[] = document.paths["/api/banner"].get.parameters;
    expect(parameters.map((parameter) => parameter.name)).toEqual(NAMES);
    for (const [name, parameter] of TABLE) {
      const documented = parameters.find((candidate) => candidate.name === name);
      expect(documented).toEqual({ name, in: "query", required: false, description: expect.stringContaining(parameter.description), schema: { type: "string", ...keywords(parameter) } });
      if (parameter.type.bounds) expect(documented.description).toContain(parameter.type.bounds);
      if (parameter.default !== undefined) expect(documented.description).toContain(`Default: ${parameter.default}`);
      if (parameter.readBy !== "every") expect(documented.description).toContain(`Read by the ${[parameter.readBy].flat().join(" and ")} templates`);
      if (parameter.onlyWhereUsed !== undefined) expect(documented.description).toContain("Read by the templates that draw it");
    }
  });

  test("GET /api/templates: each template's parameters are those the table says its kind reads (and its drawing uses); themes and default size too", async () => {
    const body = await json(await get("/api/templates"));
    for (const entry of body.templates) {
      const expected = TABLE.filter(([, parameter]) =>
        (parameter.readBy === "every" || [parameter.readBy].flat().includes(entry.kind)) && (parameter.onlyWhereUsed === undefined || entry.uses.includes(parameter.onlyWhereUsed))).map(([name]) => name);
      expect([entry.key, entry.parameters]).toEqual([entry.key, expected]);
      // What it draws from the query is among what it reads.
      expect([entry.key, entry.uses.filter((field: string) => NAMES.includes(field)).every((field: string) => entry.parameters.includes(field))]).toEqual([entry.key, true]);
      expect([...entry.themes].sort()).toEqual([...THEMES].sort());
      expect(entry.themes[0]).toBe(entry.default_theme);
      expect(entry.default_size).toBe(BANNER_PARAMETERS.size.default);
    }
    expect(body.default_template).toBe(BANNER_PARAMETERS.template_key.default);
  });

  test("the designer page embeds each parameter's choices or limit and default, and the template list", async () => {
    const html = await (await get("/")).text();
    const block = JSON.parse(/<script type="application\/json" id="banner-choices">(.*?)<\/script>/s.exec(html)![1]!);
    expect(Object.keys(block.parameters)).toEqual(NAMES);
    for (const [name, parameter] of TABLE) {
      expect([name, block.parameters[name]]).toEqual([name, { ...keywords(parameter), ...(parameter.default === undefined ? {} : { default: parameter.default }) }]);
    }
    expect(block.templates).toEqual(await json(await get("/api/templates")));
  });

  test("the parameter table of docs/banner-parameters.md names every parameter", () => {
    const document = readFileSync(join(import.meta.dir, "..", "..", "docs", "banner-parameters.md"), "utf8");
    const rows = document.split("\n").filter((line) => line.startsWith("| `"));
    for (const name of NAMES) expect([name, rows.some((row) => row.split("|")[1]!.includes(`\`${name}\``))]).toEqual([name, true]);
  });
});

/** A value the type's keywords refuse. */
function badValue(parameter: BannerParameter<unknown>): string {
  const { enum: options, maxLength, pattern, format } = parameter.type.schema;
  if (options) return "not-a-choice";
  if (maxLength !== undefined) return "x".repeat(maxLength + 1);
  if (pattern !== undefined) return "!";
  if (format === "uuid") return "42";
  throw new Error("a parameter type this test cannot break: teach badValue about it");
}

describe("the parser reads what the table says", () => {
  test("a bad value of any parameter is a 400 naming it", async () => {
    for (const [name, parameter] of TABLE) {
      const response = await get(`/api/banner?${name}=${encodeURIComponent(badValue(parameter))}`);
      const body = await json(response);
      expect([name, response.status, body.error.message]).toEqual([name, 400, expect.stringContaining(name)]);
    }
  });

  test("every choice of every parameter is accepted (a refusal, if any, is a rule between parameters)", async () => {
    for (const [name, parameter] of choices) {
      for (const option of parameter.type.schema.enum!) {
        const response = await get(`/api/banner?${name}=${encodeURIComponent(option.toUpperCase())}`);
        const message = response.status === 200 ? "" : (await json(response)).error.message;
        expect([name, option, message]).not.toEqual([name, option, expect.stringMatching(new RegExp(`${name} must be|unknown ${name}`))]);
      }
    }
  });

  test("a parameter given its default draws what leaving it out draws", async () => {
    const etag = async (query: string) => {
      const response = await get(`/api/banner?server_name=Defaults${query}`);
      expect([query, response.status]).toEqual([query, 200]);
      return response.headers.get("etag");
    };
    const plain = await etag("");
    for (const [name, parameter] of defaulted) expect([name, await etag(`&${name}=${parameter.default}`)]).toEqual([name, plain]);
    // And another value draws something else: the default is not merely accepted.
    for (const [name, parameter] of choices.filter(([, parameter]) => parameter.default !== undefined && parameter.readBy === "every")) {
      const other = parameter.type.schema.enum!.find((option) => option !== parameter.default)!;
      expect([name, await etag(`&${name}=${other}`)]).not.toEqual([name, plain]);
    }
  });
});
