import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { memberOf, ownerWithOrganization } from "../helpers/organization.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";

// Issue 32: the console's organizations (/console/organizations and one organization's screen): an admin
// finds an organization, changes a member's role, removes a member, sends an invitation again or cancels it,
// each through the members' own rules (the organization keeps an owner) and recorded as the admin's. The
// attacker's side: signed out, a plain user, a role that may look but not change, forms without the token or
// from another origin, another organization's member named on this one's path, HTML in stored names.

const ROLES = { support: { organization: ["list", "get"] }, keys: { apiKey: ["list"] } };

describeEachDialect("the console's organizations", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      env: { AUTH_DEV_OUTBOX: "on" },
      config: { admin: { roles: ROLES }, organization: { requireEmailVerificationOnInvitation: false } },
    });
    ({ agent: admin, id: adminId } = await consoleUser(t));
  });
  afterAll(() => t.close());

  const screenOf = (id: string) => `/console/organizations/${id}`;
  const post = async (agent: Agent, organizationId: string, action: string, fields: Record<string, string>) =>
    postForm(agent, `${screenOf(organizationId)}/${action}`, {
      csrf: await formTokenOf(agent, screenOf(organizationId)),
      ...fields,
    });
  /** A member's stored role, or null once the member is gone. */
  const roleOf = async (memberId: string) =>
    (await t.ctx.db.selectFrom("member").select("role").where("id", "=", memberId).executeTakeFirst())?.role ?? null;

  it("finds an organization by name and shows its members, invitations and teams, every stored value as text", async () => {
    const { organization, email } = await ownerWithOrganization(t, `<b>Acme ${dialect}</b>`);
    const hostile = await signUp(t, { name: '<img src=x onerror="alert(1)">' });
    await t.server().post("/organization/add-member", {
      userId: hostile.user.id,
      role: "member",
      organizationId: organization.id,
    });
    const listed = await browse(admin, `/console/organizations?search=${encodeURIComponent(`acme ${dialect}`)}`);
    expect(listed.status).toBe(200);
    expect(listed.text).toContain(`&lt;b&gt;Acme ${dialect}&lt;/b&gt;`);
    expect(listed.text).not.toContain("<b>Acme");
    expect(listed.text).toContain(`href="/console/organizations/${organization.id}"`);
    const detail = await browse(admin, screenOf(organization.id));
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(email);
    expect(detail.text).toContain("&lt;img src=x");
    expect(detail.text).not.toContain("<img src=x");
    expect(detail.text).toContain("Change role");
    expect((await browse(admin, screenOf(organization.slug))).status).toBe(200);
    expect((await browse(admin, screenOf("no-such-organization"))).status).toBe(404);
  });

  it("changes a member's role through the form, and the screen shows it; the event names the admin", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    const changed = await post(admin, organization.id, "member-role", { memberId: member.member.id, role: "admin" });
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe(
      `${screenOf(organization.id)}?notice=console.organizations.notice.roleChanged`,
    );
    expect(await roleOf(member.member.id)).toBe("admin");
    const shown = await browse(admin, changed.headers.get("location") ?? "");
    expect(shown.text).toContain("The member&#x27;s role was changed.");
    const [event] = (await eventsOfType(t.ctx, "member_role_changed")).filter(
      (row) => row.organizationId === organization.id,
    );
    expect(event).toMatchObject({ actorType: "admin", actorId: adminId, subjectId: member.user.id });
  });

  it("keeps an owner: demoting or removing the only owner is refused beside the owner's row", async () => {
    const { organization, user: owner } = await ownerWithOrganization(t);
    const ownerMember = await t.ctx.db
      .selectFrom("member")
      .select("id")
      .where("userId", "=", owner.id)
      .executeTakeFirstOrThrow();
    const demoted = await post(admin, organization.id, "member-role", { memberId: ownerMember.id, role: "member" });
    expect(demoted.status).toBe(400);
    expect(demoted.text).toContain("An organization keeps at least one owner");
    expect(demoted.text).toContain(`href="#authd-form-member-${ownerMember.id}"`);
    const removed = await post(admin, organization.id, "remove-member", { memberId: ownerMember.id, confirm: "yes" });
    expect(removed.status).toBe(400);
    expect(await roleOf(ownerMember.id)).toBe("owner");
    const forged = await post(admin, organization.id, "member-role", { memberId: ownerMember.id, role: "root" });
    expect(forged.text).toContain("Choose one of the roles offered.");
  });

  it("removes a member only with the box ticked", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    const unticked = await post(admin, organization.id, "remove-member", { memberId: member.member.id });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain("Tick the box to confirm");
    expect(await roleOf(member.member.id)).toBe("member");
    const removed = await post(admin, organization.id, "remove-member", { memberId: member.member.id, confirm: "yes" });
    expect(removed.status).toBe(303);
    expect(await roleOf(member.member.id)).toBeNull();
  });

  it("sends an invitation again and cancels one, each recorded as the admin's", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const sent = await agent.post("/organization/invite-member", { email: "renew@example.com", role: "member" });
    const resent = await post(admin, organization.id, "resend-invitation", { invitationId: sent.body.id });
    expect(resent.status).toBe(303);
    const invitations = await t.ctx.db
      .selectFrom("invitation")
      .select(["id", "status"])
      .where("organizationId", "=", organization.id)
      .execute();
    const renewed = invitations.find((row) => row.status === "pending");
    expect(invitations.find((row) => row.id === sent.body.id)?.status).toBe("canceled");
    const unticked = await post(admin, organization.id, "cancel-invitation", { invitationId: renewed?.id ?? "" });
    expect(unticked.status).toBe(400);
    const canceled = await post(admin, organization.id, "cancel-invitation", {
      invitationId: renewed?.id ?? "",
      confirm: "yes",
    });
    expect(canceled.status).toBe(303);
    const again = await post(admin, organization.id, "cancel-invitation", {
      invitationId: renewed?.id ?? "",
      confirm: "yes",
    });
    expect(again.text).toContain("This invitation has been answered or canceled already.");
    for (const type of ["invitation_sent", "invitation_canceled"]) {
      const [row] = (await eventsOfType(t.ctx, type)).filter((each) => each.data.includes(renewed?.id ?? "-"));
      expect(row, type).toMatchObject({ actorType: "admin", actorId: adminId, organizationId: organization.id });
    }
  });

  it("acts on no member of another organization named on this one's path", async () => {
    const first = await ownerWithOrganization(t);
    const other = await ownerWithOrganization(t);
    const stranger = await memberOf(t, other.organization.id);
    const refused = await post(admin, first.organization.id, "member-role", {
      memberId: stranger.member.id,
      role: "owner",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("This member is no longer in the organization.");
    expect(await roleOf(stranger.member.id)).toBe("member");
  });

  it("refuses the signed out, plain users, and a role that may look but not change", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    const signedOut = await browse(t.agent(), screenOf(organization.id));
    expect(signedOut.status).toBe(302);
    const plain = await signUp(t);
    expect((await browse(plain.agent, "/console/organizations")).status).toBe(403);
    const plainPost = await postForm(plain.agent, `${screenOf(organization.id)}/member-role`, {
      csrf: await formTokenOf(plain.agent, "/account"),
      memberId: member.member.id,
      role: "owner",
    });
    expect(plainPost.status).toBe(403);
    const support = (await consoleUser(t, "support")).agent;
    const looked = await browse(support, screenOf(organization.id));
    expect(looked.status).toBe(200);
    expect(looked.text).not.toContain("Change role");
    expect(looked.text).not.toContain("/member-role");
    const supportPost = await post(support, organization.id, "member-role", {
      memberId: member.member.id,
      role: "owner",
    });
    expect(supportPost.status).toBe(403);
    const keys = (await consoleUser(t, "keys")).agent;
    expect((await browse(keys, "/console/organizations")).status).toBe(403);
    expect((await browse(keys, "/console/api-keys")).text).not.toContain('href="/console/organizations"');
    expect(await roleOf(member.member.id)).toBe("member");
  });

  it("changes nothing for a form without its token, with another browser's, or from another origin", async () => {
    const { organization } = await ownerWithOrganization(t);
    const member = await memberOf(t, organization.id);
    const path = `${screenOf(organization.id)}/member-role`;
    const fields = { memberId: member.member.id, role: "admin" };
    const stranger = await signUp(t);
    const attempts = [
      await postForm(admin, path, fields),
      await postForm(admin, path, { ...fields, csrf: await formTokenOf(stranger.agent, "/account") }),
      await postForm(
        admin,
        path,
        { ...fields, csrf: await formTokenOf(admin, screenOf(organization.id)) },
        {
          origin: "https://evil.example",
        },
      ),
    ];
    for (const attempt of attempts) expect(attempt.status).toBe(403);
    expect(await roleOf(member.member.id)).toBe("member");
  });
});

describe("the console's organizations, with organizations off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { organization: { enabled: false } } });
  });
  afterAll(() => t.close());

  it("are not there, nor in the navigation", async () => {
    const admin = await consoleUser(t);
    expect((await browse(admin.agent, "/console/organizations")).status).toBe(404);
    expect((await browse(admin.agent, "/console/users")).text).not.toContain('href="/console/organizations"');
  });
});
