import { afterAll, beforeAll, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { activeOrganizationId, memberOf, ownerWithOrganization } from "../helpers/organization.ts";
import { alertText, browse, formTokenOf, postForm } from "../helpers/pages.ts";

// The account page's organizations ({pages}/organizations): memberships with role, the active one marked,
// switch and leave; the invitations to the user's confirmed address, accept and decline. The attacker's
// side: another organization's id in switch and leave, another user's invitation in accept and decline,
// forms without the token or from another origin, HTML in an organization's name.

const SECTION = "/account/organizations";

describeEachDialect("the account page's organizations", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  /** A user whose address is confirmed (invitations are shown only to a proven address). */
  async function confirmedUser() {
    const user = await signUp(t);
    await updateUser(t.ctx, user.user.id, { emailVerified: true });
    return user;
  }

  const organizationsOf = async (agent: Agent) =>
    ((await agent.get("/organization/list")).body as { id: string }[]).map((o) => o.id);

  async function invite(owner: { agent: Agent }, email: string) {
    const res = await owner.agent.post("/organization/invite-member", { email, role: "admin" });
    expect(res.status, res.text).toBe(200);
    return res.body.id as string;
  }

  const post = async (agent: Agent, route: string, fields: Record<string, string>) =>
    postForm(agent, `${SECTION}/${route}`, { csrf: await formTokenOf(agent, SECTION), ...fields });

  it("lists memberships with role and the active one, and switches the active organization", async () => {
    const first = await ownerWithOrganization(t, "First Org");
    const second = await ownerWithOrganization(t, "Second Org");
    const member = await memberOf(t, first.organization.id, "member");
    await t.server().post("/organization/add-member", {
      userId: member.user.id,
      role: "admin",
      organizationId: second.organization.id,
    });
    const page = await browse(member.agent, SECTION);
    expect(page.status).toBe(200);
    expect(page.text).toContain("First Org");
    expect(page.text).toContain("Role: member · Active in this session");
    expect(page.text).toContain("Role: admin");
    expect(page.text).toContain("No invitation is waiting for you.");

    const switched = await post(member.agent, "switch", { organizationId: second.organization.id });
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe(`${SECTION}?notice=notice.account.organizationSwitched`);
    expect(await activeOrganizationId(member.agent)).toBe(second.organization.id);
    const after = await browse(member.agent, `${SECTION}?notice=notice.account.organizationSwitched`);
    expect(after.text).toContain("The organization is now active in this session.");
    expect(after.text).toContain("Role: admin · Active in this session");
  });

  it("refuses another organization's id in switch and leave, changing nothing", async () => {
    const victim = await ownerWithOrganization(t, "Victim Org");
    const attacker = await ownerWithOrganization(t, "Attacker Org");
    const switched = await post(attacker.agent, "switch", { organizationId: victim.organization.id });
    expect(switched.status).toBe(400);
    expect(alertText(switched)).toBe("You are not a member of this organization.");
    expect(await activeOrganizationId(attacker.agent)).not.toBe(victim.organization.id);
    const left = await post(attacker.agent, "leave", { organizationId: victim.organization.id });
    expect(left.status).toBe(400);
    expect(alertText(left)).toBe("You are not a member of this organization.");
    expect(switched.text + left.text).not.toContain("Victim Org");
    expect(await organizationsOf(victim.agent)).toEqual([victim.organization.id]);
    const empty = await post(attacker.agent, "switch", { organizationId: "" });
    expect(empty.status).toBe(400);
  });

  it("leaves an organization, but not as its only owner", async () => {
    const owner = await ownerWithOrganization(t, "Left Org");
    const member = await memberOf(t, owner.organization.id);
    const left = await post(member.agent, "leave", { organizationId: owner.organization.id });
    expect(left.status).toBe(303);
    expect(left.headers.get("location")).toBe(`${SECTION}?notice=notice.account.organizationLeft`);
    expect(await organizationsOf(member.agent)).toEqual([]);
    expect((await browse(member.agent, SECTION)).text).toContain("You are not a member of any organization.");
    const refused = await post(owner.agent, "leave", { organizationId: owner.organization.id });
    expect(refused.status).toBe(400);
    expect(alertText(refused)).toBe("You are its only owner, so you cannot leave. Make someone else an owner first.");
    expect(await organizationsOf(owner.agent)).toEqual([owner.organization.id]);
  });

  it("lists the invitations to the user's address and accepts one and declines another", async () => {
    const inviting = await ownerWithOrganization(t, "Joined Org");
    const other = await ownerWithOrganization(t, "Declined Org");
    const invitee = await confirmedUser();
    const accepted = await invite(inviting, invitee.email);
    const declined = await invite(other, invitee.email);
    const page = await browse(invitee.agent, SECTION);
    expect(page.text).toContain(`${inviting.email} invited you to join Joined Org as admin.`);
    expect(page.text).toContain(`${other.email} invited you to join Declined Org as admin.`);

    const accept = await post(invitee.agent, "accept", { invitationId: accepted });
    expect(accept.status).toBe(303);
    expect(accept.headers.get("location")).toBe(`${SECTION}?notice=notice.account.invitationAccepted`);
    expect(await organizationsOf(invitee.agent)).toEqual([inviting.organization.id]);
    expect(await activeOrganizationId(invitee.agent)).toBe(inviting.organization.id);
    const decline = await post(invitee.agent, "decline", { invitationId: declined });
    expect(decline.headers.get("location")).toBe(`${SECTION}?notice=notice.account.invitationDeclined`);
    const statuses = (await other.agent.get("/organization/list-invitations")).body as { status: string }[];
    expect(statuses.map((i) => i.status)).toEqual(["rejected"]);
    const after = await browse(invitee.agent, SECTION);
    expect(after.text).toContain("No invitation is waiting for you.");
    expect(after.text).toContain("Role: admin · Active in this session");
  });

  it("shows nobody else's invitations and lets nobody else answer them", async () => {
    const owner = await ownerWithOrganization(t, "Private Org");
    const invitee = await confirmedUser();
    const id = await invite(owner, invitee.email);
    const attacker = await confirmedUser();
    expect((await browse(attacker.agent, SECTION)).text).not.toContain("Private Org");
    for (const route of ["accept", "decline"]) {
      const posted = await post(attacker.agent, route, { invitationId: id });
      expect(posted.status).toBe(403);
      expect(alertText(posted)).toBe(
        "This invitation was sent to another email address. Sign in with the account of that address.",
      );
      expect(posted.text).not.toContain("Private Org");
    }
    expect(await organizationsOf(attacker.agent)).toEqual([]);
    const statuses = (await owner.agent.get("/organization/list-invitations")).body as { status: string }[];
    expect(statuses.map((i) => i.status)).toEqual(["pending"]);
    // An unconfirmed address sees no invitation at all (anyone can sign up with an address).
    const unconfirmed = await signUp(t);
    await invite(owner, unconfirmed.email);
    expect((await browse(unconfirmed.agent, SECTION)).text).toContain("No invitation is waiting for you.");
  });

  it("refuses every form without the token, with a forged one, or from another origin", async () => {
    const owner = await ownerWithOrganization(t, "Guarded Org");
    const member = await memberOf(t, owner.organization.id);
    const second = await ownerWithOrganization(t, "Guarded Two");
    const invitation = await invite(second, member.email);
    await updateUser(t.ctx, member.user.id, { emailVerified: true });
    const csrf = await formTokenOf(member.agent, SECTION);
    const forms: [string, Record<string, string>][] = [
      ["switch", { organizationId: owner.organization.id }],
      ["leave", { organizationId: owner.organization.id }],
      ["accept", { invitationId: invitation }],
      ["decline", { invitationId: invitation }],
    ];
    for (const [route, fields] of forms) {
      const path = `${SECTION}/${route}`;
      const refusals = [
        await postForm(member.agent, path, fields),
        await postForm(member.agent, path, { ...fields, csrf: `${csrf.slice(0, -2)}xx` }),
        await postForm(member.agent, path, { ...fields, csrf }, { origin: "https://evil.example.net" }),
      ];
      expect(
        refusals.map((r) => r.status),
        route,
      ).toEqual([403, 403, 403]);
    }
    expect(await organizationsOf(member.agent)).toEqual([owner.organization.id]);
    const statuses = (await second.agent.get("/organization/list-invitations")).body as { status: string }[];
    expect(statuses.map((i) => i.status)).toEqual(["pending"]);
  });

  it("draws HTML in an organization's name as text", async () => {
    const name = "<img src=x onerror=alert(1)><script>alert(2)</script>Evil & Co";
    const owner = await ownerWithOrganization(t, name);
    const invitee = await confirmedUser();
    await invite(owner, invitee.email);
    for (const page of [await browse(owner.agent, SECTION), await browse(invitee.agent, SECTION)]) {
      expect(page.text).not.toContain("<img src=x");
      expect(page.text).not.toContain("<script>alert");
      expect(page.text).toContain(
        "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;Evil &amp; Co",
      );
    }
  });
});
