import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { liveSignIn, liveSignUp, sessionAddress, WRONG_PASSWORD } from "../helpers/live-auth.ts";
import { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// Which address is the client, over real sockets: clients bound to different loopback addresses are
// different machines. Without trusted proxies the socket address is the client whatever headers say;
// behind trusted proxies X-Forwarded-For is read from the right.

const LIMITED = { AUTH_RATE_LIMIT: "on" };
// Sign-up is not what these tests count; sign-in keeps its built-in 3 per 10 s rule.
const config = { rateLimit: { customRules: { "/sign-up/email": false as const } } };

describe("a daemon with no trusted proxies", () => {
  let authd: RunningAuthd;
  const logLines: string[] = [];
  beforeAll(async () => {
    const logger = createLogger({ level: "debug", format: "json", write: (line) => logLines.push(line) });
    authd = await startAuthd({ env: LIMITED, config, logger });
  });
  afterAll(() => authd.close());

  it("does not let a made-up X-Forwarded-For reset the sign-in limit", async () => {
    const email = "limit-direct@example.com";
    for (let i = 0; i < 3; i += 1)
      expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, { from: "127.0.0.2" })).status).toBe(401);
    for (let i = 0; i < 10; i += 1) {
      const forged = await liveSignIn(authd.url, email, WRONG_PASSWORD, {
        from: "127.0.0.2",
        headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
      });
      expect(forged.status).toBe(429);
      expect(Number(forged.headers["x-retry-after"])).toBeGreaterThanOrEqual(1);
    }
    // Another machine has a counter of its own.
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, { from: "127.0.0.3" })).status).toBe(401);
  });

  it("records the socket address on a session, with or without a forwarded header", async () => {
    const plain = await liveSignUp(authd.url, { from: "127.0.0.4" });
    expect(await sessionAddress(authd.url, plain.response)).toBe("127.0.0.4");
    const forged = await liveSignUp(authd.url, { from: "127.0.0.5", headers: { "x-forwarded-for": "203.0.113.50" } });
    expect(await sessionAddress(authd.url, forged.response)).toBe("127.0.0.5");
  });

  it("warns once that it ignored a forwarded header, naming the peer and AUTH_TRUSTED_PROXIES", async () => {
    await liveSignIn(authd.url, "warn@example.com", WRONG_PASSWORD, {
      from: "127.0.0.6",
      headers: { "x-forwarded-for": "203.0.113.60" },
    });
    await liveSignIn(authd.url, "warn@example.com", WRONG_PASSWORD, {
      from: "127.0.0.7",
      headers: { "x-forwarded-for": "203.0.113.61" },
    });
    const warnings = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => String(entry.message).includes("AUTH_TRUSTED_PROXIES"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].level).toBe("warn");
    // The earlier tests sent the first forwarded header, from 127.0.0.2.
    expect(warnings[0].message).toContain("127.0.0.2");
    expect(warnings[0].peer).toBe("127.0.0.2");
  });
});

describe("a daemon behind trusted proxies", () => {
  let authd: RunningAuthd;
  const edge = { from: "127.0.0.1" };
  const forwarded = (chain: string) => ({ ...edge, headers: { "x-forwarded-for": chain } });
  beforeAll(async () => {
    // The edge proxy by address, an internal tier by range; RFC 7239 Forwarded preferred when present.
    authd = await startAuthd({
      env: {
        ...LIMITED,
        AUTH_TRUSTED_PROXIES: "127.0.0.1, 127.0.1.0/24",
        AUTH_TRUSTED_PROXY_HEADERS: "forwarded,x-forwarded-for",
      },
      config,
    });
  });
  afterAll(() => authd.close());

  it("takes the client from the right of the chain, past trusted hops and forged entries", async () => {
    const cases: [string, string][] = [
      ["203.0.113.9", "203.0.113.9"],
      // The client wrote the left part itself: it proves nothing.
      ["6.6.6.6, 203.0.113.9", "203.0.113.9"],
      // Two proxies: the internal one (trusted by range) appended the edge's peer.
      ["6.6.6.6, 203.0.113.9, 127.0.1.5", "203.0.113.9"],
      // Every hop trusted: the left-most is the client.
      ["127.0.1.7, 127.0.1.5", "127.0.1.7"],
      // A trusted proxy wrote no address: keep the last real hop rather than read the client's part.
      ["6.6.6.6, unknown", "127.0.0.1"],
      // Ports and brackets as some proxies write them.
      ["[2001:db8::5]:4711", "2001:db8::5"],
    ];
    for (const [chain, client] of cases) {
      const { response } = await liveSignUp(authd.url, forwarded(chain));
      expect({ chain, address: await sessionAddress(authd.url, response) }).toEqual({ chain, address: client });
    }
  });

  it("reads the headers of trustedProxyHeaders in order, RFC 7239 for= included", async () => {
    const headers = {
      forwarded: 'for=6.6.6.6, for="[2001:db8::7]:4711";proto=https',
      "x-forwarded-for": "203.0.113.70",
    };
    const both = await liveSignUp(authd.url, { ...edge, headers });
    expect(await sessionAddress(authd.url, both.response)).toBe("2001:db8::7");
    const forgedFromOutside = await liveSignUp(authd.url, { from: "127.0.0.3", headers });
    expect(await sessionAddress(authd.url, forgedFromOutside.response)).toBe("127.0.0.3");
  });

  it("ignores the header from a peer that is not in the list", async () => {
    const { response } = await liveSignUp(authd.url, {
      from: "127.0.0.2",
      headers: { "x-forwarded-for": "203.0.113.10" },
    });
    expect(await sessionAddress(authd.url, response)).toBe("127.0.0.2");
  });

  it("limits each forwarded client on its own, and a forged left part does not escape the limit", async () => {
    const email = "limit-proxied@example.com";
    for (let i = 0; i < 3; i += 1)
      expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("203.0.113.20"))).status).toBe(401);
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("203.0.113.20"))).status).toBe(429);
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("9.9.9.9, 203.0.113.20"))).status).toBe(429);
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("203.0.113.21"))).status).toBe(401);
  });

  it("counts an IPv6 client per /64: new addresses in the same network share the counter", async () => {
    const email = "limit-ipv6@example.com";
    for (const address of ["2001:db8:1:2::a", "2001:db8:1:2::b", "2001:db8:1:2:ffff:ffff:ffff:c"]) {
      expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded(address))).status).toBe(401);
    }
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("2001:db8:1:2::d"))).status).toBe(429);
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, forwarded("2001:db8:1:3::a"))).status).toBe(401);
  });
});

describe("a dual-stack daemon (listening on ::)", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({ host: "::", env: { ...LIMITED, AUTH_TRUSTED_PROXIES: "127.0.0.1" }, config });
  });
  afterAll(() => authd.close());

  it("sees an IPv4 peer (::ffff:a.b.c.d on the socket) as a.b.c.d, also when matching trusted proxies", async () => {
    const direct = await liveSignUp(authd.url, { from: "127.0.0.8" });
    expect(await sessionAddress(authd.url, direct.response)).toBe("127.0.0.8");
    const proxied = await liveSignUp(authd.url, { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.30" } });
    expect(await sessionAddress(authd.url, proxied.response)).toBe("203.0.113.30");
  });

  it("counts ::ffff:a.b.c.d and a.b.c.d as one client", async () => {
    const email = "limit-mapped@example.com";
    for (let i = 0; i < 3; i += 1)
      expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, { from: "127.0.0.9" })).status).toBe(401);
    const viaProxy = { from: "127.0.0.1", headers: { "x-forwarded-for": "127.0.0.9" } };
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, viaProxy)).status).toBe(429);
  });

  it("records an IPv6 peer as such", async () => {
    // The dual-stack daemon's URL is IPv4; call it over IPv6.
    const overIPv6 = `http://[::1]:${authd.port}`;
    const { response } = await liveSignUp(overIPv6, { from: "::1" });
    expect(await sessionAddress(overIPv6, response)).toBe("::1");
  });
});

describe("the IPv6 prefix setting", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({
      env: { ...LIMITED, AUTH_TRUSTED_PROXIES: "127.0.0.1" },
      config: { rateLimit: { ...config.rateLimit, ipv6Subnet: 48 } },
    });
  });
  afterAll(() => authd.close());

  it("groups IPv6 clients by rateLimit.ipv6Subnet bits", async () => {
    const email = "limit-prefix@example.com";
    const from = (address: string) => ({ from: "127.0.0.1", headers: { "x-forwarded-for": address } });
    for (const address of ["2001:db8:1:2::1", "2001:db8:1:3::1", "2001:db8:1:ffff::1"]) {
      expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, from(address))).status).toBe(401);
    }
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, from("2001:db8:1:4::1"))).status).toBe(429);
    expect((await liveSignIn(authd.url, email, WRONG_PASSWORD, from("2001:db8:2::1"))).status).toBe(401);
  });
});
