import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteIdentifier } from "../../src/services/account-deletion.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import {
  mailCount,
  mailedLink,
  pathOf,
  requestDeletion as requestDeletionOf,
  useMailContext,
} from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

async function rowsOf(t: TestContext, userId: string) {
  const count = async (table: "user" | "session" | "account") => {
    const column = table === "user" ? "id" : "userId";
    return (await t.ctx.db.selectFrom(table).select(column).where(column, "=", userId).execute()).length;
  };
  return { users: await count("user"), sessions: await count("session"), accounts: await count("account") };
}

const GONE = { users: 0, sessions: 0, accounts: 0 };

describeEachDialect("user deletion with mailed confirmation (the default)", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const requestDeletion = (callbackURL?: string) => requestDeletionOf(t, mailbox, callbackURL);

  it("mails a 32-character link, even with the right password, and deletes only when the owner follows it", async () => {
    const { agent, user, link, token } = await requestDeletion("/goodbye");
    expect(token).toMatch(/^[0-9a-z]{32}$/);
    expect(link.pathname).toBe("/api/auth/delete-user/callback");
    const stored = await t.ctx.db
      .selectFrom("verification")
      .select(["value", "expiresAt", "createdAt"])
      .where("identifier", "=", deleteIdentifier(token))
      .executeTakeFirstOrThrow();
    expect(stored.value).toBe(user.id);
    expect(Number(stored.expiresAt) - Number(stored.createdAt)).toBe(86_400 * 1000);
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1 });

    const stranger = await signUp(t);
    const notTheirs = await stranger.agent.get(pathOf(link));
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    const anonymous = await t.agent().get(pathOf(link));
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual({ code: "FAILED_TO_GET_USER_INFO", message: "Failed to get user info" });

    const res = await agent.get(pathOf(link));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/goodbye");
    expect(res.setCookies.some((c) => c.startsWith("better-auth.session_token=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(await rowsOf(t, user.id)).toEqual(GONE);
    expect(await rowsOf(t, stranger.user.id)).toMatchObject({ users: 1 });
  });

  it("deletes with the token in the POST body too, once", async () => {
    const { agent, user, token } = await requestDeletion();
    const res = await agent.post("/delete-user", { token });
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await rowsOf(t, user.id)).toEqual(GONE);
  });

  it("refuses an expired token", async () => {
    const { agent, user, link } = await requestDeletion();
    t.clock.advance(86_401 * 1000);
    const res = await agent.get(pathOf(link));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("INVALID_TOKEN");
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1 });
  });

  it("mails the confirmation to a user who has a password but gave none, and refuses a wrong one", async () => {
    const { agent, password, email, user } = await signUp(t);
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const none = await agent.post("/delete-user", {});
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ success: true, message: "Verification email sent" });
    const link = await mailedLink(mailbox, email, "delete", seen);
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1 });
    const wrong = await agent.post("/delete-user", { password: `${password}x` });
    expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect((await t.agent().post("/delete-user", {})).status).toBe(401);
    // The mailed token deletes only for the signed-in owner: a stranger following it deletes nothing.
    const stranger = await signUp(t);
    expect((await stranger.agent.get(pathOf(link))).status).toBe(404);
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1 });
    await agent.get(pathOf(link));
    expect(await rowsOf(t, user.id)).toEqual(GONE);
  });

  it("mails the link to a user without a password, and refuses a password they do not have", async () => {
    const { agent, email, user } = await signUp(t);
    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    const withPassword = await agent.post("/delete-user", { password: "anything-at-all" });
    expect(withPassword.body).toEqual({
      code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
      message: "Credential account not found",
    });
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    expect((await agent.post("/delete-user", {})).body).toEqual({ success: true, message: "Verification email sent" });
    await agent.get(pathOf(await mailedLink(mailbox, email, "delete", seen)));
    expect(await rowsOf(t, user.id)).toEqual(GONE);
  });
});

describe("user deletion when the confirmation cannot be stored", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("answers 500 Unable to create verification and deletes nothing", async () => {
    const { agent, password, user } = await signUp(t);
    await t.ctx.db.schema.dropTable("verification").execute();
    const res = await agent.post("/delete-user", { password });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: "UNABLE_TO_CREATE_VERIFICATION", message: "Unable to create verification" });
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1, accounts: 1 });
  });
});

describeEachDialect("user deletion without mailed confirmation", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_DELETE_USER_VERIFICATION: "off" } });
  });
  afterAll(() => t.close());

  it("deletes at once with the right password and clears the cookies", async () => {
    const { agent, password, user } = await signUp(t);
    const res = await agent.post("/delete-user", { password });
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(agent.jar.size).toBe(0);
    expect(await rowsOf(t, user.id)).toEqual(GONE);
  });

  it("deletes with a fresh session alone, and refuses a stale one", async () => {
    const fresh = await signUp(t);
    expect((await fresh.agent.post("/delete-user", {})).body).toEqual({ success: true, message: "User deleted" });
    expect(await rowsOf(t, fresh.user.id)).toEqual(GONE);

    const stale = await signUp(t);
    t.clock.advance(86_401 * 1000);
    const res = await stale.agent.post("/delete-user", {});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION",
      message: "Session expired. Re-authenticate to perform this action.",
    });
    expect((await stale.agent.post("/delete-user", { password: stale.password })).body.message).toBe("User deleted");
  });

  it("does not let an API key stand in for a password or a fresh session", async () => {
    const { agent, user } = await signUp(t);
    const created = await agent.post("/api/auth/api-key/create", { name: "ci" });
    expect(created.status).toBe(200);
    const viaKey = await t.agent().post("/delete-user", {}, { headers: { "x-api-key": created.body.key } });
    expect(viaKey.status).toBe(400);
    expect(viaKey.body).toEqual({
      code: "USER_CANNOT_BE_DELETED_PLEASE_PROVIDE_A_PASSWORD_OR_TOKEN",
      message: "User cannot be deleted. please provide a password or token.",
    });
    expect(await rowsOf(t, user.id)).toMatchObject({ users: 1 });
  });
});

describe("user deletion disabled", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_DELETE_USER: "off" } });
  });
  afterAll(() => t.close());

  it("answers 404 on both routes", async () => {
    const { agent, password } = await signUp(t);
    const res = await agent.post("/delete-user", { password });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "NOT_FOUND", message: "Not Found" });
    expect((await agent.get("/delete-user/callback", { query: { token: "x" } })).status).toBe(404);
  });
});
