import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { activeOrganizationId, memberOf, ownerWithOrganization } from "../helpers/organization.ts";

describeEachDialect("organization members and roles", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  describe("POST /organization/add-member (server call)", () => {
    it("adds a user with one or several roles, and is invisible without the server token", async () => {
      const { organization } = await ownerWithOrganization(t);
      const user = await signUp(t);
      const hidden = await user.agent.post("/organization/add-member", {
        userId: user.user.id,
        role: "member",
        organizationId: organization.id,
      });
      expect(hidden.status).toBe(404);
      const res = await t.server().post("/organization/add-member", {
        userId: user.user.id,
        role: ["admin", "member"],
        organizationId: organization.id,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ organizationId: organization.id, userId: user.user.id, role: "admin,member" });
      const again = await t
        .server()
        .post("/organization/add-member", { userId: user.user.id, role: "member", organizationId: organization.id });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe("User is already a member of this organization");
      const unknown = await t
        .server()
        .post("/organization/add-member", { userId: "nobody", role: "member", organizationId: organization.id });
      expect(unknown.body).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
      const noOrg = await t.server().post("/organization/add-member", { userId: user.user.id, role: "member" });
      expect(noOrg.body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
      const teams = await t.server().post("/organization/add-member", {
        userId: user.user.id,
        role: "member",
        organizationId: organization.id,
        teamId: "t",
      });
      expect(teams.body.message).toBe("Teams are not enabled");
    });
  });

  describe("GET /organization/list-members, get-active-member, get-active-member-role", () => {
    it("lists members with users, pages and filters them; refuses outsiders", async () => {
      const { agent, organization, email } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      await memberOf(t, organization.id, "member");
      const all = await agent.get("/organization/list-members");
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(3);
      expect(all.body.members.map((m: { role: string }) => m.role)).toEqual(["owner", "admin", "member"]);
      expect(all.body.members[0].user).toMatchObject({ email, name: "Test User" });
      const page = await agent.get("/organization/list-members", { query: { limit: 1, offset: 1 } });
      expect(page.body.members).toHaveLength(1);
      expect(page.body.members[0].userId).toBe(admin.user.id);
      expect(page.body.total).toBe(3);
      const admins = await agent.get("/organization/list-members", {
        query: { filterField: "role", filterValue: "admin" },
      });
      expect(admins.body.members.map((m: { userId: string }) => m.userId)).toEqual([admin.user.id]);
      const desc = await agent.get("/organization/list-members", {
        query: { sortBy: "createdAt", sortDirection: "desc" },
      });
      expect(desc.body.members[2].role).toBe("owner");

      const outsider = await signUp(t);
      const refused = await outsider.agent.get("/organization/list-members", {
        query: { organizationId: organization.id },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
        message: "You are not a member of this organization",
      });
      expect((await outsider.agent.get("/organization/list-members")).body.code).toBe("NO_ACTIVE_ORGANIZATION");
    });

    it("answers the caller's active membership and roles", async () => {
      const { agent, organization, user } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      const active = await agent.get("/organization/get-active-member");
      expect(active.status).toBe(200);
      expect(active.body).toMatchObject({ organizationId: organization.id, userId: user.id, role: "owner" });
      expect(active.body.user.id).toBe(user.id);
      expect((await agent.get("/organization/get-active-member-role")).body).toEqual({ role: "owner" });
      expect(
        (await agent.get("/organization/get-active-member-role", { query: { userId: admin.user.id } })).body,
      ).toEqual({ role: "admin" });
      const stranger = await agent.get("/organization/get-active-member-role", { query: { userId: "nobody" } });
      expect(stranger.body.code).toBe("MEMBER_NOT_FOUND");

      const loner = await signUp(t);
      const none = await loner.agent.get("/organization/get-active-member");
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
      expect((await t.agent().get("/organization/get-active-member")).status).toBe(401);
    });
  });

  describe("POST /organization/update-member-role", () => {
    it("follows the permission table: owners and admins update, members cannot, only owners touch owners", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      const member = await memberOf(t, organization.id, "member");
      const promoted = await admin.agent.post("/organization/update-member-role", {
        memberId: member.member.id,
        role: ["member", "admin"],
      });
      expect(promoted.status).toBe(200);
      expect(promoted.body).toMatchObject({ id: member.member.id, role: "member,admin" });
      const byMember = await (await memberOf(t, organization.id, "member")).agent.post(
        "/organization/update-member-role",
        { memberId: admin.member.id, role: "member" },
      );
      expect(byMember.status).toBe(403);
      expect(byMember.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
        message: "You are not allowed to update this member",
      });
      const ownerId = (await agent.get("/organization/get-active-member")).body.id;
      const adminOnOwner = await admin.agent.post("/organization/update-member-role", {
        memberId: ownerId,
        role: "member",
      });
      expect(adminOnOwner.status).toBe(403);
      const adminMakesOwner = await admin.agent.post("/organization/update-member-role", {
        memberId: member.member.id,
        role: "owner",
      });
      expect(adminMakesOwner.status).toBe(403);
      const ownerMakesOwner = await agent.post("/organization/update-member-role", {
        memberId: admin.member.id,
        role: "owner",
      });
      expect(ownerMakesOwner.body.role).toBe("owner");
      const missing = await agent.post("/organization/update-member-role", { memberId: "nope", role: "member" });
      expect(missing.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });
      const noRole = await agent.post("/organization/update-member-role", { memberId: admin.member.id });
      expect(noRole.status).toBe(400);
      expect(noRole.body.code).toBe("VALIDATION_ERROR");
    });

    it("refuses to demote the only owner", async () => {
      const { agent } = await ownerWithOrganization(t);
      const self = (await agent.get("/organization/get-active-member")).body;
      const res = await agent.post("/organization/update-member-role", { memberId: self.id, role: "admin" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
        message: "You cannot leave the organization as the only owner",
      });
    });

    it("leaves at least one owner when two owners demote each other at once", async () => {
      for (let round = 0; round < 3; round++) {
        const first = await ownerWithOrganization(t);
        const second = await memberOf(t, first.organization.id, "owner");
        const firstMemberId = first.organization.members[0].id;
        const [a, b] = await Promise.all([
          first.agent.post("/organization/update-member-role", { memberId: second.member.id, role: "member" }),
          second.agent.post("/organization/update-member-role", { memberId: firstMemberId, role: "member" }),
        ]);
        expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
        const roles = (
          await first.agent.get("/organization/list-members", { query: { organizationId: first.organization.id } })
        ).body.members.map((m: { role: string }) => m.role);
        expect(roles.filter((r: string) => r === "owner")).toHaveLength(1);
      }
    });
  });

  describe("POST /organization/remove-member and /organization/leave", () => {
    it("removes by id or email, clears the removed user's active organization, and follows the table", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      const byId = await memberOf(t, organization.id, "member");
      const byEmail = await memberOf(t, organization.id, "member");
      const removed = await admin.agent.post("/organization/remove-member", { memberIdOrEmail: byId.member.id });
      expect(removed.status).toBe(200);
      expect(removed.body.member).toMatchObject({
        id: byId.member.id,
        userId: byId.user.id,
        organizationId: organization.id,
      });
      expect(await activeOrganizationId(byId.agent)).toBeNull();
      const removedByEmail = await agent.post("/organization/remove-member", {
        memberIdOrEmail: byEmail.email.toUpperCase(),
      });
      expect(removedByEmail.body.member.userId).toBe(byEmail.user.id);

      const member = await memberOf(t, organization.id, "member");
      const byMember = await member.agent.post("/organization/remove-member", { memberIdOrEmail: admin.member.id });
      expect(byMember.status).toBe(401);
      expect(byMember.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
        message: "You are not allowed to delete this member",
      });
      const ownerId = (await agent.get("/organization/get-active-member")).body.id;
      const adminOnOwner = await admin.agent.post("/organization/remove-member", { memberIdOrEmail: ownerId });
      expect(adminOnOwner.status).toBe(400);
      expect(adminOnOwner.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
      const onlyOwner = await agent.post("/organization/remove-member", { memberIdOrEmail: ownerId });
      expect(onlyOwner.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
      const missing = await agent.post("/organization/remove-member", { memberIdOrEmail: "ghost@example.com" });
      expect(missing.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });

      const other = await ownerWithOrganization(t);
      const foreign = await agent.post("/organization/remove-member", {
        memberIdOrEmail: other.organization.members[0].id,
      });
      expect(foreign.body.code).toBe("MEMBER_NOT_FOUND");
      expect((await other.agent.get("/organization/list-members")).body.total).toBe(1);
    });

    it("lets a member leave, refuses the only owner, and lets an owner leave when another remains", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const member = await memberOf(t, organization.id, "member");
      const left = await member.agent.post("/organization/leave", { organizationId: organization.id });
      expect(left.status).toBe(200);
      expect(left.body).toMatchObject({ userId: member.user.id, organizationId: organization.id });
      expect(await activeOrganizationId(member.agent)).toBeNull();
      expect((await member.agent.post("/organization/leave", { organizationId: organization.id })).body.code).toBe(
        "MEMBER_NOT_FOUND",
      );

      const only = await agent.post("/organization/leave", { organizationId: organization.id });
      expect(only.status).toBe(400);
      expect(only.body.message).toBe("You cannot leave the organization as the only owner");
      const coOwner = await memberOf(t, organization.id, ["admin", "owner"]);
      const ownerLeaves = await agent.post("/organization/leave", { organizationId: organization.id });
      expect(ownerLeaves.status).toBe(200);
      expect(await activeOrganizationId(agent)).toBeNull();
      expect((await coOwner.agent.post("/organization/leave", { organizationId: organization.id })).status).toBe(400);
    });
  });

  describe("POST /organization/has-permission", () => {
    it("answers from the caller's roles in the organization", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      expect(
        (await agent.post("/organization/has-permission", { permissions: { organization: ["delete"] } })).body,
      ).toEqual({ error: null, success: true });
      expect(
        (await admin.agent.post("/organization/has-permission", { permissions: { organization: ["delete"] } })).body
          .success,
      ).toBe(false);
      expect(
        (await admin.agent.post("/organization/has-permission", { permissions: { member: ["create", "delete"] } })).body
          .success,
      ).toBe(true);
    });
  });
});

describe("configured organization roles", () => {
  it("replaces the default table and grants when any of several roles does", async () => {
    const t = await createTestContext({
      config: {
        organization: {
          roles: {
            owner: {
              organization: ["update", "delete"],
              member: ["create", "update", "delete"],
              invitation: ["create", "cancel"],
              team: ["create", "update", "delete"],
            },
            billing: { organization: ["update"] },
            support: { member: ["delete"] },
          },
        },
      },
    });
    try {
      const { organization } = await ownerWithOrganization(t);
      const billing = await memberOf(t, organization.id, "billing");
      const both = await memberOf(t, organization.id, ["billing", "support"]);
      expect((await billing.agent.post("/organization/update", { data: { name: "By billing" } })).status).toBe(200);
      const cannot = await billing.agent.post("/organization/remove-member", { memberIdOrEmail: both.member.id });
      expect(cannot.status).toBe(401);
      const victim = await memberOf(t, organization.id, "billing");
      expect((await both.agent.post("/organization/remove-member", { memberIdOrEmail: victim.member.id })).status).toBe(
        200,
      );
      // "admin" is not a configured role any more, so it grants nothing
      const admin = await memberOf(t, organization.id, "admin");
      expect((await admin.agent.post("/organization/update", { data: { name: "x" } })).status).toBe(403);
    } finally {
      await t.close();
    }
  });
});
