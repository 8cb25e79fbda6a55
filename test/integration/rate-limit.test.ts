import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";

const PROXY = "10.0.0.1";

for (const storage of ["memory", "database"] as const) {
  describeEachDialect(`rate limiting with ${storage} storage`, (dialect) => {
    let t: TestContext;
    beforeAll(async () => {
      t = await createTestContext({
        dialect,
        env: { AUTH_RATE_LIMIT: "on", AUTH_RATE_LIMIT_STORAGE: storage, AUTH_TRUSTED_PROXIES: PROXY },
      });
    });
    afterAll(() => t.close());

    // A client talking to the daemon directly, and one behind the trusted proxy that names it.
    const from = (ip: string) => t.agent({ from: ip });
    const behindProxy = (forwardedFor: string) => {
      const agent = t.agent({ from: PROXY });
      agent.headers["x-forwarded-for"] = forwardedFor;
      return agent;
    };

    it("allows 3 sign-in attempts per 10 s per client, then answers 429 with X-Retry-After", async () => {
      const agent = from("203.0.113.7");
      const body = { email: "nobody@example.com", password: "wrong-password-1" };
      for (let i = 0; i < 3; i++) expect((await agent.post("/sign-in/email", body)).status).toBe(401);
      const limited = await agent.post("/sign-in/email", body);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        code: "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER",
        message: "Too many requests. Please try again later.",
      });
      expect(Number(limited.headers.get("x-retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get("x-retry-after"))).toBeLessThanOrEqual(10);
      // another client is not affected, and the window reopens after 10 s
      expect((await from("203.0.113.8").post("/sign-in/email", body)).status).toBe(401);
      t.clock.advance(11_000);
      expect((await agent.post("/sign-in/email", body)).status).toBe(401);
    });

    it("counts exactly under concurrent requests", async () => {
      const agent = from("198.51.100.9");
      const results = await Promise.all(
        Array.from({ length: 10 }, () => agent.post("/sign-up/email", { name: "x", email: "bad", password: "x" })),
      );
      expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    });

    it("uses the general 100 per 10 s rule elsewhere and ignores invalid forwarded addresses", async () => {
      const agent = behindProxy("not-an-ip, 192.0.2.44");
      for (let i = 0; i < 100; i++) expect((await agent.get("/ok")).status).toBe(200);
      expect((await agent.get("/ok")).status).toBe(429);
      expect((await behindProxy("192.0.2.45").get("/ok")).status).toBe(200);
    });
  });
}
