import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KEY_CACHE_MS } from "../../src/services/jwt/keys.ts";
import { createTestContext, describeEachDialect, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

describeEachDialect("authd keys (JWT signing keys) beside a running daemon", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
  });
  afterAll(() => t.close());

  const kidOf = (token: string) => decodeProtectedHeader(token).kid;
  const verify = async (token: string) =>
    jwtVerify(token, createLocalJWKSet((await t.agent().get("/jwks")).body), {
      issuer: TEST_ORIGIN,
      audience: TEST_ORIGIN,
      currentDate: new Date(t.clock.now),
    });

  it("rotate makes a new key current; the daemon's old tokens keep verifying and it switches keys", async () => {
    const { agent } = await signUp(t);
    const old = (await agent.get("/token")).body.token as string;

    const rotated = await runCli(["keys", "rotate", "--json"], { env });
    expect(rotated.code, rotated.stderr).toBe(0);
    const answer = rotated.json<{ id: string; alg: string; createdAt: string; retired: string[] }>();
    expect(answer).toEqual({
      id: expect.any(String),
      alg: "EdDSA",
      createdAt: expect.any(String),
      retired: [kidOf(old)],
    });

    const listed = await runCli(["keys", "list", "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const keys = listed.json<{ id: string; expiresAt: string | null }[]>();
    expect(keys.map((k) => k.id)).toEqual([answer.id, kidOf(old)]);
    expect(keys[0].expiresAt).toBeNull();
    expect(Date.parse(keys[1].expiresAt ?? "")).toBeGreaterThan(t.clock.now + 15 * 60_000);
    expect(listed.stdout).not.toContain("privateKey");

    await verify(old);
    t.clock.advance(KEY_CACHE_MS);
    const fresh = (await agent.get("/token")).body.token as string;
    expect(kidOf(fresh)).toBe(answer.id);
    await verify(fresh);
    await verify(old);
  });

  it("list prints a table without --json", async () => {
    const result = await runCli(["keys", "list"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/KID\s+ALG\s+CREATED\s+PUBLISHED UNTIL/);
    expect(result.stdout).toContain("current");
  });
});
