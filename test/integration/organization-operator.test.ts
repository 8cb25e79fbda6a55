import { afterAll, beforeAll, expect, it } from "vitest";
import type { EventSource } from "../../src/services/security-events.ts";
import { type AdminData, createAdminData } from "../../ui/data.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { activeOrganizationId, memberOf, ownerWithOrganization } from "../helpers/organization.ts";

// Issue 32: an operator (the web console's admin, holding organization:update, not a member) changes a
// member's role, removes a member, sends an invitation again or cancels it, through the members' own rules:
// the organization keeps an owner, and each change records its event naming the operator and the organization.

const DAY_MS = 86_400_000;

describeEachDialect("an operator acting on organizations", (dialect) => {
  let t: TestContext;
  let data: AdminData;
  let source: EventSource;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      env: { AUTH_DEV_OUTBOX: "on" },
      config: { organization: { requireEmailVerificationOnInvitation: false } },
    });
    const admin = await signUp(t);
    source = { actorType: "admin", actorId: admin.user.id, ip: "203.0.113.9", userAgent: "console test" };
    data = createAdminData(t.ctx, source);
  });
  afterAll(() => t.close());

  /** The event of `type` about `organizationId`, newest. */
  const lastEvent = async (type: string, organizationId: string) =>
    (await eventsOfType(t.ctx, type)).filter((row) => row.organizationId === organizationId).at(-1);

  it("changes a member's role, as the operator, and records it", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id, "member");
    await data.changeMemberRole(organization.id, member.member.id, "admin");
    const overview = await data.describeOrganization(organization.id);
    expect(overview?.members.find((m) => m.id === member.member.id)?.role).toBe("admin");
    const event = await lastEvent("member_role_changed", organization.id);
    expect(event).toMatchObject({ actorType: "admin", actorId: source.actorId, ip: "203.0.113.9" });
    expect(event).toMatchObject({ subjectId: member.user.id });
    expect(JSON.parse(event?.data ?? "{}")).toEqual({ memberId: member.member.id, role: "admin" });
  });

  it("keeps an owner: the only owner is neither demoted nor removed, but may be once another owner exists", async () => {
    const { organization, user: owner } = await ownerWithOrganization(t);
    const ownerMember = (await data.describeOrganization(organization.id))?.members.find((m) => m.userId === owner.id);
    const ownerMemberId = ownerMember?.id ?? "";
    await expect(data.changeMemberRole(organization.id, ownerMemberId, "member")).rejects.toMatchObject({
      key: "CANNOT_LEAVE_AS_ONLY_OWNER",
    });
    await expect(data.removeMember(organization.id, ownerMemberId)).rejects.toMatchObject({
      key: "CANNOT_LEAVE_AS_ONLY_OWNER",
    });
    const second = await memberOf(t, organization.id, "member");
    await data.changeMemberRole(organization.id, second.member.id, "owner");
    await data.changeMemberRole(organization.id, ownerMemberId, "member");
    await data.removeMember(organization.id, ownerMemberId);
    const roles = (await data.describeOrganization(organization.id))?.members.map((m) => [m.userId, m.role]);
    expect(roles).toEqual([[second.user.id, "owner"]]);
  });

  it("hands out only roles of the role table", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    expect(data.organizationRoles()).toEqual(["owner", "admin", "member"]);
    for (const role of ["superuser", "", "admin,root", "<b>owner</b>"])
      await expect(data.changeMemberRole(organization.id, member.member.id, role), role).rejects.toMatchObject({
        key: "ORGANIZATION_ROLE_NOT_FOUND",
      });
    await data.changeMemberRole(organization.id, member.member.id, "admin,member");
    const overview = await data.describeOrganization(organization.id);
    expect(overview?.members.find((m) => m.id === member.member.id)?.role).toBe("admin,member");
  });

  it("acts on a member or invitation only through its own organization", async () => {
    const first = await ownerWithOrganization(t);
    const other = await ownerWithOrganization(t);
    const stranger = await memberOf(t, other.organization.id);
    const sent = await other.agent.post("/organization/invite-member", {
      email: "foreign@example.com",
      role: "member",
      organizationId: other.organization.id,
    });
    const refusals = [
      [() => data.changeMemberRole(first.organization.id, stranger.member.id, "admin"), "MEMBER_NOT_FOUND"],
      [() => data.removeMember(first.organization.id, stranger.member.id), "MEMBER_NOT_FOUND"],
      [() => data.removeMember(first.organization.id, "no-such-member"), "MEMBER_NOT_FOUND"],
      [() => data.resendInvitation(first.organization.id, sent.body.id), "INVITATION_NOT_FOUND"],
      [() => data.cancelInvitation(first.organization.id, sent.body.id), "INVITATION_NOT_FOUND"],
    ] as const;
    for (const [attempt, key] of refusals) await expect(attempt()).rejects.toMatchObject({ key });
    const overview = await data.describeOrganization(other.organization.id);
    expect(overview?.members.find((m) => m.id === stranger.member.id)?.role).toBe("member");
    expect(overview?.invitations.map((i) => i.status)).toEqual(["pending"]);
  });

  it("removes a member with their teams and their sessions' active organization, and records it", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    expect(await activeOrganizationId(member.agent)).toBe(organization.id);
    await data.removeMember(organization.id, member.member.id);
    expect(await activeOrganizationId(member.agent)).toBeNull();
    const overview = await data.describeOrganization(organization.id);
    expect(overview?.members.some((m) => m.id === member.member.id)).toBe(false);
    const event = await lastEvent("member_removed", organization.id);
    expect(event).toMatchObject({ actorType: "admin", actorId: source.actorId, subjectId: member.user.id });
  });

  it("sends an invitation again: a new one with a new expiry and a mail, in the place of the one named", async () => {
    const { organization, agent, email: ownerEmail } = await ownerWithOrganization(t, "Resend Co");
    const sent = await agent.post("/organization/invite-member", { email: "again@example.com", role: "admin" });
    expect(sent.status, sent.text).toBe(200);
    await t.ctx.settle();
    const mailsBefore = t.ctx.outbox?.list().length ?? 0;
    t.clock.advance(3 * DAY_MS); // past the first invitation's 48 hours
    await data.resendInvitation(organization.id, sent.body.id);
    await t.ctx.settle();

    const invitations = (await data.describeOrganization(organization.id))?.invitations ?? [];
    const renewed = invitations.find((i) => i.status === "pending");
    expect(invitations.find((i) => i.id === sent.body.id)?.status).toBe("canceled");
    expect(renewed).toMatchObject({ email: "again@example.com", role: "admin" });
    expect(Date.parse(renewed?.expiresAt ?? "")).toBeGreaterThan(t.clock.now + DAY_MS);
    const mails = t.ctx.outbox?.list() ?? [];
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails[0]).toMatchObject({ kind: "invitation", to: "again@example.com" });
    expect(mails[0].link).toContain(renewed?.id);
    expect(mails[0].text).toContain(ownerEmail); // in the inviter's name, not the operator's
    const event = await lastEvent("invitation_sent", organization.id);
    expect(event).toMatchObject({ actorType: "admin", actorId: source.actorId });
    expect(JSON.parse(event?.data ?? "{}")).toEqual({ invitationId: renewed?.id, role: "admin" });
  });

  it("does not send again an invitation already answered, or one whose inviter left", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const invitee = await signUp(t);
    const sent = await agent.post("/organization/invite-member", { email: invitee.email, role: "member" });
    expect((await invitee.agent.post("/organization/accept-invitation", { invitationId: sent.body.id })).status).toBe(
      200,
    );
    await expect(data.resendInvitation(organization.id, sent.body.id)).rejects.toMatchObject({
      key: "INVITATION_NOT_FOUND",
    });
    await expect(data.cancelInvitation(organization.id, sent.body.id)).rejects.toMatchObject({
      key: "INVITATION_NOT_FOUND",
    });
    const inviter = await memberOf(t, organization.id, "admin");
    const byLeaver = await inviter.agent.post("/organization/invite-member", {
      email: "left@example.com",
      role: "member",
    });
    expect((await inviter.agent.post("/organization/leave", { organizationId: organization.id })).status).toBe(200);
    await expect(data.resendInvitation(organization.id, byLeaver.body.id)).rejects.toMatchObject({
      key: "INVITER_IS_NO_LONGER_A_MEMBER",
    });
    const statuses = (await data.describeOrganization(organization.id))?.invitations.map((i) => [i.id, i.status]);
    expect(statuses).toContainEqual([sent.body.id, "accepted"]);
    expect(statuses).toContainEqual([byLeaver.body.id, "pending"]);
  });

  it("cancels a pending invitation and records it", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const sent = await agent.post("/organization/invite-member", { email: "cancel@example.com", role: "member" });
    await data.cancelInvitation(organization.id, sent.body.id);
    const overview = await data.describeOrganization(organization.id);
    expect(overview?.invitations.find((i) => i.id === sent.body.id)?.status).toBe("canceled");
    const event = await lastEvent("invitation_canceled", organization.id);
    expect(event).toMatchObject({ actorType: "admin", actorId: source.actorId, ip: "203.0.113.9" });
    await expect(data.cancelInvitation(organization.id, sent.body.id)).rejects.toMatchObject({
      key: "INVITATION_NOT_FOUND",
    });
  });
});
