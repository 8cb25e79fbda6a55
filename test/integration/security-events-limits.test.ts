import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { type LiveCall, livePost, liveSignIn, liveSignUp, WRONG_PASSWORD } from "../helpers/live-auth.ts";
import { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";
import { captureLog, securityLine as line, sourceFields } from "../helpers/security-log.ts";

// Security lines an outsider can cause at will (issue 14, item 15): account-throttle trips and refused
// origins. Each is logged, but at most once per account or origin and minute, with a count of the
// occurrences held back, so that nobody can flood the log with them.

const PASSWORD = "correct-horse-battery-staple";
const MINUTE = 60_000;

describeEachDialect("security log: account-throttle trips", (dialect) => {
  const log = captureLog();
  let t: TestContext;
  beforeAll(async () => {
    // Counters in the database, as several daemons would share them.
    t = await createTestContext({
      dialect,
      logger: log.logger,
      config: { accountThrottle: { maxFailures: 2 }, rateLimit: { storage: "database" } },
    });
  });
  afterAll(() => t.close());
  beforeEach(() => log.clear());

  const signIn = (body: Record<string, string>, from = "198.51.100.30") =>
    t
      .agent({ from })
      .post(body.username ? "/sign-in/username" : "/sign-in/email", { password: WRONG_PASSWORD, ...body });

  it("logs a throttled account once a minute with the user's id, counting the refusals in between", async () => {
    const email = "throttled.sec@example.com";
    const signUp = await t
      .agent()
      .post("/sign-up/email", { name: "T", email, password: PASSWORD, username: "throttled_sec" });
    const userId = signUp.body.user.id;
    expect([(await signIn({ email })).status, (await signIn({ email })).status]).toEqual([401, 401]);
    const refused = await Promise.all(
      ["198.51.100.31", "198.51.100.32", "198.51.100.33"].map((from) => signIn({ email, password: PASSWORD }, from)),
    );
    expect(refused.map((res) => res.status)).toEqual([429, 429, 429]);
    await t.ctx.settle();
    const throttled = log.events("account_throttled");
    expect(throttled).toHaveLength(1);
    expect(throttled[0]).toEqual(
      line("account_throttled", {
        outcome: "failure",
        userId,
        ...sourceFields("anonymous", null, throttled[0].ip, null),
        identifier: "email",
        retryAfter: 900,
        suppressed: 0,
        overflow: false,
      }),
    );
    expect(["198.51.100.31", "198.51.100.32", "198.51.100.33"]).toContain(throttled[0].ip);
    // Every refused attempt is still a failed sign-in of its own.
    expect(log.events("sign_in").filter((event) => event.reason === "throttled")).toHaveLength(3);

    t.clock.advance(MINUTE);
    expect((await signIn({ email })).status).toBe(429);
    await t.ctx.settle();
    expect(log.events("account_throttled")[1]).toMatchObject({
      userId,
      ip: "198.51.100.30",
      suppressed: 2,
      retryAfter: 840,
    });
    log.expectNoSecrets(PASSWORD, WRONG_PASSWORD);
  });

  it("logs throttled usernames and unknown identifiers too, without naming what was submitted", async () => {
    const unknown = "nobody.throttled@example.com";
    for (let i = 0; i < 3; i += 1) await signIn({ email: unknown });
    for (let i = 0; i < 3; i += 1) await signIn({ username: "no_such_name" });
    await t.ctx.settle();
    expect(log.events("account_throttled").map((event) => [event.identifier, event.userId])).toEqual([
      ["email", null],
      ["username", null],
    ]);
    expect(log.lines.join("\n")).not.toContain(unknown);
    expect(log.lines.join("\n")).not.toContain("no_such_name");
  });
});

describe("security log: refused origins", () => {
  const log = captureLog();
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ logger: log.logger });
  });
  afterAll(() => t.close());
  beforeEach(() => log.clear());

  const crossSite = (origin: Record<string, string>, from = "198.51.100.40") =>
    t
      .agent({ from })
      .post(
        "/sign-in/email",
        { email: "victim@example.com", password: PASSWORD },
        { headers: { origin: "", ...origin } },
      );

  it("logs a refused origin once a minute, then with the count of refusals held back; the Referer only by its origin", async () => {
    for (let i = 0; i < 5; i += 1) expect((await crossSite({ origin: "https://evil.example" })).status).toBe(403);
    expect((await crossSite({ referer: "https://other.example/phish?token=s3cr3t-in-referer" })).status).toBe(403);
    expect(log.events("origin_refused")).toEqual([
      {
        ...line("origin_refused", {
          outcome: "failure",
          userId: null,
          ...sourceFields("anonymous", null, "198.51.100.40", null),
          origin: "https://evil.example",
          path: "/sign-in/email",
          setting: "AUTH_TRUSTED_ORIGINS",
          suppressed: 0,
          overflow: false,
        }),
        level: "warn",
      },
      {
        ...line("origin_refused", {
          outcome: "failure",
          userId: null,
          ...sourceFields("anonymous", null, "198.51.100.40", null),
          origin: "https://other.example",
          path: "/sign-in/email",
          setting: "AUTH_TRUSTED_ORIGINS",
          suppressed: 0,
          overflow: false,
        }),
        level: "warn",
      },
    ]);
    t.clock.advance(MINUTE);
    await crossSite({ origin: "https://evil.example" }, "198.51.100.41");
    expect(log.events("origin_refused")[2]).toMatchObject({
      origin: "https://evil.example",
      ip: "198.51.100.41",
      suppressed: 4,
    });
    log.expectNoSecrets(PASSWORD, "s3cr3t-in-referer");
  });

  it("lets no stream of made-up origins flood the log: beyond 100 origins a minute, one shared line", async () => {
    t.clock.advance(MINUTE);
    for (let i = 0; i < 130; i += 1) await crossSite({ origin: `https://flood-${i}.example` });
    const lines = log.events("origin_refused");
    expect(lines).toHaveLength(101);
    expect(lines.filter((event) => event.overflow)).toEqual([
      expect.objectContaining({ origin: "https://flood-100.example", suppressed: 0 }),
    ]);
    t.clock.advance(MINUTE);
    log.clear();
    await crossSite({ origin: "https://flood-0.example" });
    await crossSite({ origin: "https://flood-999.example" });
    expect(log.events("origin_refused").map((event) => [event.origin, event.overflow])).toEqual([
      ["https://flood-0.example", false],
      ["https://flood-999.example", false],
    ]);
  });

  it("logs a cookie-carrying post without any origin as refused from (none), and nothing for a trusted one", async () => {
    const agent = t.agent();
    agent.jar.set("better-auth.session_token", "whatever");
    expect((await agent.post("/sign-out", undefined, { headers: { origin: "" } })).status).toBe(403);
    expect((await agent.post("/sign-out")).status).not.toBe(403);
    expect(log.events("origin_refused").map((event) => [event.origin, event.path])).toEqual([["(none)", "/sign-out"]]);
  });
});

describe("security log over real sockets", () => {
  const log = captureLog();
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd({ logger: log.logger });
  });
  afterAll(() => authd.close());

  const call = (from: string, headers: Record<string, string> = {}): LiveCall => ({
    from,
    headers: { "user-agent": "curl/8.0", ...headers },
  });

  it("names the socket peer as the address, whatever X-Forwarded-For says", async () => {
    const { email } = await liveSignUp(authd.url, call("127.0.0.2"));
    await liveSignIn(authd.url, email, WRONG_PASSWORD, call("127.0.0.3", { "x-forwarded-for": "203.0.113.99" }));
    await livePost(
      authd.url,
      "/sign-in/email",
      { email, password: PASSWORD },
      call("127.0.0.4", { origin: "https://evil.example" }),
    );
    expect(log.events("sign_up").map((event) => [event.ip, event.userAgent])).toEqual([["127.0.0.2", "curl/8.0"]]);
    expect(log.events("sign_in").map((event) => [event.outcome, event.ip])).toEqual([["failure", "127.0.0.3"]]);
    expect(log.events("origin_refused").map((event) => [event.origin, event.ip])).toEqual([
      ["https://evil.example", "127.0.0.4"],
    ]);
  });
});
