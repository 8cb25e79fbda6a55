import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmailVerificationToken } from "../../src/services/email-verification.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

describeEachDialect("email change", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const freshSession = async (agent: ReturnType<TestContext["agent"]>) =>
    (await agent.get("/get-session", { query: { disableCookieCache: true } })).body;

  /** A signed-up user whose address is verified through the mailed link. */
  async function verifiedUser() {
    const account = await signUp(t);
    await account.agent.get(pathOf(await mailedLink(mailbox, account.email, "verify")));
    expect((await freshSession(account.agent)).user.emailVerified).toBe(true);
    return account;
  }

  it("changes an unverified address at once and mails a verification link to the new one", async () => {
    const { agent, email } = await signUp(t);
    const newEmail = `Changed.${email}`;
    const res = await agent.post("/change-email", { newEmail, callbackURL: "/settings" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect((await agent.get("/get-session")).body.user.email).toBe(newEmail.toLowerCase());

    const link = await mailedLink(mailbox, newEmail.toLowerCase(), "verify");
    expect(link.searchParams.get("callbackURL")).toBe("/settings");
    expect((await agent.get(pathOf(link))).headers.get("location")).toBe("/settings");
    expect(await freshSession(agent)).toMatchObject({ user: { email: newEmail.toLowerCase(), emailVerified: true } });
  });

  it("asks the verified address to confirm, then changes it, unverified, and verifies the new one", async () => {
    const { agent, email } = await verifiedUser();
    const newEmail = `moved.${email}`;
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    expect((await agent.post("/change-email", { newEmail, callbackURL: "/moved" })).body).toEqual({ status: true });
    expect((await freshSession(agent)).user.email).toBe(email);

    const confirm = await mailedLink(mailbox, email, "verify", seen);
    expect(mailbox.to(email)[seen].text).toContain(newEmail);
    // Only the signed-in owner can confirm.
    expect((await t.agent().get(pathOf(confirm))).headers.get("location")).toBe("/moved?error=unauthorized");
    const confirmed = await agent.get(pathOf(confirm));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/moved");
    expect((await agent.get("/get-session")).body.user).toMatchObject({ email: newEmail, emailVerified: false });

    const verify = await mailedLink(mailbox, newEmail, "verify");
    await agent.get(pathOf(verify));
    expect((await freshSession(agent)).user).toMatchObject({ email: newEmail, emailVerified: true });
    // The confirmation link cannot be replayed: the old address no longer exists.
    expect((await agent.get(pathOf(confirm))).headers.get("location")).toBe("/moved?error=user_not_found");
  });

  it("answers JSON with the changed user when the confirmation has no callback", async () => {
    const { agent, email } = await verifiedUser();
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    await agent.post("/change-email", { newEmail: `json.${email}` });
    const confirm = await mailedLink(mailbox, email, "verify", seen);
    confirm.searchParams.delete("callbackURL");
    const res = await agent.get(pathOf(confirm));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, user: { email: `json.${email}`, emailVerified: false } });
  });

  it("refuses the same address, another user's address, an invalid address and an anonymous caller", async () => {
    const { agent, email } = await signUp(t);
    const other = await signUp(t);
    const same = await agent.post("/change-email", { newEmail: email.toUpperCase() });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ code: "EMAIL_IS_THE_SAME", message: "Email is the same" });
    const taken = await agent.post("/change-email", { newEmail: other.email });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ code: "COULDNT_UPDATE_YOUR_EMAIL", message: "Couldn't update your email" });
    const invalid = await agent.post("/change-email", { newEmail: "nope" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
    expect((await t.agent().post("/change-email", { newEmail: "anon@example.com" })).status).toBe(401);
  });

  it("redirects a confirmation whose new address was taken meanwhile with an error", async () => {
    const { agent, email } = await verifiedUser();
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const wanted = `wanted.${email}`;
    await agent.post("/change-email", { newEmail: wanted, callbackURL: "/moved" });
    const confirm = await mailedLink(mailbox, email, "verify", seen);
    await signUp(t, { email: wanted });
    expect((await agent.get(pathOf(confirm))).headers.get("location")).toBe("/moved?error=COULDNT_UPDATE_YOUR_EMAIL");
    expect((await freshSession(agent)).user.email).toBe(email);
  });
});

describe("email change disabled", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_CHANGE_EMAIL: "off" } });
  });
  afterAll(() => t.close());

  it("answers Change email is disabled and voids confirmation links already mailed", async () => {
    const { agent, email } = await signUp(t);
    const res = await agent.post("/change-email", { newEmail: "elsewhere@example.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "CHANGE_EMAIL_IS_DISABLED", message: "Change email is disabled" });
    const token = await createEmailVerificationToken(t.ctx, { email, updateTo: "elsewhere@example.com" });
    const followed = await agent.get(`/api/auth/verify-email?token=${token}&callbackURL=/settings`);
    expect(followed.headers.get("location")).toBe("/settings?error=unauthorized");
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.email).toBe(email);
  });
});
