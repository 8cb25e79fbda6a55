import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { enrol, totp } from "../helpers/two-factor.ts";
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

  it("an operator lifts a lock on the second factor: set-password keeps the factor, reset-2fa removes it", async () => {
    const { agent, email, password, user } = await signUp(t);
    const { key } = await enrol(agent, password, t.clock.now);
    t.clock.advance(30_000);
    const lockOut = async (secret: string) => {
      for (let round = 0; round < 2; round++) {
        const challenged = t.agent();
        await challenged.post("/sign-in/email", { email, password: secret });
        for (let i = 0; i < 10; i++)
          await challenged.post("/two-factor/verify-totp", { code: totp(key, t.clock.now - 3_600_000) });
      }
      const challenged = t.agent();
      await challenged.post("/sign-in/email", { email, password: secret });
      expect((await challenged.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) })).status).toBe(429);
    };
    await lockOut(password);

    const newPassword = "set-by-operator-1";
    const set = await runCli(["users", "set-password", email, "--password", newPassword, "--json"], { env });
    expect(set.code, set.stderr).toBe(0);
    const challenged = t.agent();
    expect((await challenged.post("/sign-in/email", { email, password: newPassword })).body).toEqual({
      twoFactorRedirect: true,
    });
    expect((await challenged.post("/two-factor/verify-totp", { code: totp(key, t.clock.now) })).status).toBe(200);

    t.clock.advance(30_000);
    await lockOut(newPassword);
    expect((await runCli(["users", "reset-2fa", "--user", user.id], { env })).code).toBe(0);
    const lock = await t.ctx.db
      .selectFrom("verification")
      .select("id")
      .where("id", "=", `two-factor-lock:${user.id}`)
      .executeTakeFirst();
    expect(lock).toBeUndefined();
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
