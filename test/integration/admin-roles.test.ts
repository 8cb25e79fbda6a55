import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRoleProblems, decideAdminPermission } from "../../src/services/admin.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";

// admin.roles: a narrower admin role (a support desk) holds exactly what it names, over the API as in the
// console; a role naming what the statements do not know is refused by config check.

describe("narrower admin roles (admin.roles)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { admin: { roles: { support: { user: ["list", "get", "ban"], session: ["list", "revoke"] } } } },
    });
  });
  afterAll(() => t.close());

  it("lets a support user list and ban users but not delete them or set roles", async () => {
    const support = await signUp(t);
    await t.server().post("/admin/set-role", { userId: support.user.id, role: "support" });
    const target = await signUp(t);
    expect((await support.agent.get("/admin/list-users")).status).toBe(200);
    expect((await support.agent.post("/admin/ban-user", { userId: target.user.id })).status).toBe(200);
    const remove = await support.agent.post("/admin/remove-user", { userId: target.user.id });
    expect(remove.status).toBe(403);
    expect(remove.body.code).toBe("UNAUTHORIZED_TO_ACCESS_RESOURCE");
    expect((await support.agent.post("/admin/set-role", { userId: target.user.id, role: "admin" })).status).toBe(403);
    const asked = await support.agent.post("/admin/has-permission", { permissions: { user: ["delete"] } });
    expect(asked.body.success).toBe(false);
  });

  it("decides per resource: a support role knows nothing of webhooks or settings", () => {
    const actor = { kind: "user", userId: "u1", role: "support" } as const;
    expect(decideAdminPermission(t.ctx, actor, { user: ["ban"] }).allowed).toBe(true);
    expect(decideAdminPermission(t.ctx, actor, { webhook: ["list"] }).allowed).toBe(false);
    expect(decideAdminPermission(t.ctx, actor, { settings: ["read"] }).allowed).toBe(false);
    const admin = { kind: "user", userId: "u2", role: "admin" } as const;
    expect(decideAdminPermission(t.ctx, admin, { settings: ["read"], webhook: ["resend"] }).allowed).toBe(true);
  });

  it("names an unknown resource or action as a configuration problem", () => {
    expect(adminRoleProblems({ support: { user: ["list"] } })).toEqual([]);
    const problems = adminRoleProblems({ support: { users: ["list"], user: ["list", "fly"] } });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('admin.roles.support: unknown resource "users"');
    expect(problems[1]).toContain('admin.roles.support.user: unknown action "fly"');
  });
});
