import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { activeOrganizationId, memberOf, ownerWithOrganization, uniqueSlug } from "../helpers/organization.ts";

describeEachDialect("organizations: create, read, update, delete", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  describe("POST /organization/create", () => {
    it("creates the organization with the caller as owner and makes it active", async () => {
      const { agent, user } = await signUp(t);
      const slug = uniqueSlug();
      const res = await agent.post("/organization/create", {
        name: "Acme",
        slug,
        logo: "https://img.example/acme.png",
        metadata: { plan: "pro" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: "Acme",
        slug,
        logo: "https://img.example/acme.png",
        metadata: { plan: "pro" },
      });
      expect(res.body.id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(res.body.members).toHaveLength(1);
      expect(res.body.members[0]).toMatchObject({ userId: user.id, organizationId: res.body.id, role: "owner" });
      expect(await activeOrganizationId(agent)).toBe(res.body.id);
      // the cached session cookie was rewritten too
      const cached = await agent.get("/get-session");
      expect(cached.body.session.activeOrganizationId).toBe(res.body.id);
    });

    it("keeps the current active organization when asked", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const res = await agent.post("/organization/create", {
        name: "Second",
        slug: uniqueSlug(),
        keepCurrentActiveOrganization: true,
      });
      expect(res.status).toBe(200);
      expect(await activeOrganizationId(agent)).toBe(organization.id);
    });

    it("refuses a taken slug, missing fields and callers without a session", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const taken = await agent.post("/organization/create", { name: "Dup", slug: organization.slug });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" });
      const missing = await agent.post("/organization/create", { name: "No slug" });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: "VALIDATION_ERROR", message: "slug is required" });
      const anonymous = await t.agent().post("/organization/create", { name: "x", slug: uniqueSlug() });
      expect(anonymous.status).toBe(401);
    });

    it("lets the server create an organization for a userId, and refuses an unknown one", async () => {
      const { user, agent } = await signUp(t);
      const res = await t
        .server()
        .post("/organization/create", { name: "Server made", slug: uniqueSlug(), userId: user.id });
      expect(res.status).toBe(200);
      expect(res.body.members[0]).toMatchObject({ userId: user.id, role: "owner" });
      expect((await agent.get("/organization/list")).body.map((o: { id: string }) => o.id)).toContain(res.body.id);
      const unknown = await t
        .server()
        .post("/organization/create", { name: "x", slug: uniqueSlug(), userId: "no-such-user" });
      expect(unknown.status).toBe(401);
      const noUser = await t.server().post("/organization/create", { name: "x", slug: uniqueSlug() });
      expect(noUser.status).toBe(401);
    });

    it("creates exactly one organization when the same slug is raced", async () => {
      const { agent } = await signUp(t);
      const slug = uniqueSlug("race");
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => agent.post("/organization/create", { name: `Race ${i}`, slug })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400).every((r) => r.body.code === "ORGANIZATION_ALREADY_EXISTS")).toBe(
        true,
      );
    });
  });

  describe("POST /organization/check-slug", () => {
    it("answers status true for a free slug and slug is taken otherwise", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      expect((await agent.post("/organization/check-slug", { slug: uniqueSlug() })).body).toEqual({ status: true });
      const taken = await agent.post("/organization/check-slug", { slug: organization.slug });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ code: "SLUG_IS_TAKEN", message: "slug is taken" });
      expect((await t.agent().post("/organization/check-slug", { slug: "x" })).status).toBe(401);
    });
  });

  describe("GET /organization/list and get-full-organization", () => {
    it("lists only the caller's organizations", async () => {
      const a = await ownerWithOrganization(t, "Alpha");
      const b = await ownerWithOrganization(t, "Beta");
      const list = await a.agent.get("/organization/list");
      expect(list.status).toBe(200);
      const ids = list.body.map((o: { id: string }) => o.id);
      expect(ids).toContain(a.organization.id);
      expect(ids).not.toContain(b.organization.id);
      expect((await t.agent().get("/organization/list")).status).toBe(401);
    });

    it("returns the active organization with members and their users, invitations and teams", async () => {
      const { agent, organization, email } = await ownerWithOrganization(t);
      const res = await agent.get("/organization/get-full-organization");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: organization.id,
        name: organization.name,
        slug: organization.slug,
        invitations: [],
        teams: null,
      });
      expect(res.body.members).toHaveLength(1);
      expect(res.body.members[0].user).toMatchObject({ email, name: "Test User" });
      const bySlug = await agent.get("/organization/get-full-organization", {
        query: { organizationSlug: organization.slug },
      });
      expect(bySlug.body.id).toBe(organization.id);
    });

    it("answers null without an active organization, and refuses outsiders and unknown ids", async () => {
      const outsider = await signUp(t);
      const none = await outsider.agent.get("/organization/get-full-organization");
      expect(none.status).toBe(200);
      expect(none.body).toBeNull();
      const { organization } = await ownerWithOrganization(t);
      const refused = await outsider.agent.get("/organization/get-full-organization", {
        query: { organizationId: organization.id },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("User is not a member of the organization");
      const unknown = await outsider.agent.get("/organization/get-full-organization", {
        query: { organizationId: "nope" },
      });
      expect(unknown.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });
    });
  });

  describe("POST /organization/set-active", () => {
    it("switches, clears and refuses organizations the caller does not belong to", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const second = (
        await agent.post("/organization/create", {
          name: "Two",
          slug: uniqueSlug(),
          keepCurrentActiveOrganization: true,
        })
      ).body;
      const switched = await agent.post("/organization/set-active", { organizationId: second.id });
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({ id: second.id, name: "Two" });
      expect((await agent.get("/get-session")).body.session.activeOrganizationId).toBe(second.id);
      const bySlug = await agent.post("/organization/set-active", { organizationSlug: organization.slug });
      expect(bySlug.body.id).toBe(organization.id);
      const cleared = await agent.post("/organization/set-active", { organizationId: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toBeNull();
      expect(await activeOrganizationId(agent)).toBeNull();

      const other = await ownerWithOrganization(t);
      const refused = await agent.post("/organization/set-active", { organizationId: other.organization.id });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      const unknown = await agent.post("/organization/set-active", { organizationId: "missing" });
      expect(unknown.body.code).toBe("ORGANIZATION_NOT_FOUND");
    });
  });

  describe("POST /organization/update", () => {
    it("lets owners and admins update, and refuses members, outsiders and a taken slug", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const updated = await agent.post("/organization/update", { data: { name: "Renamed", metadata: { tier: 2 } } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: organization.id,
        name: "Renamed",
        slug: organization.slug,
        metadata: { tier: 2 },
      });

      const admin = await memberOf(t, organization.id, "admin");
      const byAdmin = await admin.agent.post("/organization/update", {
        data: { logo: "https://img.example/l.png" },
        organizationId: organization.id,
      });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.logo).toBe("https://img.example/l.png");

      const member = await memberOf(t, organization.id, "member");
      const byMember = await member.agent.post("/organization/update", { data: { name: "Nope" } });
      expect(byMember.status).toBe(403);
      expect(byMember.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
        message: "You are not allowed to update this organization",
      });

      const outsider = await signUp(t);
      const byOutsider = await outsider.agent.post("/organization/update", {
        data: { name: "x" },
        organizationId: organization.id,
      });
      expect(byOutsider.status).toBe(400);
      expect(byOutsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
      const noActive = await outsider.agent.post("/organization/update", { data: { name: "x" } });
      expect(noActive.body.code).toBe("ORGANIZATION_NOT_FOUND");
      const anonymous = await t
        .agent()
        .post("/organization/update", { data: { name: "x" }, organizationId: organization.id });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });

      const other = await ownerWithOrganization(t);
      const clash = await agent.post("/organization/update", { data: { slug: other.organization.slug } });
      expect(clash.status).toBe(400);
      expect(clash.body.code).toBe("SLUG_IS_TAKEN");
    });
  });

  describe("POST /organization/delete", () => {
    it("deletes the organization with its members and invitations; only owners may", async () => {
      const { agent, organization } = await ownerWithOrganization(t);
      const admin = await memberOf(t, organization.id, "admin");
      await agent.post("/organization/invite-member", { email: "someone@example.com", role: "member" });
      const byAdmin = await admin.agent.post("/organization/delete", { organizationId: organization.id });
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
        message: "You are not allowed to delete this organization",
      });

      const res = await agent.post("/organization/delete", { organizationId: organization.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: organization.id, slug: organization.slug });
      const count = async (table: "member" | "invitation") =>
        Number(
          (
            await t.ctx.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as("n"))
              .where("organizationId", "=", organization.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count("member")).toBe(0);
      expect(await count("invitation")).toBe(0);
      expect(await activeOrganizationId(agent)).toBeNull();
      expect(await activeOrganizationId(admin.agent)).toBeNull();
      const again = await agent.post("/organization/delete", { organizationId: organization.id });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    });
  });
});

describe("organization configuration rules", () => {
  it("refuses creation when users may not create organizations", async () => {
    const t = await createTestContext({ config: { organization: { allowUserToCreateOrganization: false } } });
    try {
      const { agent } = await signUp(t);
      const res = await agent.post("/organization/create", { name: "x", slug: uniqueSlug() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
        message: "You are not allowed to create a new organization",
      });
    } finally {
      await t.close();
    }
  });

  it("enforces the per-user organization limit and disabled deletion", async () => {
    const t = await createTestContext({
      config: { organization: { organizationLimit: 2, disableOrganizationDeletion: true } },
    });
    try {
      const { agent } = await signUp(t);
      const first = await agent.post("/organization/create", { name: "1", slug: uniqueSlug() });
      expect((await agent.post("/organization/create", { name: "2", slug: uniqueSlug() })).status).toBe(200);
      const third = await agent.post("/organization/create", { name: "3", slug: uniqueSlug() });
      expect(third.status).toBe(403);
      expect(third.body).toEqual({
        code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
        message: "You have reached the maximum number of organizations",
      });
      const del = await agent.post("/organization/delete", { organizationId: first.body.id });
      expect(del.status).toBe(403);
      expect((await agent.get("/organization/list")).body).toHaveLength(2);
    } finally {
      await t.close();
    }
  });

  it("serves no organization routes when organizations are disabled", async () => {
    const t = await createTestContext({ config: { organization: { enabled: false } } });
    try {
      const { agent } = await signUp(t);
      expect((await agent.post("/organization/create", { name: "x", slug: uniqueSlug() })).status).toBe(404);
      expect((await agent.get("/organization/list")).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe("the cached session cookie follows the active organization", () => {
  it("rewrites session_data when create, set-active and leave move the active organization", async () => {
    const t = await createTestContext({ env: { AUTH_SESSION_COOKIE_CACHE: "on" } });
    try {
      const { agent, organization } = await ownerWithOrganization(t);
      const cached = async () => (await agent.get("/get-session")).body.session.activeOrganizationId;
      expect(agent.cookie("session_data")).toBeDefined();
      expect(await cached()).toBe(organization.id);
      await agent.post("/organization/set-active", { organizationId: null });
      expect(await cached()).toBeNull();
      await agent.post("/organization/set-active", { organizationId: organization.id });
      expect(await cached()).toBe(organization.id);
      const member = await memberOf(t, organization.id, "member");
      expect((await member.agent.get("/get-session")).body.session.activeOrganizationId).toBe(organization.id);
      await member.agent.post("/organization/leave", { organizationId: organization.id });
      expect((await member.agent.get("/get-session")).body.session.activeOrganizationId).toBeNull();
    } finally {
      await t.close();
    }
  });
});
