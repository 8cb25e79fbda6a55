import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { md5Hex } from "../helpers/foreign-hashes.ts";

// Issue 33's enumeration bound, by the work done rather than by a stopwatch (timings are measured in
// bench/sign-in-timing.ts): a wrong password against an unknown address, a native account and an account
// imported with a weak legacy hash each runs authd's own password check exactly once, so a cheap legacy hash
// does not answer in a millisecond while a native account takes a scrypt.

describeEachDialect("the work of a wrong password, by kind of account", (dialect) => {
  let t: TestContext;
  let nativeChecks = 0;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    // Count authd's own checks (the real ones run; this only counts them).
    const passwords = t.ctx.passwords;
    const verify = passwords.verify.bind(passwords);
    const dummy = passwords.verifyAgainstDummy.bind(passwords);
    passwords.verify = async (...args) => {
      nativeChecks += 1;
      return verify(...args);
    };
    passwords.verifyAgainstDummy = async (...args) => {
      nativeChecks += 1;
      return dummy(...args);
    };
  });
  afterAll(() => t.close());

  const wrongSignIn = async (email: string) => {
    nativeChecks = 0;
    const answer = await t.agent().post("/sign-in/email", { email, password: "not-the-password-1" });
    expect(answer.status).toBe(401);
    return nativeChecks;
  };

  it("runs authd's own check once for an unknown address, a native account and a weak imported hash", async () => {
    const native = await signUp(t, { password: "native-password-1" });
    const imported = await signUp(t, { password: "placeholder-password-1" });
    await t.ctx.db
      .updateTable("account")
      .set({ password: `$md5$${md5Hex("legacy-password")}` })
      .where("userId", "=", imported.user.id)
      .execute();
    expect(await wrongSignIn(`nobody.${dialect}@example.com`)).toBe(1);
    expect(await wrongSignIn(native.email)).toBe(1);
    expect(await wrongSignIn(imported.email)).toBe(1);
    // The right legacy password signs in and pays authd's check as the hash is upgraded.
    const right = await t.agent().post("/sign-in/email", { email: imported.email, password: "legacy-password" });
    expect(right.status).toBe(200);
  });
});
