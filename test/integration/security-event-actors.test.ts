import { beforeEach, expect, it } from "vitest";
import { SECURITY_EVENT_TYPES, type SecurityEventType } from "../../src/services/security-event-types.ts";
import { createAdminData } from "../../ui/data.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { bcryptHash } from "../helpers/foreign-hashes.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { codeFlow, registerClient, tokenRequest } from "../helpers/oidc-rp.ts";
import { passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { type CapturedLog, captureLog } from "../helpers/security-log.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { enrol, keyOf, totp } from "../helpers/two-factor.ts";

// Issue 26, item 6: who each security event names as its actor. One case per type of the catalogue
// (SECURITY_EVENT_TYPES, derived from the type list), so a new type without a case fails here. The actor
// is the signed-in user for what a signed-in user does, the administrator, the server or nobody known
// (`anonymous`: a caller not signed in, a challenge not yet passed) otherwise.

interface Actor {
  actorType: "user" | "admin" | "server" | "cli" | "anonymous";
  actorId: string | null;
}

const asUser = (id: string): Actor => ({ actorType: "user", actorId: id });
const SERVER: Actor = { actorType: "server", actorId: null };
const ANONYMOUS: Actor = { actorType: "anonymous", actorId: null };

const CONFIG = {
  twoFactor: { maxFailures: 2 },
  deleteUser: { requireVerification: false },
  organization: { requireEmailVerificationOnInvitation: false },
  oidcProvider: { enabled: true },
};

describeEachDialect("security events: the actor of every type", (dialect) => {
  const log: CapturedLog = captureLog();
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect, logger: log.logger, config: CONFIG }, (ready) => ({ t, mailbox } = ready));
  beforeEach(() => log.clear());

  const user = async () => {
    const signed = await signUp(t);
    await t.ctx.settle();
    return { ...signed, id: signed.user.id as string };
  };
  const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBe(200);

  const enrolled = async () => {
    const u = await user();
    const { key, backupCodes } = await enrol(u.agent, u.password, t.clock.now);
    t.clock.advance(30_000);
    return { ...u, key, backupCodes };
  };
  const challenge = async (email: string, password: string) => {
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", { email, password })).body).toEqual({ twoFactorRedirect: true });
    return agent;
  };
  const organization = async () => {
    const owner = await user();
    const slug = `org-${Math.random().toString(36).slice(2, 10)}`;
    const created = await owner.agent.post("/organization/create", { name: "Actors", slug });
    ok(created);
    return { owner, organizationId: created.body.id as string };
  };
  const withMember = async () => {
    const { owner, organizationId } = await organization();
    const member = await user();
    const added = await t
      .server()
      .post("/organization/add-member", { userId: member.id, role: "member", organizationId });
    ok(added);
    return { owner, organizationId, memberId: added.body.id as string };
  };
  const invitation = async () => {
    const { owner, organizationId } = await organization();
    const invitee = await user();
    const sent = await owner.agent.post("/organization/invite-member", {
      email: invitee.email,
      role: "member",
      organizationId,
    });
    ok(sent);
    return { owner, invitee, invitationId: sent.body.id as string };
  };
  const passkeyUser = async () => {
    const u = await user();
    const authenticator = new SoftAuthenticator();
    ok((await registerPasskey(u.agent, authenticator)).verified);
    return { ...u, authenticator };
  };
  const apiKey = async () => {
    const u = await user();
    const created = await u.agent.post("/api-key/create", { name: "actors" });
    ok(created);
    return { ...u, keyId: created.body.id as string };
  };
  const admin = async () => {
    const a = await user();
    ok(await t.server().post("/admin/set-role", { userId: a.id, role: "admin" }));
    const agent = t.agent();
    ok(await agent.post("/sign-in/email", { email: a.email, password: a.password }));
    return { ...a, agent };
  };
  const verifyLink = async (email: string) => mailedLink(mailbox, email, "verify");

  /** A user through the OpenID Provider's code flow (consent asked) with a refresh token. */
  const relyingParty = async (options: { postLogoutRedirectURIs?: string[] } = {}) => {
    const rp = await registerClient(t, options);
    const u = await user();
    const flow = await codeFlow(t, u.agent, rp, { scope: "openid offline_access" });
    return { rp, u, tokens: flow.tokens };
  };

  /** What to do to cause one event of the type, and the actor it must name. */
  const CASES: Record<SecurityEventType, () => Promise<Actor>> = {
    sign_up: async () => asUser((await user()).id),
    sign_in: async () => {
      const u = await user();
      ok(await t.agent().post("/sign-in/email", { email: u.email, password: u.password }));
      return asUser(u.id);
    },
    sign_out: async () => {
      const u = await user();
      ok(await u.agent.post("/sign-out", {}));
      return asUser(u.id);
    },
    account_throttled: async () => {
      const u = await user();
      for (let i = 0; i < 11; i++) await t.agent().post("/sign-in/email", { email: u.email, password: `wrong-${i}-x` });
      return ANONYMOUS;
    },
    session_revoked: async () => {
      const u = await user();
      ok(await u.agent.post("/revoke-sessions", {}));
      return asUser(u.id);
    },
    password_changed: async () => {
      const u = await user();
      ok(await u.agent.post("/change-password", { currentPassword: u.password, newPassword: "changed-password-1" }));
      return asUser(u.id);
    },
    password_upgraded: async () => {
      const u = await user();
      // An imported user: the credential account holds another system's hash of the same password.
      await t.ctx.db
        .updateTable("account")
        .set({ password: bcryptHash(u.password) })
        .where("userId", "=", u.id)
        .execute();
      ok(await t.agent().post("/sign-in/email", { email: u.email, password: u.password }));
      return asUser(u.id);
    },
    password_reset: async () => {
      const u = await user();
      const seen = mailCount(mailbox, u.email);
      await t.agent().post("/request-password-reset", { email: u.email, redirectTo: "/reset" });
      await t.ctx.settle();
      const token = (await mailedLink(mailbox, u.email, "reset", seen)).pathname.split("/").pop();
      ok(await t.agent().post("/reset-password", { token, newPassword: "reset-password-1" }));
      return asUser(u.id);
    },
    email_change_requested: async () => {
      const u = await user();
      expect((await t.agent().get(pathOf(await verifyLink(u.email)))).status).toBe(302);
      log.clear();
      ok(await u.agent.post("/change-email", { newEmail: `moved.${u.id.slice(0, 8).toLowerCase()}@example.com` }));
      return asUser(u.id);
    },
    email_changed: async () => {
      const u = await user();
      ok(await u.agent.post("/change-email", { newEmail: `direct.${u.id.slice(0, 8).toLowerCase()}@example.com` }));
      return asUser(u.id);
    },
    account_claimed: async () => {
      // The first proof of a never-verified address (here a reset link) claims the account for its owner.
      const u = await user();
      const seen = mailCount(mailbox, u.email);
      await t.agent().post("/request-password-reset", { email: u.email, redirectTo: "/reset" });
      await t.ctx.settle();
      const token = (await mailedLink(mailbox, u.email, "reset", seen)).pathname.split("/").pop();
      log.clear();
      ok(await t.agent().post("/reset-password", { token, newPassword: "claimed-password-1" }));
      return asUser(u.id);
    },
    email_verified: async () => {
      const u = await user();
      expect((await u.agent.get(pathOf(await verifyLink(u.email)))).status).toBe(302);
      return asUser(u.id);
    },
    two_factor_enabled: async () => asUser((await enrolled()).id),
    two_factor_disabled: async () => {
      const u = await enrolled();
      ok(await u.agent.post("/two-factor/disable", { password: u.password }));
      return asUser(u.id);
    },
    two_factor_challenged: async () => {
      const u = await enrolled();
      await challenge(u.email, u.password);
      return ANONYMOUS;
    },
    two_factor_verification: async () => {
      // A signed-in user (enrolled, not yet verified) whose code is wrong.
      const u = await user();
      const enabled = await u.agent.post("/two-factor/enable", { password: u.password });
      const wrong = totp(keyOf(enabled.body.totpURI), t.clock.now - 3_600_000);
      expect((await u.agent.post("/two-factor/verify-totp", { code: wrong })).status).toBe(401);
      return asUser(u.id);
    },
    two_factor_locked: async () => {
      const u = await enrolled();
      const agent = await challenge(u.email, u.password);
      for (let i = 0; i < 2; i++)
        await agent.post("/two-factor/verify-totp", { code: totp(u.key, t.clock.now - 3_600_000) });
      return ANONYMOUS;
    },
    backup_codes_generated: async () => {
      const u = await enrolled();
      ok(await u.agent.post("/two-factor/generate-backup-codes", { password: u.password }));
      return asUser(u.id);
    },
    passkey_added: async () => asUser((await passkeyUser()).id),
    passkey_removed: async () => {
      const u = await passkeyUser();
      const [passkey] = (await u.agent.get("/passkey/list-user-passkeys")).body as { id: string }[];
      ok(await u.agent.post("/passkey/delete-passkey", { id: passkey.id }));
      return asUser(u.id);
    },
    passkey_counter_rollback: async () => {
      const u = await passkeyUser();
      ok((await passkeySignIn(t.agent(), u.authenticator, { counter: 5 })).verified);
      expect((await passkeySignIn(t.agent(), u.authenticator, { counter: 4 })).verified.status).toBe(400);
      return ANONYMOUS;
    },
    user_created: async () => {
      const email = `created.${Math.random().toString(36).slice(2, 10)}@example.com`;
      ok(await t.server().post("/admin/create-user", { email, password: "created-password-1", name: "Created" }));
      return SERVER;
    },
    user_updated: async () => {
      const u = await user();
      ok(await u.agent.post("/update-user", { name: "Renamed" }));
      return asUser(u.id);
    },
    user_deleted: async () => {
      const u = await user();
      ok(await u.agent.post("/delete-user", { password: u.password }));
      return asUser(u.id);
    },
    user_banned: async () => {
      ok(await t.server().post("/admin/ban-user", { userId: (await user()).id }));
      return SERVER;
    },
    user_unbanned: async () => {
      const u = await user();
      ok(await t.server().post("/admin/ban-user", { userId: u.id }));
      log.clear();
      ok(await t.server().post("/admin/unban-user", { userId: u.id }));
      return SERVER;
    },
    role_changed: async () => {
      ok(await t.server().post("/admin/set-role", { userId: (await user()).id, role: "admin" }));
      return SERVER;
    },
    impersonation_started: async () => {
      const a = await admin();
      ok(await a.agent.post("/admin/impersonate-user", { userId: (await user()).id }));
      return { actorType: "admin", actorId: a.id };
    },
    impersonation_stopped: async () => {
      const a = await admin();
      ok(await a.agent.post("/admin/impersonate-user", { userId: (await user()).id }));
      log.clear();
      ok(await a.agent.post("/admin/stop-impersonating", {}));
      return { actorType: "admin", actorId: a.id };
    },
    api_key_created: async () => asUser((await apiKey()).id),
    api_key_deleted: async () => {
      const u = await apiKey();
      ok(await u.agent.post("/api-key/delete", { keyId: u.keyId }));
      return asUser(u.id);
    },
    api_key_updated: async () => {
      const u = await apiKey();
      ok(await u.agent.post("/api-key/update", { keyId: u.keyId, name: "renamed" }));
      return asUser(u.id);
    },
    organization_created: async () => asUser((await organization()).owner.id),
    organization_deleted: async () => {
      const { owner, organizationId } = await organization();
      ok(await owner.agent.post("/organization/delete", { organizationId }));
      return asUser(owner.id);
    },
    member_added: async () => {
      await withMember();
      return SERVER;
    },
    member_removed: async () => {
      const { owner, organizationId, memberId } = await withMember();
      ok(await owner.agent.post("/organization/remove-member", { memberIdOrEmail: memberId, organizationId }));
      return asUser(owner.id);
    },
    member_role_changed: async () => {
      const { owner, organizationId, memberId } = await withMember();
      ok(await owner.agent.post("/organization/update-member-role", { memberId, role: "admin", organizationId }));
      return asUser(owner.id);
    },
    invitation_sent: async () => asUser((await invitation()).owner.id),
    invitation_accepted: async () => {
      const { invitee, invitationId } = await invitation();
      ok(await invitee.agent.post("/organization/accept-invitation", { invitationId }));
      return asUser(invitee.id);
    },
    invitation_rejected: async () => {
      const { invitee, invitationId } = await invitation();
      ok(await invitee.agent.post("/organization/reject-invitation", { invitationId }));
      return asUser(invitee.id);
    },
    invitation_canceled: async () => {
      const { owner, invitationId } = await invitation();
      ok(await owner.agent.post("/organization/cancel-invitation", { invitationId }));
      return asUser(owner.id);
    },
    oidc_consent_granted: async () => asUser((await relyingParty()).u.id),
    oidc_tokens_issued: async () => asUser((await relyingParty()).u.id),
    oidc_tokens_refreshed: async () => {
      const { rp, u, tokens } = await relyingParty();
      ok(await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }));
      return asUser(u.id);
    },
    oidc_tokens_revoked: async () => {
      const { rp, u, tokens } = await relyingParty();
      ok(await tokenRequest(t, rp, { token: tokens.refresh_token }, { path: "/oauth2/revoke" }));
      return asUser(u.id);
    },
    oidc_token_replayed: async () => {
      const { rp, tokens } = await relyingParty();
      ok(await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }));
      log.clear();
      await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
      return ANONYMOUS;
    },
    oidc_logout: async () => {
      const { u, tokens } = await relyingParty();
      const res = await u.agent.get(`/oauth2/end-session?${new URLSearchParams({ id_token_hint: tokens.id_token })}`);
      expect(res.status).toBe(302);
      return asUser(u.id);
    },
    password_reset_requested: async () => {
      const a = await admin();
      const source = { actorType: "admin", actorId: a.id, ip: "192.0.2.7", userAgent: "Console" } as const;
      await createAdminData(t.ctx, source).sendPasswordReset((await user()).id);
      return { actorType: "admin", actorId: a.id };
    },
    oidc_client_created: async () => {
      const a = await admin();
      const body = { client_name: "Actors", redirect_uris: ["https://rp.example.com/callback"] };
      ok(await a.agent.post("/admin/oauth-clients", body));
      return { actorType: "admin", actorId: a.id };
    },
    oidc_client_updated: async () => {
      const { client } = await registerClient(t);
      const a = await admin();
      ok(await a.agent.post(`/admin/oauth-clients/${client.id}`, { client_name: "Renamed" }));
      return { actorType: "admin", actorId: a.id };
    },
    oidc_client_secret_rotated: async () => {
      const { client } = await registerClient(t);
      const a = await admin();
      ok(await a.agent.post(`/admin/oauth-clients/${client.id}/rotate-secret`, {}));
      return { actorType: "admin", actorId: a.id };
    },
    oidc_client_deleted: async () => {
      const { client } = await registerClient(t);
      const a = await admin();
      ok(await a.agent.post(`/admin/oauth-clients/${client.id}/delete`, {}));
      return { actorType: "admin", actorId: a.id };
    },
    webhook_endpoint_changed: async () => {
      const a = await admin();
      // A public address as a literal: the destination rules pass without DNS, and nothing is sent on create.
      ok(await a.agent.post("/admin/webhooks/create", { url: "https://192.0.32.10/hooks", events: ["*"] }));
      return { actorType: "admin", actorId: a.id };
    },
    origin_refused: async () => {
      const res = await t
        .agent()
        .post(
          "/sign-in/email",
          { email: "x@example.com", password: "p" },
          { headers: { origin: "https://evil.example" } },
        );
      expect(res.status).toBe(403);
      return ANONYMOUS;
    },
  };

  for (const type of SECURITY_EVENT_TYPES)
    it(`${type}: names its actor`, async () => {
      const cause = CASES[type];
      expect(cause, `no case for the event type ${type}: add one`).toBeDefined();
      const expected = await cause();
      await t.ctx.settle();
      const events = log.events(type);
      expect(events.length, `${type} was not recorded`).toBeGreaterThan(0);
      for (const event of events) expect({ actorType: event.actorType, actorId: event.actorId }).toEqual(expected);
    });

  it("a signed-in user's two-factor verifications name the user; a challenge's, nobody known yet", async () => {
    const u = await enrolled();
    const wrong = totp(u.key, t.clock.now - 3_600_000);
    for (const path of ["/two-factor/verify-totp", "/two-factor/verify-otp", "/two-factor/verify-backup-code"])
      expect((await u.agent.post(path, { code: wrong })).status).not.toBe(200);
    expect(log.events("two_factor_verification").map((e) => e.actorType)).toEqual(["user", "user", "user"]);
    log.clear();
    const agent = await challenge(u.email, u.password);
    await agent.post("/two-factor/verify-backup-code", { code: "wrong-wrong" });
    expect(log.events("two_factor_verification").map((e) => [e.actorType, e.actorId])).toEqual([["anonymous", null]]);
  });
});
