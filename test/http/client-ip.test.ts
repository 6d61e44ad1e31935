import { describe, expect, test } from "bun:test";
import { clientIp, requestClientIp } from "../../src/http/client-ip.ts";

function request(forwardedFor?: string | string[]): Request {
  const headers = new Headers();
  for (const value of [forwardedFor ?? []].flat()) headers.append("X-Forwarded-For", value);
  return new Request("http://pennant.test/api/lookup", { headers });
}

const SOCKET = "192.0.2.10";

describe("clientIp", () => {
  test("is the socket peer unless PENNANT_TRUST_PROXY is on", () => {
    expect(clientIp(request("198.51.100.1"), SOCKET, false)).toBe(SOCKET);
    expect(clientIp(request(), undefined, false)).toBe("unknown");
  });

  test("behind a proxy, is the right-most X-Forwarded-For entry (the one the proxy appended)", () => {
    expect(clientIp(request("198.51.100.1"), SOCKET, true)).toBe("198.51.100.1");
    expect(clientIp(request("203.0.113.5, 10.0.0.1 ,  198.51.100.1 "), SOCKET, true)).toBe("198.51.100.1");
    expect(clientIp(request(["203.0.113.5", "2001:db8::7"]), SOCKET, true)).toBe("2001:db8::7");
    expect(clientIp(request(), SOCKET, true)).toBe(SOCKET);
  });

  test("behind a proxy, an address of up to 64 characters is used, one of 65 is not", () => {
    const longest = `fe80::1%${"x".repeat(56)}`; // a zone id makes a valid address this long
    expect(longest).toHaveLength(64);
    expect(clientIp(request(longest), SOCKET, true)).toBe(longest);
    expect(clientIp(request(`${longest}x`), SOCKET, true)).toBe(SOCKET);
  });

  const refused: Array<[string, string]> = [
    ["text that is not an address", "198.51.100.1, spoofed"],
    ["nothing after the last comma", "198.51.100.1,"],
    ["an address with a port", "198.51.100.1:4000"],
    ["a bracketed IPv6", "[2001:db8::1]"],
    ["65 characters", `198.51.100.1, ${"a".repeat(65)}`],
    ["an IPv6 with an absurd zone id", `fe80::1%${"x".repeat(80)}`],
    ["a megabyte of text", "9".repeat(1 << 20)],
  ];
  for (const [what, header] of refused) {
    test(`behind a proxy, ${what} as the last entry falls back to the socket address`, () => {
      expect(clientIp(request(header), SOCKET, true)).toBe(SOCKET);
    });
  }
});

describe("requestClientIp", () => {
  test("asks the socket once per request: the log line and the IP budget share the answer", () => {
    let asked = 0;
    const server = { requestIP: () => (asked++, { address: SOCKET }) };
    const first = request();
    expect(requestClientIp(first, server, false)).toBe(SOCKET);
    expect(requestClientIp(first, server, false)).toBe(SOCKET);
    expect(asked).toBe(1);
    expect(requestClientIp(request(), server, false)).toBe(SOCKET);
    expect(asked).toBe(2);
    expect(requestClientIp(request("198.51.100.1"), server, true)).toBe("198.51.100.1");
    expect(requestClientIp(request(), null, false)).toBe("unknown");
  });
});
