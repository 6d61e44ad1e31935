// Mutations of valid requests: the values at the edges of every parser
// (numbers at their limits, unicode, control characters, broken
// percent-encoding, huge values) and the structural changes (parameters or
// keys duplicated, dropped or added, bytes flipped, text cut). Query strings
// and bodies are handled as byte strings: one character per byte (0-255), so
// a mutation can produce any byte sequence, valid UTF-8 or not.

import type { Random } from "./random.ts";

/** A text as its UTF-8 bytes, one character per byte. */
export function utf8Bytes(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

/** Numbers where parsers break: signs, exponents, overflow, 2^53 + 1, other digits. */
export const EDGE_NUMBERS = [
  "0", "-0", "+0", "-1", "1", "NaN", "Infinity", "-Infinity", "1e309", "-1e309", "1e308", "5e-324", "1e-400",
  "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "18446744073709551616",
  "4294967295", "4294967296", "2147483647", "2147483648", "1000000000", "1000000001", "99999", "100000",
  "0.5", "1.5", "19.99", "1e3", "1E3", "0x10", "0o7", "0b1", "1_000", "1,000", "007", " 1", "1 ", "1.", ".5",
  "٣", "１２", "1" + "0".repeat(400),
];

/** Texts where renderers and validators break: empty, prototype names, markup, colour codes, bidi, emoji, controls. */
export const EDGE_TEXTS = [
  "", " ", "  x  ", "null", "true", "false", "undefined", "[]", "{}", "__proto__", "constructor", "prototype",
  "toString", "hasOwnProperty", "../../etc/passwd", "..%2f..%2f", "<script>alert(1)</script>", "\"quoted\"", "'",
  "\\", "§a§lBold§r§", "§", "§§§§", "§x§f§f§0§0§0§0hex", "&#169;", "\u202eevil\u202c", "\u200b\u200d", "中文字",
  "עברית", "😀🎉👨‍👩‍👧", "\u0000", "\t", "\r\n", "\n\n\n", "\u001b[31mred", "\ud800", "\udfff", "\uffff",
  "\ufeffbom", "a\u0301\u0301\u0301", "ﷺ", "A".repeat(64), "A".repeat(65), "W".repeat(129), "W".repeat(513),
  "online", "offline", "ONLINE", "java", "bedrock", "dark", "light", "png", "webp", "2", "468x60", "1200x300",
  "468X60", "468x60x1", "ff8800", "#ff8800", "#FF880080", "fff", "ggg", "localhost", "127.0.0.1", "[::1]:25565",
  "play.example.com:99999", "a..b", "-a.com", "xn--nxasmq6b", "0.0.0.0", "255.255.255.255", "::", "1.2.3.4:0",
];

/** Percent-encoding that is broken, overlong, a lone surrogate, NUL or a line break. */
export const BAD_PERCENT = ["%", "%%", "%z", "%zz", "%0", "%G0", "%E4%B8", "%ED%A0%80", "%C0%AF", "%C0%80", "%FF", "%FE%FF", "%00", "%0A", "%0D%0A", "%25", "%2525", "%u0041", "%%41", "%F0%9F%98"];

/** Percent-encodes every byte that is not unreserved; lone surrogates become U+FFFD as UTF-8 does. */
export function percentEncode(text: string): string {
  return utf8Bytes(text).replace(/[^A-Za-z0-9\-._~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** A printable ASCII byte, now and then a byte above 127, rarely a control byte. */
export function randomByte(random: Random, controls: boolean): string {
  const code = random.weighted<number>([
    [80, 0x21 + random.int(0x5e)],
    [15, 0x80 + random.int(0x80)],
    [controls ? 5 : 0, random.int(0x20)],
  ]);
  return String.fromCharCode(code);
}

/** A value that is no longer valid: an edge number or text, broken encoding, random bytes or a huge run. */
export function hostileValue(random: Random, maxLength: number): string {
  switch (random.int(7)) {
    case 0:
      return utf8Bytes(random.pick(EDGE_NUMBERS));
    case 1:
    case 2:
      return percentEncode(random.pick(EDGE_TEXTS));
    case 3:
      return utf8Bytes(random.pick(EDGE_TEXTS)).replace(/[\x00-\x20#&=%]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
    case 4:
      return random.pick(BAD_PERCENT);
    case 5:
      return Array.from({ length: random.length(40) }, () => randomByte(random, false).replace(/[#&]/, "_")).join("");
    default:
      return random.pick(["a", "9", "%41", "%E4%B8%AD", "§"]).repeat(random.length(maxLength));
  }
}

/**
 * Byte-level damage to a whole byte string: flip, insert, delete, duplicate or
 * cut. With `controls`, control bytes may appear (a request that is then no
 * longer valid HTTP: the transport's own refusal is acceptable).
 */
export function damageBytes(random: Random, text: string, controls: boolean): string {
  const at = random.int(text.length + 1);
  switch (random.int(6)) {
    case 0:
      return text.slice(0, at) + randomByte(random, controls) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + random.pick(["%", "&", "=", "?", "#", "/", "\\", "+", ";", "%00", "&&", "=="]) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + random.int(8));
    case 3: {
      const end = Math.min(text.length, at + 1 + random.int(32));
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    }
    case 4:
      return text.slice(0, at);
    default:
      return text.slice(0, at) + randomByte(random, controls) + text.slice(at);
  }
}

/** One structural or value mutation of a query's parameters (byte strings, not yet joined). */
export function mutateParams(random: Random, params: Array<[string, string]>, knownNames: readonly string[], maxValue: number): void {
  const i = random.int(Math.max(1, params.length));
  switch (random.int(8)) {
    case 0:
    case 1:
      if (params[i]) params[i]![1] = hostileValue(random, maxValue);
      break;
    case 2:
      if (params[i]) params.splice(random.int(params.length + 1), 0, [params[i]![0], random.chance(0.5) ? params[i]![1] : hostileValue(random, 64)]);
      break;
    case 3:
      params.splice(i, 1);
      break;
    case 4:
      params.splice(random.int(params.length + 1), 0, [random.pick(knownNames), hostileValue(random, maxValue)]);
      break;
    case 5:
      params.push([random.pick(["v", "x", "__proto__", "constructor", "", "a[]", "%00", "SERVER_NAME", hostileValue(random, 20)]), hostileValue(random, 64)]);
      break;
    case 6:
      if (params[i]) params[i]![1] = "";
      break;
    default:
      if (params[i]) params[i]![0] = random.pick([params[i]![0].toUpperCase(), `${params[i]![0]}[]`, ` ${params[i]![0]}`, percentEncode(params[i]![0]).replace(/_/g, "%5F"), `${params[i]![0]}\u00a0`]);
  }
}

/** Parameters as a query string; a parameter whose name is "" and value "" is a bare "&". */
export function joinParams(params: ReadonlyArray<[string, string]>, random: Random): string {
  return params.map(([name, value]) => (random.chance(0.03) ? name : `${name}=${value}`)).join("&");
}

/** Random JSON of any shape, for bodies that do not even look like the expected one. */
export function randomJson(random: Random, depth = 0): unknown {
  switch (random.int(depth > 4 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 1e300, -1e-300, 2 ** 53, 42, 1_000_000_001, 20]);
    case 3:
    case 4:
      return random.pick(EDGE_TEXTS);
    case 5:
      return Array.from({ length: random.length(6) }, () => randomJson(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.length(6) }, () => [random.pick(JSON_KEYS), randomJson(random, depth + 1)]),
      );
  }
}

/** Keys the payload readers look for, and some they must not trip over. */
export const JSON_KEYS = [
  "name", "status", "stats", "players", "online", "max", "tps", "motd", "version", "plugin_version", "plugin", "meta",
  "data", "server_name", "online_players", "max_players", "server_version", "tps_1m", "tps_5m", "tps_15m", "uptime",
  "whitelist", "placeholders", "minecraft_versions", "server_software", "alpha", "beta", "gamma", "code", "downloads",
  "stars", "open_issues", "latest_version", "license", "__proto__", "constructor", "prototype", "", "x",
];

/** A marker for a number JSON.stringify cannot write (-0, 1e309, NaN, 2^53 + 1 as written): replaced in the text after. */
const RAW = "\u0001raw:";

export function rawNumber(text: string): string {
  return `${RAW}${text}`;
}

/** JSON text with the raw-number markers put in place. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"]*)"/g, "$1");
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every container in a JSON value, with the value itself first. */
function containers(value: Json, found: Array<Json[] | { [key: string]: Json }> = []): Array<Json[] | { [key: string]: Json }> {
  if (value !== null && typeof value === "object") {
    found.push(value);
    for (const child of Object.values(value)) containers(child, found);
  }
  return found;
}

/** A value for a field: an edge number (raw), an edge text, a wrong type, or something deep. */
function hostileJsonValue(random: Random): Json {
  switch (random.int(6)) {
    case 0:
      return rawNumber(random.pick(EDGE_NUMBERS.filter((n) => /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(n)).concat(["NaN", "-0", "Infinity", "01"])));
    case 1:
      return random.pick(EDGE_TEXTS);
    case 2:
      return random.pick<Json>([null, true, false, [], {}, [1, 2], { a: 1 }, -1, 0, 1e308, -0.000001, 2 ** 53 + 2]);
    case 3:
      return "x".repeat(random.length(70_000));
    case 4: {
      let deep: Json = 1;
      for (let n = random.length(400); n > 0; n--) deep = random.chance(0.5) ? [deep] : { a: deep };
      return deep;
    }
    default:
      return randomJson(random) as Json;
  }
}

/**
 * A mutated copy of a JSON body as text: fields replaced, removed, added or
 * duplicated, and now and then the text itself damaged (invalid JSON or
 * invalid UTF-8). `mutations` is how many changes at most.
 */
export function mutateJson(random: Random, base: unknown, mutations: number): string {
  const value = structuredClone(base) as Json;
  for (let n = 1 + random.int(mutations); n > 0; n--) {
    const targets = containers(value);
    const target = random.pick(targets);
    const keys = Object.keys(target);
    const key = keys.length > 0 ? random.pick(keys) : random.pick(JSON_KEYS);
    const op = random.int(5);
    if (Array.isArray(target)) {
      const i = random.int(target.length + 1);
      if (op === 0) target.splice(i, 1);
      else target.splice(i, 0, hostileJsonValue(random));
    } else if (op === 0) {
      delete target[key];
    } else if (op === 1) {
      Object.defineProperty(target, random.pick(JSON_KEYS), { value: hostileJsonValue(random), enumerable: true, configurable: true, writable: true });
    } else {
      Object.defineProperty(target, key, { value: hostileJsonValue(random), enumerable: true, configurable: true, writable: true });
    }
  }
  let text = utf8Bytes(toJsonText(value));
  if (random.chance(0.1)) {
    // A key written twice: the last one wins in JSON.parse, the first in some other readers.
    const brace = text.indexOf("{");
    if (brace >= 0) text = `${text.slice(0, brace + 1)}"${random.pick(JSON_KEYS)}":${utf8Bytes(toJsonText(hostileJsonValue(random)))},${text.slice(brace + 1)}`;
  }
  if (random.chance(0.15)) text = damageBytes(random, text, true);
  return text;
}
