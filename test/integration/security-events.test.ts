import { afterEach, beforeEach, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import type { Agent } from "../helpers/agent.ts";
import { expectAuditMatchesLog } from "../helpers/audit.ts";
import { describeEachDialect, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { type CapturedLog, captureLog, securityLine, sourceFields } from "../helpers/security-log.ts";

// The security log (issue 14, item 15) for what users do themselves: one info line per event with who,
// from where and how, and never a password, token, key or cookie. Mail goes to a real SMTP capture, so
// no link is written to the log by the mail fallback.

const UA = "SecurityLogTest/1.0 (like a browser)";
const FROM = "203.0.113.7";
const PASSWORD = "correct-horse-battery-staple";

const line = securityLine;
/** Who acted and from where, as a request by a test client makes it. */
const by = (actorType: string, actorId: string | null, ip: string | null = FROM, userAgent: string | null = UA) =>
  sourceFields(actorType, actorId, ip, userAgent);

describeEachDialect("security log: accounts", (dialect) => {
  const log: CapturedLog = captureLog();
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect, logger: log.logger }, (ready) => ({ t, mailbox } = ready));
  beforeEach(() => log.clear());
  // Issue 21: each line logged is also an audit row with the same facts.
  afterEach(() => expectAuditMatchesLog(t.ctx, log.lines));

  function client(from = FROM): Agent {
    const agent = t.agent({ from });
    agent.headers["user-agent"] = UA;
    return agent;
  }

  async function signUp(fields: Record<string, unknown> = {}) {
    const agent = client();
    const email = `sec.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const res = await agent.post("/sign-up/email", { name: "Sec User", email, password: PASSWORD, ...fields });
    expect(res.status).toBe(200);
    await t.ctx.settle();
    return { agent, email, user: res.body.user as { id: string }, token: res.body.token as string };
  }

  const cookieValues = (agent: Agent) => [...agent.jar.values()];

  it("logs sign-up and sign-ins by email and username, successful or not, without passwords or tokens", async () => {
    const { agent, email, user, token } = await signUp({ username: `sec_${Math.random().toString(36).slice(2, 8)}` });
    const username = (
      await t.ctx.db.selectFrom("user").select("username").where("id", "=", user.id).executeTakeFirstOrThrow()
    ).username as string;
    expect(log.events("sign_up")).toEqual([
      line("sign_up", { outcome: "success", userId: user.id, ...by("user", user.id), method: "email" }),
    ]);

    const byEmail = await client().post("/sign-in/email", { email, password: PASSWORD });
    const byUsername = await client().post("/sign-in/username", { username, password: PASSWORD });
    expect([byEmail.status, byUsername.status]).toEqual([200, 200]);
    expect((await client().post("/sign-in/email", { email, password: "wrong-password-1" })).status).toBe(401);
    expect(
      (await client().post("/sign-in/email", { email: "nobody.here@example.com", password: "wrong-password-2" }))
        .status,
    ).toBe(401);
    expect(
      (await client("198.51.100.9").post("/sign-in/username", { username, password: "wrong-password-3" })).status,
    ).toBe(401);

    expect(log.events("sign_in")).toEqual([
      line("sign_in", { outcome: "success", userId: user.id, ...by("user", user.id), method: "email" }),
      line("sign_in", { outcome: "success", userId: user.id, ...by("user", user.id), method: "username" }),
      line("sign_in", {
        outcome: "failure",
        userId: user.id,
        ...by("anonymous", null),
        method: "email",
        reason: "invalid_credentials",
      }),
      line("sign_in", {
        outcome: "failure",
        userId: null,
        ...by("anonymous", null),
        method: "email",
        reason: "invalid_credentials",
      }),
      line("sign_in", {
        outcome: "failure",
        userId: user.id,
        ...by("anonymous", null, "198.51.100.9"),
        method: "username",
        reason: "invalid_credentials",
      }),
    ]);
    log.expectNoSecrets(
      PASSWORD,
      "wrong-password-1",
      "wrong-password-2",
      "wrong-password-3",
      token,
      byEmail.body.token,
      byUsername.body.token,
      ...cookieValues(agent),
    );
  });

  it("takes the address from the socket, not from a forwarding header an untrusted peer sent", async () => {
    const { email } = await signUp();
    await client("192.0.2.44").post(
      "/sign-in/email",
      { email, password: "wrong-password-4" },
      { headers: { "x-forwarded-for": "198.51.100.200" } },
    );
    expect(log.events("sign_in").map((event) => event.ip)).toEqual(["192.0.2.44"]);
  });

  it("cleans control characters out of the user agent and bounds its length", async () => {
    const { email } = await signUp();
    const agent = client();
    agent.headers["user-agent"] = `evil\tagent\u007f${"x".repeat(1000)}`;
    await agent.post("/sign-in/email", { email, password: "wrong-password-5" });
    const [event] = log.events("sign_in");
    expect(event.userAgent).toBe(`evilagent${"x".repeat(247)}…`);
  });

  it("logs password changes, set-password and resets, without the passwords or the reset token", async () => {
    const { agent, email, user } = await signUp();
    const changed = await agent.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "changed-password-1",
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    expect(log.events("password_changed")).toEqual([
      line("password_changed", {
        outcome: "success",
        userId: user.id,
        ...by("user", user.id),
        method: "change-password",
        revokedOtherSessions: true,
      }),
    ]);

    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    const server = t.server().connectFrom("10.0.0.8");
    expect((await server.post("/set-password", { userId: user.id, newPassword: "set-by-server-1" })).status).toBe(200);
    expect(log.events("password_changed")[1]).toEqual(
      line("password_changed", {
        outcome: "success",
        userId: user.id,
        ...by("server", null, "10.0.0.8", null),
        method: "set-password",
      }),
    );

    // Verified first: a reset link that is the address's first proof also claims the account (account_claimed).
    await updateUser(t.ctx, user.id, { emailVerified: true });
    const seen = mailCount(mailbox, email);
    await client().post("/request-password-reset", { email, redirectTo: "/reset" });
    await t.ctx.settle();
    const resetToken = (await mailedLink(mailbox, email, "reset", seen)).pathname.split("/").pop() as string;
    expect(
      (await client("192.0.2.60").post("/reset-password", { token: resetToken, newPassword: "reset-password-1" }))
        .status,
    ).toBe(200);
    expect(log.events("password_reset")).toEqual([
      line("password_reset", {
        outcome: "success",
        userId: user.id,
        ...by("user", user.id, "192.0.2.60"),
        revokedSessions: false,
      }),
    ]);
    log.expectNoSecrets(
      PASSWORD,
      "changed-password-1",
      "set-by-server-1",
      "reset-password-1",
      resetToken,
      changed.body.token,
      ...cookieValues(agent),
    );
  });

  it("logs email changes (at once and confirmed) and verification, without the links' tokens", async () => {
    const { agent, email, user } = await signUp();
    const verifyLink = await mailedLink(mailbox, email, "verify");
    const verified = await client().get(pathOf(verifyLink));
    expect([verified.status, verified.headers.get("location")]).toEqual([
      302,
      verifyLink.searchParams.get("callbackURL"),
    ]);
    // Replaying the link verifies nothing more, so it logs nothing more.
    await client().get(pathOf(verifyLink));
    expect(log.events("email_verified")).toEqual([
      line("email_verified", { outcome: "success", userId: user.id, ...by("user", user.id), method: "link" }),
    ]);

    const newEmail = `moved.${Math.random().toString(36).slice(2, 8)}@example.com`;
    expect((await agent.post("/change-email", { newEmail })).status).toBe(200);
    expect(log.events("email_change_requested")).toEqual([
      line("email_change_requested", { outcome: "success", userId: user.id, ...by("user", user.id) }),
    ]);
    await t.ctx.settle();
    const confirmLink = await mailedLink(mailbox, email, "verify", 1);
    const confirmed = await agent.get(pathOf(confirmLink));
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([
      302,
      confirmLink.searchParams.get("callbackURL"),
    ]);

    const unverified = await signUp();
    expect(
      (
        await unverified.agent.post("/change-email", {
          newEmail: `direct.${Math.random().toString(36).slice(2, 8)}@example.com`,
        })
      ).status,
    ).toBe(200);
    expect(log.events("email_changed")).toEqual([
      line("email_changed", { outcome: "success", userId: user.id, ...by("user", user.id), method: "confirmed" }),
      line("email_changed", {
        outcome: "success",
        userId: unverified.user.id,
        ...by("user", unverified.user.id),
        method: "unverified-address",
      }),
    ]);
    log.expectNoSecrets(
      verifyLink.searchParams.get("token"),
      confirmLink.searchParams.get("token"),
      ...cookieValues(agent),
    );
  });

  it("logs API keys created, used in the header, refused and deleted, never the key", async () => {
    const { agent, user } = await signUp();
    const created = await agent.post("/api-key/create", { name: "ci" });
    expect(created.status).toBe(200);
    const key = created.body.key as string;
    const keyClient = client("192.0.2.70");
    expect((await keyClient.get("/get-session", { headers: { "x-api-key": key } })).body.user.id).toBe(user.id);
    const forged = `${key.slice(0, -4)}abcd`;
    expect((await keyClient.get("/get-session", { headers: { "x-api-key": forged } })).status).toBe(401);
    expect((await agent.post("/api-key/delete", { keyId: created.body.id })).status).toBe(200);

    expect(log.events("api_key_created")).toEqual([
      line("api_key_created", { outcome: "success", userId: user.id, ...by("user", user.id), keyId: created.body.id }),
    ]);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "success",
        userId: user.id,
        ...by("user", user.id, "192.0.2.70"),
        method: "api-key",
        keyId: created.body.id,
      }),
      line("sign_in", {
        outcome: "failure",
        userId: null,
        ...by("anonymous", null, "192.0.2.70"),
        method: "api-key",
        reason: "key_not_found",
      }),
    ]);
    expect(log.events("api_key_deleted")).toEqual([
      line("api_key_deleted", { outcome: "success", userId: user.id, ...by("user", user.id), keyId: created.body.id }),
    ]);
    log.expectNoSecrets(key, forged, key.slice(6));
  });
});

describeEachDialect("security log: required email verification", (dialect) => {
  const log = captureLog();
  let t: TestContext;
  let mailbox: Mailbox;
  const config = {
    emailAndPassword: { requireEmailVerification: true },
    emailVerification: { autoSignInAfterVerification: true },
  };
  useMailContext({ dialect, logger: log.logger, config }, (ready) => ({ t, mailbox } = ready));

  it("logs the refused sign-in with the user's id and the reason, then the sign-in by the verification link", async () => {
    const email = "unverified.sec@example.com";
    const signUp = await t.agent({ from: FROM }).post("/sign-up/email", { name: "U", email, password: PASSWORD });
    const userId = signUp.body.user.id;
    expect((await t.agent({ from: FROM }).post("/sign-in/email", { email, password: PASSWORD })).status).toBe(403);
    await t.ctx.settle();
    const link = await mailedLink(mailbox, email, "verify");
    const verifier = t.agent({ from: "192.0.2.90" });
    expect((await verifier.get(pathOf(link))).status).toBe(302);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId,
        ...by("anonymous", null, FROM, null),
        method: "email",
        reason: "email_not_verified",
      }),
      line("sign_in", {
        outcome: "success",
        userId,
        ...by("user", userId, "192.0.2.90", null),
        method: "email-verification",
      }),
    ]);
    log.expectNoSecrets(PASSWORD, link.searchParams.get("token"), ...verifier.jar.values());
  });
});
