import { afterAll, beforeAll, expect, it } from "vitest";
import { createUserWithPassword } from "../../src/cli/commands/create-user.ts";
import { UserError } from "../../src/cli/shared.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";

// One rule for what an email address is and how it is stored (issue 27): sign-up, sign-in, the admin's
// create-user and `authd create-user` accept the same addresses and store them in the same form, so one
// mailbox is one account whichever door it came in by.

describeEachDialect("one email rule for every way in", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  // U+212A KELVIN SIGN lower-cases to an ASCII "k": the address is valid only in its stored form.
  const kelvin = "\u212Aelvin@example.com";

  it("sign-up and the CLI both take an address that is valid once lower-cased, and store the same form", async () => {
    // Given an address whose stored form differs from what was typed
    // When it signs up over HTTP, and an operator creates a user with the same spelling on another domain
    const viaHttp = await t.agent().post("/sign-up/email", { name: "K", email: kelvin, password: "password-123" });
    const viaCli = await createUserWithPassword(t.ctx, {
      email: ` ${kelvin.replace("example.com", "example.org")} `,
      name: "K",
      password: "password-123",
    });

    // Then both accounts exist under the lower-case form, and that form signs in
    expect(viaHttp.status).toBe(200);
    expect(viaHttp.body.user.email).toBe("kelvin@example.com");
    expect(viaCli.email).toBe("kelvin@example.org");
    const signIn = await t.agent().post("/sign-in/email", { email: " KELVIN@example.org ", password: "password-123" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(viaCli.id);
  });

  it("sign-up and the CLI refuse the same malformed address, each in its own words", async () => {
    const viaHttp = await t
      .agent()
      .post("/sign-up/email", { name: "N", email: "not an@address", password: "pw-12345678" });
    expect(viaHttp.status).toBe(400);
    expect(viaHttp.body).toMatchObject({ code: "INVALID_EMAIL", message: "Invalid email" });
    const viaCli = createUserWithPassword(t.ctx, { email: "not an@address", name: "N", password: "pw-12345678" });
    await expect(viaCli).rejects.toThrow(UserError);
    await expect(viaCli).rejects.toThrow("invalid email: not an@address");
  });
});
