import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Mailbox, startMailbox, verifyThroughMail } from "../helpers/mailbox.ts";
import { activeOrganizationId, memberOf, ownerWithOrganization } from "../helpers/organization.ts";

// With the pages on (the default), the mail links to authd's invitation page; test/integration/invitation-page.test.ts
// shows the link without them.
const ACCEPT_LINK = /http:\/\/localhost:3000\/account\/invitation\/([A-Za-z0-9]+)/;

describeEachDialect("organization invitations", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await createTestContext({ dialect, env: { AUTH_SMTP_URL: mailbox.url } });
  });
  afterAll(async () => {
    await t.close();
    await mailbox.close();
  });

  /** Signs up and follows the mailed verification link, as the real owner of the address does. */
  async function verifiedSignUp() {
    const user = await signUp(t);
    await verifyThroughMail(mailbox, user.agent, user.email);
    expect((await user.agent.get("/get-session")).body.user.emailVerified).toBe(true);
    return user;
  }

  /** Owner invites a fresh address; the invitee signs up, verifies it and reads the id from the mailed accept link. */
  async function invited(role: string | string[] = "member") {
    const owner = await ownerWithOrganization(t);
    const invitee = await verifiedSignUp();
    const res = await owner.agent.post("/organization/invite-member", { email: invitee.email.toUpperCase(), role });
    expect(res.status, res.text).toBe(200);
    const mail = await mailbox.waitFor(invitee.email, ACCEPT_LINK);
    return { owner, invitee, invitation: res.body, linkId: mail.match[1], mail };
  }

  describe("POST /organization/invite-member", () => {
    it("creates a pending invitation with a lower-cased email and mails the accept link", async () => {
      const { owner, invitee, invitation, linkId, mail } = await invited();
      expect(invitation).toMatchObject({
        email: invitee.email,
        role: "member",
        status: "pending",
        organizationId: owner.organization.id,
        inviterId: owner.user.id,
      });
      expect(Date.parse(invitation.expiresAt) - t.clock.now).toBe(172_800_000);
      expect(linkId).toBe(invitation.id);
      expect(mail.text).toContain(owner.organization.name);
    });

    it("refuses duplicates unless resent, existing members, members without the right, and owner roles from admins", async () => {
      const { owner, invitee } = await invited();
      const again = await owner.agent.post("/organization/invite-member", { email: invitee.email, role: "member" });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        message: "User is already invited to this organization",
      });
      const resent = await owner.agent.post("/organization/invite-member", {
        email: invitee.email,
        role: "member",
        resend: true,
      });
      expect(resent.status).toBe(200);

      const admin = await memberOf(t, owner.organization.id, "admin");
      const existing = await owner.agent.post("/organization/invite-member", { email: admin.email, role: "member" });
      expect(existing.body.code).toBe("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      const ownerByAdmin = await admin.agent.post("/organization/invite-member", {
        email: "boss@example.com",
        role: "owner",
      });
      expect(ownerByAdmin.status).toBe(403);
      expect(ownerByAdmin.body.message).toBe("you are not allowed to invite user with this role");
      expect(
        (await admin.agent.post("/organization/invite-member", { email: "helper@example.com", role: "member" })).status,
      ).toBe(200);

      const member = await memberOf(t, owner.organization.id, "member");
      const byMember = await member.agent.post("/organization/invite-member", {
        email: "x@example.com",
        role: "member",
      });
      expect(byMember.status).toBe(403);
      expect(byMember.body.message).toBe("You are not allowed to invite users to this organization");
      const outsider = await signUp(t);
      const byOutsider = await outsider.agent.post("/organization/invite-member", {
        email: "x@example.com",
        role: "member",
        organizationId: owner.organization.id,
      });
      expect(byOutsider.body.code).toBe("MEMBER_NOT_FOUND");
      expect(
        (await outsider.agent.post("/organization/invite-member", { email: "x@example.com", role: "member" })).body
          .code,
      ).toBe("ORGANIZATION_NOT_FOUND");
      expect(
        (await owner.agent.post("/organization/invite-member", { email: "not-an-email", role: "member" })).status,
      ).toBe(400);
    });
  });

  describe("accept, reject and cancel", () => {
    it("accepting creates the member with the invited roles and activates the organization", async () => {
      const { owner, invitee, linkId } = await invited(["admin", "member"]);
      const res = await invitee.agent.post("/organization/accept-invitation", { invitationId: linkId });
      expect(res.status).toBe(200);
      expect(res.body.invitation).toMatchObject({ id: linkId, status: "accepted" });
      expect(res.body.member).toMatchObject({
        userId: invitee.user.id,
        organizationId: owner.organization.id,
        role: "admin,member",
      });
      expect(await activeOrganizationId(invitee.agent)).toBe(owner.organization.id);
      expect((await invitee.agent.get("/get-session")).body.session.activeOrganizationId).toBe(owner.organization.id);
      const twice = await invitee.agent.post("/organization/accept-invitation", { invitationId: linkId });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found" });
    });

    it("only the recipient may accept, reject or read it, and expired invitations are not pending", async () => {
      const { invitee, linkId, owner } = await invited();
      const stranger = await signUp(t);
      for (const path of ["/organization/accept-invitation", "/organization/reject-invitation"]) {
        const res = await stranger.agent.post(path, { invitationId: linkId });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
          message: "You are not the recipient of the invitation",
        });
      }
      expect((await stranger.agent.get("/organization/get-invitation", { query: { id: linkId } })).status).toBe(403);
      const anonymous = await t.agent().get("/organization/get-invitation", { query: { id: linkId } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ code: "NOT_AUTHENTICATED", message: "Not authenticated" });
      const noId = await invitee.agent.get("/organization/get-invitation");
      expect(noId.status).toBe(400);
      expect(noId.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid query parameters" });
      const anonymousNoId = await t.agent().get("/organization/get-invitation");
      expect(anonymousNoId.status).toBe(400);
      expect(anonymousNoId.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid query parameters" });

      const view = await invitee.agent.get("/organization/get-invitation", { query: { id: linkId } });
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        id: linkId,
        status: "pending",
        organizationName: owner.organization.name,
        organizationSlug: owner.organization.slug,
        inviterEmail: owner.email,
      });

      t.clock.advance(172_800_001);
      try {
        expect((await invitee.agent.post("/organization/accept-invitation", { invitationId: linkId })).body.code).toBe(
          "INVITATION_NOT_FOUND",
        );
        expect((await invitee.agent.get("/organization/get-invitation", { query: { id: linkId } })).body.code).toBe(
          "INVITATION_NOT_FOUND",
        );
      } finally {
        t.clock.advance(-172_800_001);
      }
    });

    it("get-invitation says when the inviter has left", async () => {
      const { owner, invitee } = await invited();
      const admin = await memberOf(t, owner.organization.id, "admin");
      const res = await admin.agent.post("/organization/invite-member", {
        email: invitee.email,
        role: "member",
        organizationId: owner.organization.id,
        resend: true,
      });
      await admin.agent.post("/organization/leave", { organizationId: owner.organization.id });
      const view = await invitee.agent.get("/organization/get-invitation", { query: { id: res.body.id } });
      expect(view.status).toBe(400);
      expect(view.body).toEqual({
        code: "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
        message: "Inviter is no longer a member of the organization",
      });
    });

    it("rejecting answers the invitation and a null member", async () => {
      const { invitee, linkId } = await invited();
      const res = await invitee.agent.post("/organization/reject-invitation", { invitationId: linkId });
      expect(res.status).toBe(200);
      expect(res.body.member).toBeNull();
      expect(res.body.invitation).toMatchObject({ id: linkId, status: "rejected" });
      expect((await invitee.agent.post("/organization/accept-invitation", { invitationId: linkId })).body.code).toBe(
        "INVITATION_NOT_FOUND",
      );
      expect((await invitee.agent.post("/organization/reject-invitation", {})).body).toMatchObject({
        code: "VALIDATION_ERROR",
        message: "invitationId is required",
      });
    });

    it("owners and admins cancel; members and outsiders cannot", async () => {
      const { owner, invitee, linkId } = await invited();
      const member = await memberOf(t, owner.organization.id, "member");
      const byMember = await member.agent.post("/organization/cancel-invitation", { invitationId: linkId });
      expect(byMember.status).toBe(403);
      expect(byMember.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
        message: "You are not allowed to cancel this invitation",
      });
      expect((await invitee.agent.post("/organization/cancel-invitation", { invitationId: linkId })).body.code).toBe(
        "MEMBER_NOT_FOUND",
      );
      const admin = await memberOf(t, owner.organization.id, "admin");
      const canceled = await admin.agent.post("/organization/cancel-invitation", { invitationId: linkId });
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ id: linkId, status: "canceled" });
      expect((await invitee.agent.post("/organization/accept-invitation", { invitationId: linkId })).body.code).toBe(
        "INVITATION_NOT_FOUND",
      );
      expect((await owner.agent.post("/organization/cancel-invitation", { invitationId: "nope" })).body.code).toBe(
        "INVITATION_NOT_FOUND",
      );
    });

    it("inviting the same address from 8 concurrent requests creates one pending invitation", async () => {
      const owner = await ownerWithOrganization(t);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          owner.agent.post("/organization/invite-member", { email: "crowd@example.com", role: "member" }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(
        results
          .filter((r) => r.status === 400)
          .every((r) => r.body.code === "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION"),
      ).toBe(true);
      expect((await owner.agent.get("/organization/list-invitations")).body).toHaveLength(1);
    });

    it("accepting one invitation from 10 concurrent requests creates exactly one member", async () => {
      const { owner, invitee, linkId } = await invited();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          invitee.agent.post("/organization/accept-invitation", { invitationId: linkId }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(
        results
          .filter((r) => r.status === 400)
          .every(
            (r) =>
              r.body.code === "INVITATION_NOT_FOUND" || r.body.code === "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
          ),
      ).toBe(true);
      const rows = await t.ctx.db
        .selectFrom("member")
        .selectAll()
        .where("organizationId", "=", owner.organization.id)
        .where("userId", "=", invitee.user.id)
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  describe("unverified look-alikes", () => {
    it("an account that signed up with the invitee's address but never verified it cannot see, read, accept or reject", async () => {
      // Given an invitation to an address, and someone else signed up with that address, unverified
      const owner = await ownerWithOrganization(t);
      const email = `invitee.${Math.random().toString(36).slice(2, 10)}@example.com`;
      const invitation = (await owner.agent.post("/organization/invite-member", { email, role: "admin" })).body;
      const lookAlike = await signUp(t, { email });
      expect(lookAlike.user.emailVerified).toBe(false);

      // When the look-alike lists, reads, accepts or rejects, nothing is shown and every step is 403
      const listed = await lookAlike.agent.get("/organization/list-user-invitations");
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([]);
      const refusal = {
        code: "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
        message: "Email verification required before accepting or rejecting invitation",
      };
      const read = await lookAlike.agent.get("/organization/get-invitation", { query: { id: invitation.id } });
      expect(read.status).toBe(403);
      expect(read.body).toEqual(refusal);
      const accepts = await Promise.all(
        Array.from({ length: 5 }, () =>
          lookAlike.agent.post("/organization/accept-invitation", { invitationId: invitation.id }),
        ),
      );
      for (const res of accepts) expect([res.status, res.body]).toEqual([403, refusal]);
      const rejected = await lookAlike.agent.post("/organization/reject-invitation", { invitationId: invitation.id });
      expect([rejected.status, rejected.body]).toEqual([403, refusal]);

      // Then no member was made, the invitation is still pending, and the server still sees it by email
      expect(
        await t.ctx.db.selectFrom("member").select("id").where("userId", "=", lookAlike.user.id).execute(),
      ).toEqual([]);
      expect((await owner.agent.get("/organization/list-invitations")).body).toEqual([
        expect.objectContaining({ id: invitation.id, status: "pending" }),
      ]);
      expect(
        (await t.server().get("/organization/list-user-invitations", { query: { email } })).body.map(
          (i: { id: string }) => i.id,
        ),
      ).toEqual([invitation.id]);

      // And once the address is proven (the verification mail), the same account may act
      await verifyThroughMail(mailbox, lookAlike.agent, email);
      expect(
        (await lookAlike.agent.get("/organization/list-user-invitations")).body.map((i: { id: string }) => i.id),
      ).toEqual([invitation.id]);
      expect(
        (await lookAlike.agent.post("/organization/accept-invitation", { invitationId: invitation.id })).status,
      ).toBe(200);
    });
  });

  describe("listing invitations", () => {
    it("lists an organization's invitations for members only, and the caller's own invitations", async () => {
      const { owner, invitee, invitation } = await invited();
      const list = await owner.agent.get("/organization/list-invitations");
      expect(list.status).toBe(200);
      expect(list.body.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
      const outsider = await signUp(t);
      const refused = await outsider.agent.get("/organization/list-invitations", {
        query: { organizationId: owner.organization.id },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
      expect((await outsider.agent.get("/organization/list-invitations")).body).toEqual({
        code: "ORGANIZATION_ID_IS_REQUIRED",
        message: "Organization ID is required",
      });
      expect((await t.agent().get("/organization/list-invitations")).status).toBe(401);

      const mine = await invitee.agent.get("/organization/list-user-invitations");
      expect(mine.status).toBe(200);
      expect(mine.body.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
      expect(
        (await invitee.agent.get("/organization/list-user-invitations", { query: { email: owner.email } })).status,
      ).toBe(400);
      const byServer = await t.server().get("/organization/list-user-invitations", { query: { email: invitee.email } });
      expect(byServer.body.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
      expect((await t.agent().get("/organization/list-user-invitations")).body.message).toBe(
        "Missing session headers, or email query parameter.",
      );
    });
  });
});

describe("invitations without required verification [sqlite]", () => {
  it("with requireEmailVerificationOnInvitation off, an unverified account sees and accepts (Better Auth 1.3.4's behaviour)", async () => {
    const t = await createTestContext({ config: { organization: { requireEmailVerificationOnInvitation: false } } });
    try {
      const owner = await ownerWithOrganization(t);
      const invitee = await signUp(t);
      const invitation = (
        await owner.agent.post("/organization/invite-member", { email: invitee.email, role: "member" })
      ).body;
      expect(
        (await invitee.agent.get("/organization/list-user-invitations")).body.map((i: { id: string }) => i.id),
      ).toEqual([invitation.id]);
      expect((await invitee.agent.get("/organization/get-invitation", { query: { id: invitation.id } })).status).toBe(
        200,
      );
      expect(
        (await invitee.agent.post("/organization/accept-invitation", { invitationId: invitation.id })).status,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("invitation configuration", () => {
  it("applies the invitation limit, the membership limit, re-invite cancellation and required verification", async () => {
    const mailbox = await startMailbox();
    const t = await createTestContext({
      env: { AUTH_SMTP_URL: mailbox.url },
      config: {
        organization: {
          invitationLimit: 2,
          membershipLimit: 2,
          cancelPendingInvitationsOnReInvite: true,
          requireEmailVerificationOnInvitation: true,
          invitationAcceptURL: "https://app.example/join?invitation={id}",
        },
      },
    });
    try {
      const owner = await ownerWithOrganization(t);
      const first = await owner.agent.post("/organization/invite-member", { email: "one@example.com", role: "member" });
      const mail = await mailbox.waitFor("one@example.com", /https:\/\/app\.example\/join\?invitation=([A-Za-z0-9]+)/);
      expect(mail.match[1]).toBe(first.body.id);
      const reinvite = await owner.agent.post("/organization/invite-member", {
        email: "one@example.com",
        role: "admin",
        resend: true,
      });
      expect(reinvite.status).toBe(200);
      const statuses = (await owner.agent.get("/organization/list-invitations")).body.map(
        (i: { status: string }) => i.status,
      );
      expect(statuses).toEqual(["canceled", "pending"]);
      expect(
        (await owner.agent.post("/organization/invite-member", { email: "two@example.com", role: "member" })).status,
      ).toBe(200);
      const third = await owner.agent.post("/organization/invite-member", {
        email: "three@example.com",
        role: "member",
      });
      expect(third.status).toBe(403);
      expect(third.body.message).toBe("Invitation limit reached");

      const one = await signUp(t, { email: "one@example.com" });
      const unverified = await one.agent.post("/organization/accept-invitation", { invitationId: reinvite.body.id });
      expect(unverified.status).toBe(403);
      await updateUser(t.ctx, one.user.id, { emailVerified: true });
      const two = await signUp(t, { email: "two@example.com" });
      await updateUser(t.ctx, two.user.id, { emailVerified: true });
      expect((await one.agent.post("/organization/accept-invitation", { invitationId: reinvite.body.id })).status).toBe(
        200,
      );
      const twoInvitation = (await two.agent.get("/organization/list-user-invitations")).body[0];
      const full = await two.agent.post("/organization/accept-invitation", { invitationId: twoInvitation.id });
      expect(full.status).toBe(403);
      expect(full.body).toEqual({
        code: "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
        message: "Organization membership limit reached",
      });
    } finally {
      await t.close();
      await mailbox.close();
    }
  });
});
