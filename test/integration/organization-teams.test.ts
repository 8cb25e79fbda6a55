import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Mailbox, startMailbox, verifyThroughMail } from "../helpers/mailbox.ts";
import { memberOf, ownerWithOrganization } from "../helpers/organization.ts";

async function activeTeamId(agent: { get: (p: string, o?: object) => Promise<{ body: any }> }): Promise<string | null> {
  return (await agent.get("/get-session", { query: { disableCookieCache: true } })).body?.session?.activeTeamId ?? null;
}

describeEachDialect("organization teams", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await createTestContext({
      dialect,
      env: { AUTH_TEAMS: "on", AUTH_SMTP_URL: mailbox.url },
      config: { organization: { teams: { maximumTeams: 3 } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await mailbox.close();
  });

  it("creating an organization creates a default team named after it, joined and active", async () => {
    const { agent, organization, user } = await ownerWithOrganization(t, "Initech");
    const teams = await agent.get("/organization/list-teams");
    expect(teams.status).toBe(200);
    expect(teams.body).toHaveLength(1);
    expect(teams.body[0]).toMatchObject({ name: "Initech", organizationId: organization.id, updatedAt: null });
    expect(await activeTeamId(agent)).toBe(teams.body[0].id);
    const members = await agent.get("/organization/list-team-members");
    expect(members.body.map((m: { userId: string }) => m.userId)).toEqual([user.id]);
    const full = await agent.get("/organization/get-full-organization");
    expect(full.body.teams).toHaveLength(1);
    expect(full.body.members[0].teamId).toBe(teams.body[0].id);
  });

  it("creates, updates and lists teams within the limit and the permission table", async () => {
    const { agent, organization } = await ownerWithOrganization(t);
    const created = await agent.post("/organization/create-team", { name: "Platform" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "Platform", organizationId: organization.id });
    expect(created.body.updatedAt).toMatch(/^\d{4}-/);
    const renamed = await agent.post("/organization/update-team", { teamId: created.body.id, data: { name: "Infra" } });
    expect(renamed.body).toMatchObject({ id: created.body.id, name: "Infra" });
    expect(
      (await agent.post("/organization/update-team", { teamId: created.body.id, data: { name: "" } })).status,
    ).toBe(400);
    expect((await agent.post("/organization/create-team", { name: "" })).status).toBe(400);
    expect((await agent.post("/organization/create-team", { name: "Third" })).status).toBe(200);
    const fourth = await agent.post("/organization/create-team", { name: "Fourth" });
    expect(fourth.status).toBe(400);
    expect(fourth.body.message).toBe("You have reached the maximum number of teams");

    const member = await memberOf(t, organization.id, "member");
    const byMember = await member.agent.post("/organization/create-team", { name: "Nope" });
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe("You are not allowed to create teams in this organization");
    const updateByMember = await member.agent.post("/organization/update-team", {
      teamId: created.body.id,
      data: { name: "x" },
    });
    expect(updateByMember.status).toBe(403);
    expect(updateByMember.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
      message: "You are not allowed to update this team",
    });
    expect((await member.agent.get("/organization/list-teams")).body).toHaveLength(3);
    expect((await agent.post("/organization/update-team", { teamId: "nope", data: { name: "x" } })).body).toEqual({
      code: "TEAM_NOT_FOUND",
      message: "Team not found",
    });

    const outsider = await signUp(t);
    const listByOutsider = await outsider.agent.get("/organization/list-teams", {
      query: { organizationId: organization.id },
    });
    expect(listByOutsider.status).toBe(403);
    expect((await outsider.agent.get("/organization/list-teams")).body.code).toBe("NO_ACTIVE_ORGANIZATION");
    const serverMade = await t
      .server()
      .post("/organization/create-team", { name: "From server", organizationId: organization.id });
    expect(serverMade.status).toBe(400); // the limit of 3 applies to the server too
  });

  it("removes teams: not the caller's active team, not without the right, never the last one", async () => {
    const { agent, organization } = await ownerWithOrganization(t);
    const defaultTeamId = (await agent.get("/organization/list-teams")).body[0].id;
    const own = await agent.post("/organization/remove-team", { teamId: defaultTeamId });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
      message: "You are not allowed to delete this team",
    });
    const extra = (await agent.post("/organization/create-team", { name: "Extra" })).body;
    const member = await memberOf(t, organization.id, "member");
    const byMember = await member.agent.post("/organization/remove-team", { teamId: extra.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe("You are not allowed to delete teams in this organization");
    const removed = await agent.post("/organization/remove-team", { teamId: extra.id });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: "Team removed successfully." });
    expect((await agent.post("/organization/remove-team", { teamId: extra.id })).body.code).toBe("TEAM_NOT_FOUND");
    await agent.post("/organization/set-active-team", { teamId: null });
    const last = await agent.post("/organization/remove-team", { teamId: defaultTeamId });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ code: "UNABLE_TO_REMOVE_LAST_TEAM", message: "Unable to remove last team" });
  });

  it("sets the active team only for its members, and manages team rosters", async () => {
    const { agent, organization } = await ownerWithOrganization(t);
    const team = (await agent.post("/organization/create-team", { name: "Ops" })).body;
    const member = await memberOf(t, organization.id, "member");
    const notYet = await member.agent.post("/organization/set-active-team", { teamId: team.id });
    expect(notYet.status).toBe(403);
    expect(notYet.body.message).toBe("User is not a member of the team");
    expect((await member.agent.get("/organization/list-team-members", { query: { teamId: team.id } })).status).toBe(
      400,
    );

    const byMember = await member.agent.post("/organization/add-team-member", {
      teamId: team.id,
      userId: member.user.id,
    });
    expect(byMember.status).toBe(403);
    const added = await agent.post("/organization/add-team-member", { teamId: team.id, userId: member.user.id });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ teamId: team.id, userId: member.user.id });
    const outsider = await signUp(t);
    expect(
      (await agent.post("/organization/add-team-member", { teamId: team.id, userId: outsider.user.id })).body.code,
    ).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

    const active = await member.agent.post("/organization/set-active-team", { teamId: team.id });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ id: team.id, name: "Ops" });
    expect((await member.agent.get("/get-session")).body.session.activeTeamId).toBe(team.id);
    expect((await member.agent.get("/organization/list-user-teams")).body.map((x: { id: string }) => x.id)).toEqual([
      team.id,
    ]);
    expect((await member.agent.get("/organization/list-team-members")).body).toHaveLength(1);
    expect((await member.agent.post("/organization/set-active-team", { teamId: "nope" })).body.code).toBe(
      "TEAM_NOT_FOUND",
    );

    const removed = await agent.post("/organization/remove-team-member", { teamId: team.id, userId: member.user.id });
    expect(removed.body).toEqual({ message: "Team member removed successfully." });
    expect((await member.agent.get("/organization/list-user-teams")).body).toEqual([]);
    expect((await member.agent.post("/organization/set-active-team", { teamId: null })).body).toBeNull();
    expect(await activeTeamId(member.agent)).toBeNull();
  });

  it("an invitation with a team puts the new member in it and makes it active", async () => {
    const { agent, organization } = await ownerWithOrganization(t);
    const team = (await agent.post("/organization/create-team", { name: "Design" })).body;
    const invitee = await signUp(t);
    await verifyThroughMail(mailbox, invitee.agent, invitee.email);
    const invitation = await agent.post("/organization/invite-member", {
      email: invitee.email,
      role: "member",
      teamId: team.id,
    });
    expect(invitation.body.teamId).toBe(team.id);
    const mail = await mailbox.waitFor(invitee.email, /\/account\/invitation\/([A-Za-z0-9]+)/);
    const accepted = await invitee.agent.post("/organization/accept-invitation", { invitationId: mail.match[1] });
    expect(accepted.status).toBe(200);
    expect(accepted.body.member).toMatchObject({ organizationId: organization.id, teamId: team.id });
    expect(await activeTeamId(invitee.agent)).toBe(team.id);
    expect(
      (await invitee.agent.get("/organization/list-team-members")).body.map((m: { userId: string }) => m.userId),
    ).toContain(invitee.user.id);
    const plain = await agent.post("/organization/invite-member", { email: "no-team@example.com", role: "member" });
    expect(plain.body.teamId).toBe("");
    const missingTeam = await agent.post("/organization/invite-member", {
      email: "x@example.com",
      role: "member",
      teamId: "nope",
    });
    expect(missingTeam.body.code).toBe("TEAM_NOT_FOUND");
  });
});

describe("team configuration", () => {
  it("allows removing every team when configured, and serves no team routes when teams are off", async () => {
    const t = await createTestContext({
      env: { AUTH_TEAMS: "on" },
      config: { organization: { teams: { allowRemovingAllTeams: true, maximumMembersPerTeam: 1 } } },
    });
    try {
      const { agent, organization } = await ownerWithOrganization(t);
      const teamId = (await agent.get("/organization/list-teams")).body[0].id;
      const member = await memberOf(t, organization.id, "member");
      const full = await agent.post("/organization/add-team-member", { teamId, userId: member.user.id });
      expect(full.status).toBe(403);
      expect(full.body.message).toBe("Team member limit reached");
      await agent.post("/organization/set-active-team", { teamId: null });
      expect((await agent.post("/organization/remove-team", { teamId })).status).toBe(200);
      expect((await agent.get("/organization/list-teams")).body).toEqual([]);
    } finally {
      await t.close();
    }
    const off = await createTestContext();
    try {
      const { agent } = await ownerWithOrganization(off);
      expect((await agent.post("/organization/create-team", { name: "x" })).status).toBe(404);
      expect((await agent.get("/organization/list-teams")).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
