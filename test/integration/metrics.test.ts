import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// GET /metrics (Prometheus text) and GET /api/auth/ready.

describeEachDialect("metrics and readiness", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("counts requests by route pattern and status, with latency histograms", async () => {
    const { email, password } = await signUp(t);
    await t.agent().post("/sign-in/email", { email, password });
    await t.agent().post("/sign-in/email", { email, password: "wrong-password-1" });
    await t.agent().get("/no/such/path/abc123");
    const res = await t.agent().get("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain(
      'authd_http_requests_total{route="/api/auth/sign-in/email",method="POST",status="200"} 1',
    );
    expect(res.text).toContain(
      'authd_http_requests_total{route="/api/auth/sign-in/email",method="POST",status="401"} 1',
    );
    expect(res.text).toContain('authd_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(res.text).not.toContain("abc123");
    expect(res.text).toContain(
      'authd_http_request_duration_seconds_bucket{route="/api/auth/sign-in/email",le="+Inf"} 2',
    );
    expect(res.text).toContain('authd_http_request_duration_seconds_count{route="/api/auth/sign-up/email"} 1');
    expect(res.text).toContain('authd_sign_in_total{outcome="success"} 1');
    expect(res.text).toContain('authd_sign_in_total{outcome="failure"} 1');
    expect(res.text).toMatch(/^authd_password_hash_queue_depth 0$/m);
    expect(res.text).toMatch(/^authd_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(res.text).toContain(`authd_db_pool_max ${dialect === "postgres" ? 10 : 1}`);
  });

  it("has cumulative histogram buckets", async () => {
    const text = (await t.agent().get("/metrics")).text;
    const buckets = [
      ...text.matchAll(
        /^authd_http_request_duration_seconds_bucket\{route="\/api\/auth\/sign-in\/email",le="[^"]+"\} (\d+)$/gm,
      ),
    ].map((m) => Number(m[1]));
    expect(buckets.length).toBe(13);
    for (let i = 1; i < buckets.length; i += 1) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]);
  });

  it("answers ready while the database answers", async () => {
    const res = await t.agent().get("/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ready: true, database: true });
  });
});

describe("readiness without a database", () => {
  it("answers 503 once the database is gone, while /ok still answers", async () => {
    const t = await createTestContext();
    try {
      await t.ctx.database.close();
      const res = await t.agent().get("/ready");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { ready: false, database: false } });
      expect((await t.agent().get("/ok")).body).toEqual({ ok: true });
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe("metrics switched off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_METRICS: "off" } });
  });
  afterAll(() => t.close());

  it("answers 404 on /metrics", async () => {
    expect((await t.agent().get("/metrics")).status).toBe(404);
  });
});
