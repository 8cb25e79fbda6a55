import { afterAll, beforeAll, expect, it } from "vitest";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// A user ending their own sessions leaves a session_revoked event (actor: the user) in the audit log, in
// the transaction of the revocation; a refused revocation (another user's session) leaves none.

describeEachDialect("audit log: a user revoking their own sessions", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const signInAgain = async (email: string, password: string) => {
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", { email, password })).status).toBe(200);
    return agent;
  };

  it("records revoke-session, revoke-other-sessions and revoke-sessions, and nothing for a refusal", async () => {
    const { agent, email, password, user } = await signUp(t);
    const second = await signInAgain(email, password);
    const third = await signInAgain(email, password);
    const other = await signUp(t);
    const before = (await eventsOfType(t.ctx, "session_revoked")).length;

    // Another user's handle: 401, nothing revoked, nothing recorded.
    const theirs = (await other.agent.get("/list-sessions")).body[0].token as string;
    expect((await agent.post("/revoke-session", { token: theirs })).status).toBe(401);
    expect(await eventsOfType(t.ctx, "session_revoked")).toHaveLength(before);

    const thirdId = (await third.get("/get-session")).body.session.id as string;
    const listed = (await agent.get("/list-sessions")).body as { id: string; token: string }[];
    const target = listed.find((s) => s.id === thirdId) as { id: string; token: string };
    expect((await second.post("/revoke-session", { token: target.token })).status).toBe(200);
    expect((await agent.post("/revoke-other-sessions", {})).status).toBe(200);
    expect((await agent.post("/revoke-sessions", {})).status).toBe(200);

    const rows = (await eventsOfType(t.ctx, "session_revoked")).slice(before);
    const mine = rows.filter((row) => row.subjectId === user.id);
    expect(mine).toHaveLength(3);
    for (const row of mine) expect(row).toMatchObject({ actorType: "user", actorId: user.id, outcome: "success" });
    const data = mine.map((row) => JSON.parse(row.data));
    expect(data).toContainEqual({ scope: "session", count: 1, sessionId: target.id });
    expect(data.filter((d) => d.scope === "user")).toHaveLength(2);
  });
});
