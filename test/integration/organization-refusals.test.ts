import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { memberOf, ownerWithOrganization } from "../helpers/organization.ts";

// The refusals the other organization suites do not reach: callers outside the organization, calls
// without an active organization or team, and limits hit through add-member and team invitations.

describeEachDialect("organization refusals", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      env: { AUTH_TEAMS: "on" },
      config: { organization: { membershipLimit: 3, teams: { maximumMembersPerTeam: 2 } } },
    });
  });
  afterAll(() => t.close());

  it("refuses outsiders on every team call and on role reads", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const teamId = (await agent.get("/organization/list-teams")).body[0].id;
    const outsider = await signUp(t);
    const on = { organizationId: organization.id };
    const create = await outsider.agent.post("/organization/create-team", { name: "x", ...on });
    expect(create.status).toBe(403);
    expect(create.body.message).toBe("You are not allowed to invite users to this organization");
    const update = await outsider.agent.post("/organization/update-team", { teamId, data: { name: "x", ...on } });
    expect(update.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
      message: "You are not allowed to update this team",
    });
    const remove = await outsider.agent.post("/organization/remove-team", { teamId, ...on });
    expect(remove.status).toBe(403);
    expect(remove.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM");
    const list = await outsider.agent.get("/organization/list-teams", { query: on });
    expect(list.body.message).toBe("You are not allowed to access this organization as an owner");
    const role = await outsider.agent.get("/organization/get-active-member-role", { query: on });
    expect(role.status).toBe(403);
    expect(role.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    const permission = await outsider.agent.post("/organization/has-permission", {
      permissions: { team: ["create"] },
      ...on,
    });
    expect(permission.status).toBe(401);
    expect(permission.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const cancel = await outsider.agent.post("/organization/cancel-invitation", { invitationId: "nope" });
    expect(cancel.body.code).toBe("INVITATION_NOT_FOUND");
  });

  it("refuses calls that need an active organization or team when there is none", async () => {
    const loner = await signUp(t);
    const a = loner.agent;
    for (const [path, body] of [
      ["/organization/update-member-role", { memberId: "m", role: "member" }],
      ["/organization/remove-member", { memberIdOrEmail: "m" }],
      ["/organization/create-team", { name: "x" }],
      ["/organization/remove-team", { teamId: "t" }],
      ["/organization/update-team", { teamId: "t", data: { name: "x" } }],
      ["/organization/add-team-member", { teamId: "t", userId: "u" }],
      ["/organization/remove-team-member", { teamId: "t", userId: "u" }],
      ["/organization/has-permission", { permissions: { team: ["create"] } }],
    ] as const) {
      const res = await a.post(path, body);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
    }
    expect((await a.get("/organization/list-teams")).body.code).toBe("NO_ACTIVE_ORGANIZATION");
    expect((await a.get("/organization/get-active-member-role")).body.code).toBe("NO_ACTIVE_ORGANIZATION");
    const noTeam = await a.get("/organization/list-team-members");
    expect(noTeam.status).toBe(400);
    expect(noTeam.body).toEqual({ code: "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM", message: "You do not have an active team" });
    expect((await a.post("/organization/set-active-team", {})).body).toBeNull();
    expect((await a.post("/organization/leave", {})).body).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "organizationId is required",
    });
    for (const path of [
      "/organization/list",
      "/organization/list-members",
      "/organization/get-active-member",
      "/organization/list-user-teams",
    ]) {
      expect((await t.agent().get(path)).status, path).toBe(401);
    }
  });

  it("members cannot change team rosters; add-member respects teams and the membership limit", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const teamId = (await agent.get("/organization/list-teams")).body[0].id;
    const member = await memberOf(t, organization.id, "member");
    const add = await member.agent.post("/organization/add-team-member", { teamId, userId: member.user.id });
    expect(add.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_MEMBER",
      message: "You are not allowed to create a new member",
    });
    const remove = await member.agent.post("/organization/remove-team-member", { teamId, userId: member.user.id });
    expect(remove.status).toBe(403);
    expect(remove.body.message).toBe("You are not allowed to remove a team member");
    expect(
      (await agent.post("/organization/add-team-member", { teamId: "nope", userId: member.user.id })).body.code,
    ).toBe("TEAM_NOT_FOUND");

    const newcomer = await signUp(t);
    const badTeam = await t.server().post("/organization/add-member", {
      userId: newcomer.user.id,
      role: "member",
      organizationId: organization.id,
      teamId: "nope",
    });
    expect(badTeam.body.code).toBe("TEAM_NOT_FOUND");
    const badOrg = await t
      .server()
      .post("/organization/add-member", { userId: newcomer.user.id, role: "member", organizationId: "nope" });
    expect(badOrg.body.code).toBe("ORGANIZATION_NOT_FOUND");
    const withTeam = await t.server().post("/organization/add-member", {
      userId: newcomer.user.id,
      role: "member",
      organizationId: organization.id,
      teamId,
    });
    expect(withTeam.body.teamId).toBe(teamId);
    expect((await newcomer.agent.get("/organization/list-user-teams")).body.map((x: { id: string }) => x.id)).toEqual([
      teamId,
    ]);

    // the team now holds two members (its maximum): a team invitation is refused
    const invite = await agent.post("/organization/invite-member", {
      email: "late@example.com",
      role: "member",
      teamId,
    });
    expect(invite.status).toBe(403);
    expect(invite.body.message).toBe("Team member limit reached");
    // three members (the limit): add-member is refused
    const late = await signUp(t);
    const full = await t
      .server()
      .post("/organization/add-member", { userId: late.user.id, role: "member", organizationId: organization.id });
    expect(full.status).toBe(403);
    expect(full.body.code).toBe("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
  });

  it("the server may create and remove teams without a session", async () => {
    const { organization, agent } = await ownerWithOrganization(t);
    const made = await t
      .server()
      .post("/organization/create-team", { name: "Made by server", organizationId: organization.id });
    expect(made.status).toBe(200);
    expect(made.body.organizationId).toBe(organization.id);
    expect(
      (await t.server().post("/organization/remove-team", { teamId: made.body.id, organizationId: organization.id }))
        .body,
    ).toEqual({ message: "Team removed successfully." });
    expect((await agent.get("/organization/list-teams")).body).toHaveLength(1);
    expect(
      (await t.agent().post("/organization/create-team", { name: "x", organizationId: organization.id })).status,
    ).toBe(401);
  });

  it("documents the team routes in the OpenAPI document when teams are on", async () => {
    const doc = (await t.agent().get("/api/reference/openapi.json")).body;
    for (const path of [
      "/api/auth/organization/create-team",
      "/api/auth/organization/set-active-team",
      "/api/auth/organization/invite-member",
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
  });
});
