import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";

// A JWT minted while an admin impersonates a user names the admin as the actor (RFC 8693, act.sub): a
// service accepting it can tell the admin's doing from the user's. The user's own tokens never carry it.

const LIVE = { query: { disableCookieCache: true } };

describeEachDialect("JWT of an impersonation session", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    const signedUp = await signUp(t, { email: "jwt-admin@example.com" });
    admin = signedUp.agent;
    adminId = signedUp.user.id;
    expect((await t.server().post("/admin/set-role", { userId: adminId, role: "admin" })).status).toBe(200);
  });
  afterAll(() => t.close());

  async function verified(token: string) {
    const jwks = createLocalJWKSet((await t.agent().get("/jwks")).body);
    const { payload } = await jwtVerify(token, jwks, {
      issuer: TEST_ORIGIN,
      audience: TEST_ORIGIN,
      currentDate: new Date(t.clock.now),
    });
    return payload;
  }

  it("names the impersonating admin in act.sub, from /token and from get-session's set-auth-jwt", async () => {
    const target = await signUp(t, { email: "jwt-target@example.com" });
    const own = await verified((await target.agent.get("/token")).body.token);
    expect(own.sub).toBe(target.user.id);
    expect(own).not.toHaveProperty("act");

    expect((await admin.post("/admin/impersonate-user", { userId: target.user.id })).status).toBe(200);
    const minted = await verified((await admin.get("/token")).body.token);
    expect(minted.sub).toBe(target.user.id);
    expect(minted.act).toEqual({ sub: adminId });
    for (const options of [LIVE, {}]) {
      const session = await admin.get("/get-session", options);
      expect(session.body.session.impersonatedBy).toBe(adminId);
      const header = await verified(session.headers.get("set-auth-jwt") ?? "");
      expect(header).toMatchObject({ sub: target.user.id, act: { sub: adminId } });
    }

    // The same user's claims at the same moment: the user's own token is not the admin's, nor the reverse.
    const ownAgain = await target.agent.get("/get-session", LIVE);
    expect(decodeJwt(ownAgain.headers.get("set-auth-jwt") ?? "")).not.toHaveProperty("act");
    expect(decodeJwt((await target.agent.get("/token")).body.token)).not.toHaveProperty("act");

    expect((await admin.post("/admin/stop-impersonating")).status).toBe(200);
    const back = await verified((await admin.get("/token")).body.token);
    expect(back.sub).toBe(adminId);
    expect(back).not.toHaveProperty("act");
  });
});
