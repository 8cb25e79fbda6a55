import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { enrol } from "../helpers/two-factor.ts";
import { runCli } from "./run.ts";

describeEachDialect("authd users reset-2fa", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
  });
  afterAll(() => t.close());

  it("removes a user's second factor: the password alone signs in again", async () => {
    const { agent, email, password, user } = await signUp(t);
    await enrol(agent, password, t.clock.now);
    expect((await t.agent().post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });

    const result = await runCli(["users", "reset-2fa", "--user", email, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json<Record<string, unknown>>()).toMatchObject({ id: user.id, twoFactorEnabled: false });
    const signIn = await t.agent().post("/sign-in/email", { email, password });
    expect(signIn.body.token).toEqual(expect.any(String));
  });

  it("names the problem for an unknown user and for a missing --user", async () => {
    const unknown = await runCli(["users", "reset-2fa", "--user", "nobody@example.com"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("nobody@example.com");
    const missing = await runCli(["users", "reset-2fa"], { env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("--user");
  });
});
