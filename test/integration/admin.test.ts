import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, SERVER_TOKEN, signUp, type TestContext } from "../helpers/context.ts";

const PASSWORD = "correct-horse-battery";
/** Read the session from the database, not the 5-minute cookie cache, to see revocations at once. */
const LIVE = { query: { disableCookieCache: true } };
const BANNED = {
  code: "BANNED_USER",
  message: "You have been banned from this application. Please contact support if you believe this is an error.",
};

describeEachDialect("admin capability", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  let plain: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    t = await createTestContext({ dialect });
    const signedUp = await signUp(t, { email: "root@example.com", username: "root_admin" });
    admin = signedUp.agent;
    adminId = signedUp.user.id;
    const promoted = await t.server().post("/admin/set-role", { userId: adminId, role: "admin" });
    expect(promoted.body.user.role).toBe("admin");
    plain = await signUp(t, { email: "plain@example.com" });
  });
  afterAll(() => t.close());

  describe("access control", () => {
    it("answers 401 without a session and 403 naming the resource for the user role", async () => {
      expect((await t.agent().get("/admin/list-users")).status).toBe(401);
      expect((await t.agent().post("/admin/ban-user", { userId: adminId })).status).toBe(401);
      const listUsers = await plain.agent.get("/admin/list-users");
      expect(listUsers.status).toBe(403);
      expect(listUsers.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE",
        message: "You are not allowed to access resource: user",
      });
      const listSessions = await plain.agent.post("/admin/list-user-sessions", { userId: adminId });
      expect(listSessions.status).toBe(403);
      expect(listSessions.body.message).toBe("You are not allowed to access resource: session");
      for (const [path, body] of [
        ["/admin/create-user", { email: "x@example.com", password: PASSWORD, name: "X" }],
        ["/admin/set-role", { userId: plain.user.id, role: "admin" }],
        ["/admin/ban-user", { userId: adminId }],
        ["/admin/unban-user", { userId: adminId }],
        ["/admin/impersonate-user", { userId: adminId }],
        ["/admin/remove-user", { userId: adminId }],
        ["/admin/set-user-password", { userId: adminId, newPassword: "another-password-1" }],
        ["/admin/revoke-user-session", { sessionToken: "whatever" }],
        ["/admin/revoke-user-sessions", { userId: adminId }],
      ] as const) {
        const res = await plain.agent.post(path, body);
        expect(res.status, path).toBe(403);
        expect(res.body.code, path).toBe("YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE");
      }
      expect((await plain.agent.get("/get-session", LIVE)).body.user.role).toBe("user");
    });

    it("grants when any of several comma-separated roles grants", async () => {
      const multi = await signUp(t);
      await t.server().post("/admin/set-role", { userId: multi.user.id, role: ["user", "admin"] });
      const res = await multi.agent.get("/admin/list-users", { query: { limit: 1 } });
      expect(res.status).toBe(200);
      expect((await multi.agent.get("/get-session", LIVE)).body.user.role).toBe("user,admin");
    });

    it("never lets users give themselves a role or lift their own ban", async () => {
      const sneaky = await t.agent().post("/sign-up/email", {
        name: "S",
        email: "sneaky@example.com",
        password: PASSWORD,
        role: "admin",
        banned: false,
      });
      expect(sneaky.body.user.role).toBe("user");
      const agent = t.agent();
      await agent.post("/sign-in/email", { email: "sneaky@example.com", password: PASSWORD });
      await agent.post("/update-user", { name: "Still S", role: "admin", impersonatedBy: adminId });
      const after = await agent.get("/get-session", LIVE);
      expect(after.body.user).toMatchObject({ name: "Still S", role: "user" });
      expect(after.body.session.impersonatedBy).toBeNull();
      expect((await agent.get("/admin/list-users")).status).toBe(403);
    });

    it("lets a server call do everything without a session", async () => {
      const created = await t
        .server()
        .post("/admin/create-user", { email: "Made.By.Server@example.com", password: PASSWORD, name: "Server Made" });
      expect(created.status).toBe(200);
      expect(created.body.user).toMatchObject({
        email: "made.by.server@example.com",
        role: "user",
        emailVerified: false,
      });
      const listed = await t.server().get("/admin/list-users", { query: { searchValue: "made.by.server" } });
      expect(listed.body.total).toBe(1);
      expect((await t.server().post("/admin/remove-user", { userId: created.body.user.id })).body).toEqual({
        success: true,
      });
    });
  });

  describe("POST /admin/create-user", () => {
    it("creates a user who can sign in, with roles, data and the refusals of sign-up", async () => {
      const res = await admin.post("/admin/create-user", {
        email: "new.hire@example.com",
        password: PASSWORD,
        name: "New Hire",
        role: ["user", "support"],
        data: { emailVerified: true, username: "New_Hire" },
      });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({
        email: "new.hire@example.com",
        role: "user,support",
        emailVerified: true,
        username: "new_hire",
      });
      expect((await t.agent().post("/sign-in/username", { username: "new_hire", password: PASSWORD })).status).toBe(
        200,
      );
      const again = await admin.post("/admin/create-user", {
        email: "NEW.HIRE@example.com",
        password: PASSWORD,
        name: "Again",
      });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe("USER_ALREADY_EXISTS");
      expect((await admin.post("/admin/create-user", { email: "nope", password: PASSWORD, name: "N" })).body.code).toBe(
        "INVALID_EMAIL",
      );
      expect(
        (await admin.post("/admin/create-user", { email: "short@example.com", password: "short", name: "S" })).body
          .code,
      ).toBe("PASSWORD_TOO_SHORT");
      expect((await admin.post("/admin/create-user", { email: "noname@example.com", password: PASSWORD })).status).toBe(
        400,
      );
    });
  });

  describe("GET /admin/list-users", () => {
    beforeAll(async () => {
      for (const [i, name] of ["Zed Listed", "Amy Listed", "Moe Listed", "Bea Listed"].entries()) {
        await t.server().post("/admin/create-user", {
          email: `listed${i}@list.example`,
          password: PASSWORD,
          name,
          role: i === 2 ? "admin" : undefined,
        });
        t.clock.advance(1000);
      }
    });

    it("searches by field and operator and reports the total beside the page", async () => {
      const contains = await admin.get("/admin/list-users", { query: { searchValue: "LIST.EXAMPLE" } });
      expect(contains.body).toMatchObject({ total: 4 });
      expect(contains.body.limit).toBeUndefined();
      const byName = await admin.get("/admin/list-users", {
        query: { searchField: "name", searchOperator: "starts_with", searchValue: "amy" },
      });
      expect(byName.body.users.map((u: { name: string }) => u.name)).toEqual(["Amy Listed"]);
      const endsWith = await admin.get("/admin/list-users", {
        query: { searchField: "name", searchOperator: "ends_with", searchValue: "e listed" },
      });
      expect(endsWith.body.users.map((u: { name: string }) => u.name).sort()).toEqual(["Moe Listed"]);
      const wildcard = await admin.get("/admin/list-users", { query: { searchValue: "%" } });
      expect(wildcard.body.total).toBe(0);
    });

    it("sorts and pages without overlap", async () => {
      const query = { searchValue: "@list.example", sortBy: "name", sortDirection: "desc", limit: 3 };
      const first = await admin.get("/admin/list-users", { query: { ...query, offset: 0 } });
      const second = await admin.get("/admin/list-users", { query: { ...query, offset: 3 } });
      expect(first.body.users.map((u: { name: string }) => u.name)).toEqual(["Zed Listed", "Moe Listed", "Bea Listed"]);
      expect(second.body).toMatchObject({ total: 4, limit: 3, offset: 3 });
      expect(second.body.users.map((u: { name: string }) => u.name)).toEqual(["Amy Listed"]);
    });

    it("filters by field and operator, treating a never-banned user as not banned", async () => {
      const admins = await admin.get("/admin/list-users", {
        query: { searchValue: "@list.example", filterField: "role", filterValue: "admin" },
      });
      expect(admins.body.users.map((u: { name: string }) => u.name)).toEqual(["Moe Listed"]);
      const notAdmins = await admin.get("/admin/list-users", {
        query: { searchValue: "@list.example", filterField: "role", filterOperator: "ne", filterValue: "admin" },
      });
      expect(notAdmins.body.total).toBe(3);
      const unbanned = await admin.get("/admin/list-users", {
        query: { searchValue: "@list.example", filterField: "banned", filterValue: "false" },
      });
      expect(unbanned.body.total).toBe(4);
      const all = await admin.get("/admin/list-users", {
        query: { searchValue: "@list.example", sortBy: "createdAt" },
      });
      const third = all.body.users[2].createdAt;
      const later = await admin.get("/admin/list-users", {
        query: { searchValue: "@list.example", filterField: "createdAt", filterOperator: "gte", filterValue: third },
      });
      expect(later.body.total).toBe(2);
    });

    it("refuses unknown fields and bad paging with 400", async () => {
      expect((await admin.get("/admin/list-users", { query: { sortBy: "password" } })).status).toBe(400);
      expect((await admin.get("/admin/list-users", { query: { filterField: "nope", filterValue: "x" } })).status).toBe(
        400,
      );
      expect((await admin.get("/admin/list-users", { query: { limit: -1 } })).body.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("bans", () => {
    it("bans a user: all sessions end and email, username and API-key paths refuse them until unbanned", async () => {
      const victim = await signUp(t, { username: "to_be_banned" });
      const key = await t.server().post("/api-key/create", { userId: victim.user.id });
      expect(key.status).toBe(200);
      const apiKeyAgent = t.agent();
      apiKeyAgent.headers["x-api-key"] = key.body.key;
      expect((await apiKeyAgent.get("/get-session", LIVE)).body.user.id).toBe(victim.user.id);

      const banned = await admin.post("/admin/ban-user", { userId: victim.user.id, banReason: "spam" });
      expect(banned.status).toBe(200);
      expect(banned.body.user).toMatchObject({ banned: true, banReason: "spam", banExpires: null });
      expect((await victim.agent.get("/get-session", LIVE)).body).toBeNull();
      const byEmail = await t.agent().post("/sign-in/email", { email: victim.email, password: PASSWORD });
      expect(byEmail.status).toBe(403);
      expect(byEmail.body).toEqual(BANNED);
      const byUsername = await t.agent().post("/sign-in/username", { username: "to_be_banned", password: PASSWORD });
      expect(byUsername.status).toBe(403);
      expect(byUsername.body).toEqual(BANNED);
      const byKey = await apiKeyAgent.get("/get-session", LIVE);
      expect(byKey.status).toBe(401);
      expect(byKey.body.code).toBe("USER_IS_BANNED");
      // A wrong password still answers as a wrong password: the ban is only revealed to the owner of the password.
      expect(
        (await t.agent().post("/sign-in/email", { email: victim.email, password: "wrong-password-1" })).body.code,
      ).toBe("INVALID_EMAIL_OR_PASSWORD");

      const unbanned = await admin.post("/admin/unban-user", { userId: victim.user.id });
      expect(unbanned.body.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
      expect((await t.agent().post("/sign-in/email", { email: victim.email, password: PASSWORD })).status).toBe(200);
      expect((await apiKeyAgent.get("/get-session", LIVE)).body.user.id).toBe(victim.user.id);
    });

    it("lifts an expired ban by itself", async () => {
      const victim = await signUp(t);
      const banned = await admin.post("/admin/ban-user", { userId: victim.user.id, banExpiresIn: 60 });
      expect(Date.parse(banned.body.user.banExpires)).toBe(t.clock.now + 60_000);
      expect(banned.body.user.banReason).toBe("No reason");
      expect((await t.agent().post("/sign-in/email", { email: victim.email, password: PASSWORD })).status).toBe(403);
      t.clock.advance(61_000);
      const after = await t.agent().post("/sign-in/email", { email: victim.email, password: PASSWORD });
      expect(after.status).toBe(200);
      const listed = await admin.get("/admin/list-users", {
        query: { filterField: "id", filterValue: victim.user.id },
      });
      expect(listed.body.users[0]).toMatchObject({ banned: false, banExpires: null, banReason: null });
    });

    it("refuses banning yourself and unknown users", async () => {
      const self = await admin.post("/admin/ban-user", { userId: adminId });
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ code: "YOU_CANNOT_BAN_YOURSELF", message: "You cannot ban yourself" });
      expect((await admin.post("/admin/ban-user", { userId: "no-such-user" })).status).toBe(404);
      expect((await admin.post("/admin/unban-user", { userId: "no-such-user" })).body.code).toBe("USER_NOT_FOUND");
    });
  });

  describe("sessions of other users", () => {
    it("lists a user's sessions, revokes one by token, then all", async () => {
      const user = await signUp(t);
      const second = t.agent();
      await second.post("/sign-in/email", { email: user.email, password: PASSWORD });
      const listed = await admin.post("/admin/list-user-sessions", { userId: user.user.id });
      expect(listed.status).toBe(200);
      expect(listed.body.sessions).toHaveLength(2);
      expect(listed.body.sessions[0]).toMatchObject({ userId: user.user.id, impersonatedBy: null });
      const revokeOne = await admin.post("/admin/revoke-user-session", { sessionToken: user.token });
      expect(revokeOne.body).toEqual({ success: true });
      expect((await user.agent.get("/get-session", LIVE)).body).toBeNull();
      expect((await second.get("/get-session", LIVE)).body.user.id).toBe(user.user.id);
      expect((await admin.post("/admin/revoke-user-sessions", { userId: user.user.id })).body).toEqual({
        success: true,
      });
      expect((await second.get("/get-session", LIVE)).body).toBeNull();
      expect((await admin.post("/admin/list-user-sessions", { userId: user.user.id })).body.sessions).toEqual([]);
    });
  });

  describe("impersonation", () => {
    it("impersonates a user with a short, marked session, then stops and restores the admin's own session", async () => {
      const target = await signUp(t, { email: "target@example.com" });
      const adminToken = (await admin.get("/get-session", LIVE)).body.session.token;
      const started = await admin.post("/admin/impersonate-user", { userId: target.user.id });
      expect(started.status).toBe(200);
      expect(started.body.user.id).toBe(target.user.id);
      expect(started.body.session).toMatchObject({ userId: target.user.id, impersonatedBy: adminId });
      expect(Date.parse(started.body.session.expiresAt) - t.clock.now).toBe(3_600_000);
      expect(started.setCookies.find((c) => c.startsWith("better-auth.admin_session="))).toMatch(/Max-Age=604800/);
      expect(started.setCookies.find((c) => c.startsWith("better-auth.session_token="))).not.toMatch(/Max-Age/);
      const during = await admin.get("/get-session", LIVE);
      expect(during.body.user.email).toBe("target@example.com");
      expect(during.body.session.impersonatedBy).toBe(adminId);
      expect((await admin.get("/admin/list-users")).status).toBe(403);
      // The target's own session list does not show the admin's impersonation session.
      const ownList = await admin.get("/list-sessions");
      expect(ownList.body.map((s: { token: string }) => s.token)).toEqual([hashSessionToken(target.token!)]);

      const stopped = await admin.post("/admin/stop-impersonating");
      expect(stopped.status).toBe(200);
      expect(stopped.body.user.id).toBe(adminId);
      expect(stopped.body.session.token).toBe(adminToken);
      expect(admin.cookie("admin_session")).toBeUndefined();
      const after = await admin.get("/get-session", LIVE);
      expect(after.body.user.id).toBe(adminId);
      expect(after.body.session.token).toBe(adminToken);
      const remaining = await admin.post("/admin/list-user-sessions", { userId: target.user.id });
      expect(remaining.body.sessions.map((s: { token: string }) => s.token)).toEqual([hashSessionToken(target.token!)]);
    });

    it("ends an impersonation session when its short lifetime runs out", async () => {
      const target = await signUp(t);
      const adminAgent = t.agent();
      await adminAgent.post("/sign-in/email", { email: "root@example.com", password: PASSWORD });
      const started = await adminAgent.post("/admin/impersonate-user", { userId: target.user.id });
      // Without the dont_remember cookie a session would normally be refreshed; an impersonation never is.
      adminAgent.jar.delete([...adminAgent.jar.keys()].find((k) => k.endsWith("dont_remember"))!);
      t.clock.advance(1_800_000);
      expect((await adminAgent.get("/get-session", LIVE)).body.session.expiresAt).toBe(started.body.session.expiresAt);
      t.clock.advance(1_801_000);
      expect((await adminAgent.get("/get-session", LIVE)).body).toBeNull();
    });

    it("refuses stop without an impersonation, unknown targets, and a forged admin cookie", async () => {
      const notImpersonating = await admin.post("/admin/stop-impersonating");
      expect(notImpersonating.status).toBe(400);
      expect(notImpersonating.body).toEqual({
        code: "YOU_ARE_NOT_IMPERSONATING_ANYONE",
        message: "You are not impersonating anyone",
      });
      expect((await t.agent().post("/admin/stop-impersonating")).status).toBe(401);
      expect((await admin.post("/admin/impersonate-user", { userId: "no-such-user" })).status).toBe(404);

      const target = await signUp(t);
      const adminAgent = t.agent();
      await adminAgent.post("/sign-in/email", { email: "root@example.com", password: PASSWORD });
      await adminAgent.post("/admin/impersonate-user", { userId: target.user.id });
      const name = [...adminAgent.jar.keys()].find((k) => k.endsWith("admin_session"))!;
      adminAgent.jar.set(name, `${encodeURIComponent(`${plain.token}:`)}.forged`);
      const forged = await adminAgent.post("/admin/stop-impersonating");
      expect(forged.status).toBe(400);
      expect(forged.body.code).toBe("FAILED_TO_FIND_ADMIN_SESSION");
      expect((await adminAgent.get("/get-session", LIVE)).body.user.id).toBe(target.user.id);
    });

    it("refuses to impersonate a user who holds any admin permission, for an admin and for the server token", async () => {
      // Given another admin, and a user holding admin among several roles
      const otherAdmin = await signUp(t);
      await t.server().post("/admin/set-role", { userId: otherAdmin.user.id, role: "admin" });
      const partAdmin = await signUp(t);
      await t.server().post("/admin/set-role", { userId: partAdmin.user.id, role: ["user", "admin"] });
      const impersonations = () =>
        t.ctx.db.selectFrom("session").select("id").where("impersonatedBy", "is not", null).execute();
      const before = (await impersonations()).length;

      // When an admin tries to impersonate either, it is a 403 with a clear message and nothing changes
      for (const target of [otherAdmin, partAdmin]) {
        const res = await admin.post("/admin/impersonate-user", { userId: target.user.id });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: "YOU_CANNOT_IMPERSONATE_ADMINS", message: "You cannot impersonate admins" });
        expect(res.setCookies).toEqual([]);
      }
      expect((await admin.get("/get-session", LIVE)).body.user.id).toBe(adminId);

      // Then the server token (which holds every permission) is refused the same way, whoever's cookie rides along
      for (const agent of [admin, plain.agent]) {
        const asServer = await agent.post(
          "/admin/impersonate-user",
          { userId: otherAdmin.user.id },
          { headers: { authorization: `Bearer ${SERVER_TOKEN}` } },
        );
        expect(asServer.status).toBe(403);
        expect(asServer.body.code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
      }
      expect(await impersonations()).toHaveLength(before);
    });

    it("gives an impersonation session of a non-admin no admin powers", async () => {
      // Given an admin impersonating a plain user
      const target = await signUp(t);
      const adminAgent = t.agent();
      await adminAgent.post("/sign-in/email", { email: "root@example.com", password: PASSWORD });
      expect((await adminAgent.post("/admin/impersonate-user", { userId: target.user.id })).status).toBe(200);

      // When the impersonation session calls admin routes, every one is refused as for the user
      expect((await adminAgent.get("/admin/list-users")).status).toBe(403);
      expect((await adminAgent.post("/admin/set-role", { userId: target.user.id, role: "admin" })).status).toBe(403);
      expect((await adminAgent.post("/admin/ban-user", { userId: plain.user.id })).status).toBe(403);
      expect((await adminAgent.post("/admin/impersonate-user", { userId: plain.user.id })).status).toBe(403);
      expect((await adminAgent.post("/admin/has-permission", { permissions: { user: ["list"] } })).body.success).toBe(
        false,
      );

      // Then stopping gives the admin back their own powers
      expect((await adminAgent.post("/admin/stop-impersonating")).status).toBe(200);
      expect((await adminAgent.get("/admin/list-users")).status).toBe(200);
      expect((await t.agent().post("/sign-in/email", { email: plain.email, password: PASSWORD })).status).toBe(200);
    });

    it("refuses to impersonate a banned user", async () => {
      const target = await signUp(t);
      await admin.post("/admin/ban-user", { userId: target.user.id });
      const res = await admin.post("/admin/impersonate-user", { userId: target.user.id });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("BANNED_USER");
      expect((await admin.get("/get-session", LIVE)).body.user.id).toBe(adminId);
    });
  });

  describe("remove-user and set-user-password", () => {
    it("removes a user with their sessions, but not yourself", async () => {
      const doomed = await signUp(t);
      expect((await admin.post("/admin/remove-user", { userId: doomed.user.id })).body).toEqual({ success: true });
      expect((await doomed.agent.get("/get-session", LIVE)).body).toBeNull();
      expect((await t.agent().post("/sign-in/email", { email: doomed.email, password: PASSWORD })).status).toBe(401);
      expect((await admin.post("/admin/remove-user", { userId: doomed.user.id })).status).toBe(404);
      const self = await admin.post("/admin/remove-user", { userId: adminId });
      expect(self.status).toBe(400);
      expect(self.body.code).toBe("YOU_CANNOT_REMOVE_YOURSELF");
    });

    it("sets a user's password within the configured length, creating a credential account if needed", async () => {
      const user = await signUp(t);
      expect(
        (await admin.post("/admin/set-user-password", { userId: user.user.id, newPassword: "brand-new-password" }))
          .body,
      ).toEqual({ status: true });
      expect((await t.agent().post("/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(401);
      expect(
        (await t.agent().post("/sign-in/email", { email: user.email, password: "brand-new-password" })).status,
      ).toBe(200);
      expect(
        (await admin.post("/admin/set-user-password", { userId: user.user.id, newPassword: "short" })).body.code,
      ).toBe("PASSWORD_TOO_SHORT");
      expect(
        (await admin.post("/admin/set-user-password", { userId: "no-such-user", newPassword: "brand-new-password" }))
          .status,
      ).toBe(404);

      const social = await signUp(t);
      await t.ctx.db.deleteFrom("account").where("userId", "=", social.user.id).execute();
      await admin.post("/admin/set-user-password", { userId: social.user.id, newPassword: "first-password-1" });
      expect(
        (await t.agent().post("/sign-in/email", { email: social.email, password: "first-password-1" })).status,
      ).toBe(200);
    });
  });

  describe("POST /admin/has-permission", () => {
    it("answers for the signed-in user, a named role, or a user named by the server", async () => {
      const ask = (agent: Agent, body: object) => agent.post("/admin/has-permission", body);
      expect((await ask(admin, { permissions: { user: ["ban", "list"], session: ["revoke"] } })).body).toEqual({
        error: null,
        success: true,
      });
      expect((await ask(plain.agent, { permissions: { user: ["list"] } })).body).toEqual({
        error: null,
        success: false,
      });
      expect((await ask(admin, { permissions: { user: ["fly"] } })).body.success).toBe(false);
      expect((await ask(t.agent(), { role: "admin", permission: { session: ["list"] } })).body.success).toBe(true);
      expect((await ask(t.agent(), { role: "user", permissions: { session: ["list"] } })).body.success).toBe(false);
      expect((await ask(t.server(), { userId: adminId, permissions: { user: ["delete"] } })).body.success).toBe(true);
      expect((await ask(t.server(), { userId: plain.user.id, permissions: { user: ["delete"] } })).body.success).toBe(
        false,
      );
      expect((await ask(t.agent(), { userId: adminId, permissions: { user: ["delete"] } })).status).toBe(401);
      const none = await ask(admin, {});
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
    });
  });
});

describe("admin configuration", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { admin: { adminRoles: ["admin", "superadmin"] } } });
  });
  afterAll(() => t.close());

  it("gives every configured admin role the whole capability", async () => {
    const boss = await signUp(t);
    await t.server().post("/admin/set-role", { userId: boss.user.id, role: "superadmin" });
    expect((await boss.agent.get("/admin/list-users")).status).toBe(200);
  });

  it("gives users listed in adminUserIds the whole capability whatever their role", async () => {
    const listed = await signUp(t);
    expect((await listed.agent.get("/admin/list-users")).status).toBe(403);
    // adminUserIds is read on every check; the id only exists once the user does.
    t.ctx.config.admin.adminUserIds.push(listed.user.id);
    expect((await listed.agent.get("/admin/list-users")).status).toBe(200);
    expect(
      (await listed.agent.post("/admin/has-permission", { permissions: { session: ["delete"] } })).body.success,
    ).toBe(true);
  });

  it("counts every configured admin role and adminUserIds as admins that cannot be impersonated", async () => {
    const boss = await signUp(t);
    await t.server().post("/admin/set-role", { userId: boss.user.id, role: "admin" });
    const superadmin = await signUp(t);
    await t.server().post("/admin/set-role", { userId: superadmin.user.id, role: "superadmin" });
    const listed = await signUp(t);
    t.ctx.config.admin.adminUserIds.push(listed.user.id);
    for (const target of [superadmin, listed]) {
      const res = await boss.agent.post("/admin/impersonate-user", { userId: target.user.id });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    }
    const ordinary = await signUp(t);
    expect((await boss.agent.post("/admin/impersonate-user", { userId: ordinary.user.id })).status).toBe(200);
  });

  it("lets admins impersonate admins only with admin.allowImpersonatingAdmins", async () => {
    const open = await createTestContext({ config: { admin: { allowImpersonatingAdmins: true } } });
    try {
      const boss = await signUp(open);
      const other = await signUp(open);
      for (const user of [boss, other])
        await open.server().post("/admin/set-role", { userId: user.user.id, role: "admin" });
      const res = await boss.agent.post("/admin/impersonate-user", { userId: other.user.id });
      expect(res.status).toBe(200);
      expect(res.body.session.impersonatedBy).toBe(boss.user.id);
      // The documented trade-off: the impersonation carries the target's admin permissions.
      expect((await boss.agent.get("/admin/list-users")).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it("answers 404 for /admin routes when the capability is off", async () => {
    const off = await createTestContext({ config: { admin: { enabled: false } } });
    try {
      expect((await off.server().get("/admin/list-users")).status).toBe(404);
      const { user } = await signUp(off);
      expect(user.role).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
