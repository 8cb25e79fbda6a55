import { decodeJwt } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../../helpers/agent.ts";
import {
  createTestContext,
  describeEachDialect,
  signUp,
  TEST_ORIGIN,
  type TestContext,
} from "../../helpers/context.ts";
import { type LogoutReceiver, startLogoutReceiver, verifyLogoutToken } from "../../helpers/logout-receiver.ts";
import { codeFlow, type RegisteredClient, registerClient, tokenRequest } from "../../helpers/oidc-rp.ts";
import { formTokenOf, postForm } from "../../helpers/pages.ts";

// Every way a session at authd ends, not only RP-initiated logout, ends the token families it began at once
// and sends each client that registered a back-channel logout URI one signed logout token per session:
// sign-out (API and pages), the user revoking a session or all of them, an administrator revoking them,
// a ban, a user's deletion, a password change that ends the other sessions. The attacker's side: a client
// without a back-channel URI is told nothing, and one user's sign-out tells nothing about another's.

describeEachDialect("OpenID Provider: back-channel logout on every end of a session", (dialect) => {
  let t: TestContext;
  let receiver: LogoutReceiver;
  let clientCount = 0;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_OIDC_PROVIDER: "on" } });
    receiver = await startLogoutReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** Two clients of the test's own: one told over the back channel (at `path`), one without a back-channel URI. */
  async function clients() {
    clientCount += 1;
    const path = `/rp-${clientCount}`;
    const told = await registerClient(t, { skipConsent: true, backchannelLogoutURI: receiver.url(path) });
    const silent = await registerClient(t, { skipConsent: true });
    return { path, told, silent };
  }

  const offline = { scope: "openid email offline_access" };
  const sidOf = (idToken: string) => decodeJwt(idToken).sid;

  async function secondSession(email: string, password: string): Promise<Agent> {
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", { email, password })).status).toBe(200);
    return agent;
  }

  /** The logout tokens that reached `path` once background delivery settled, each verified as an RP would. */
  async function toldAt(path: string, rp: RegisteredClient) {
    await t.ctx.settle();
    const jwks = (await t.agent().get("/jwks")).body;
    const tokens = receiver.tokensAt(path);
    return Promise.all(
      tokens.map((token) =>
        verifyLogoutToken(token, { jwks, issuer: TEST_ORIGIN, clientId: rp.client.id, now: t.clock.now }),
      ),
    );
  }

  /** The client's access and refresh tokens of this flow no longer work. */
  async function expectEnded(rp: RegisteredClient, tokens: { access_token: string; refresh_token: string }) {
    const refreshed = await tokenRequest(t, rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.body.error).toBe("invalid_grant");
    const info = await t
      .agent()
      .get("/oauth2/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(info.status).toBe(401);
  }

  async function expectLive(tokens: { access_token: string }) {
    const info = await t
      .agent()
      .get("/oauth2/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(info.status).toBe(200);
  }

  it("API sign-out: one verified logout token per client and session, nothing for a client without a URI", async () => {
    const { path, told, silent } = await clients();
    const { agent, user } = await signUp(t);
    const first = await codeFlow(t, agent, told, offline);
    const second = await codeFlow(t, agent, told, offline); // a second family of the same session
    const other = await codeFlow(t, agent, silent, offline);
    const before = receiver.received.length;

    expect((await agent.post("/sign-out", {})).status).toBe(200);

    const [payload, ...more] = await toldAt(path, told);
    expect(more).toEqual([]);
    expect(payload.sub).toBe(user.id);
    expect(payload.sid).toBe(sidOf(first.tokens.id_token));
    expect(receiver.received.slice(before).map((entry) => [entry.path, entry.contentType])).toEqual([
      [path, "application/x-www-form-urlencoded"],
    ]);
    for (const flow of [first, second]) await expectEnded(told, flow.tokens);
    await expectEnded(silent, other.tokens);
  });

  it("the pages' sign-out form tells the clients too", async () => {
    const { path, told } = await clients();
    const { agent, user } = await signUp(t);
    const flow = await codeFlow(t, agent, told, offline);
    const out = await postForm(agent, "/sign-out", { csrf: await formTokenOf(agent, "/sign-in") });
    expect(out.status).toBe(303);
    const [payload] = await toldAt(path, told);
    expect(payload).toMatchObject({ sub: user.id, sid: sidOf(flow.tokens.id_token) });
    await expectEnded(told, flow.tokens);
  });

  it("revoking one's own session by handle, or all of them, tells the clients of exactly those sessions", async () => {
    const { path, told } = await clients();
    const { agent, email, password } = await signUp(t);
    const phone = await secondSession(email, password);
    const onLaptop = await codeFlow(t, agent, told, offline);
    const onPhone = await codeFlow(t, phone, told, offline);
    const listed = (await agent.get("/list-sessions")).body as { id: string; token: string }[];
    const phoneSession = (await phone.get("/get-session")).body.session.id;
    const handle = listed.find((session) => session.id === phoneSession)?.token;

    expect((await agent.post("/revoke-session", { token: handle })).status).toBe(200);
    const afterOne = await toldAt(path, told);
    expect(afterOne.map((payload) => payload.sid)).toEqual([sidOf(onPhone.tokens.id_token)]);
    await expectEnded(told, onPhone.tokens);
    await expectLive(onLaptop.tokens);

    expect((await agent.post("/revoke-sessions", {})).status).toBe(200);
    const afterAll = await toldAt(path, told);
    expect(afterAll.map((payload) => payload.sid)).toEqual([
      sidOf(onPhone.tokens.id_token),
      sidOf(onLaptop.tokens.id_token),
    ]);
    await expectEnded(told, onLaptop.tokens);
  });

  it("revoking the other sessions keeps this one's clients and tells the others'", async () => {
    const { path, told } = await clients();
    const { agent, email, password } = await signUp(t);
    const phone = await secondSession(email, password);
    const here = await codeFlow(t, agent, told, offline);
    const there = await codeFlow(t, phone, told, offline);
    expect((await agent.post("/revoke-other-sessions", {})).status).toBe(200);
    expect((await toldAt(path, told)).map((payload) => payload.sid)).toEqual([sidOf(there.tokens.id_token)]);
    await expectEnded(told, there.tokens);
    await expectLive(here.tokens);
  });

  it("an administrator revoking a session or a user's sessions tells the clients and ends their refresh", async () => {
    const { path, told } = await clients();
    const { agent, user, email, password } = await signUp(t);
    const phone = await secondSession(email, password);
    const onPhone = await codeFlow(t, phone, told, offline);
    const here = await codeFlow(t, agent, told, offline);
    const listed = await t.server().post("/admin/list-user-sessions", { userId: user.id });
    const phoneId = (await phone.get("/get-session")).body.session.id;
    const handle = (listed.body.sessions as { id: string; token: string }[]).find((s) => s.id === phoneId)?.token;
    const one = await t.server().post("/admin/revoke-user-session", { sessionToken: handle });
    expect(one.status).toBe(200);
    expect((await toldAt(path, told)).map((payload) => payload.sid)).toEqual([sidOf(onPhone.tokens.id_token)]);
    await expectEnded(told, onPhone.tokens);
    await expectLive(here.tokens);

    expect((await t.server().post("/admin/revoke-user-sessions", { userId: user.id })).status).toBe(200);
    expect(await toldAt(path, told)).toHaveLength(2);
    await expectEnded(told, here.tokens);
  });

  it("a ban ends every session: logout tokens, and the refresh after it is invalid_grant", async () => {
    const { path, told, silent } = await clients();
    const { agent, user } = await signUp(t);
    const flow = await codeFlow(t, agent, told, offline);
    const other = await codeFlow(t, agent, silent, offline);
    expect((await t.server().post("/admin/ban-user", { userId: user.id })).status).toBe(200);
    const [payload] = await toldAt(path, told);
    expect(payload.sub).toBe(user.id);
    await expectEnded(told, flow.tokens);
    await expectEnded(silent, other.tokens);
  });

  it("a password change that ends the other sessions tells their clients", async () => {
    const { path, told } = await clients();
    const { agent, email, password } = await signUp(t);
    const phone = await secondSession(email, password);
    const there = await codeFlow(t, phone, told, offline);
    const change = await agent.post("/change-password", {
      currentPassword: password,
      newPassword: "another-horse-battery",
      revokeOtherSessions: true,
    });
    expect(change.status).toBe(200);
    expect((await toldAt(path, told)).map((payload) => payload.sid)).toContain(sidOf(there.tokens.id_token));
    await expectEnded(told, there.tokens);
  });

  it("deleting a user tells the clients of every session the user had", async () => {
    const { path, told } = await clients();
    const { agent, user } = await signUp(t);
    const flow = await codeFlow(t, agent, told, offline);
    expect((await t.server().post("/admin/remove-user", { userId: user.id })).status).toBe(200);
    const [payload] = await toldAt(path, told);
    expect(payload).toMatchObject({ sub: user.id, sid: sidOf(flow.tokens.id_token) });
    await expectEnded(told, flow.tokens);
  });

  it("attacker: another user's sign-out or revocation tells nothing about this user's clients", async () => {
    const { path, told } = await clients();
    const victim = await signUp(t);
    const flow = await codeFlow(t, victim.agent, told, offline);
    const attacker = await signUp(t);
    await codeFlow(t, attacker.agent, (await clients()).told, offline);
    // The victim's session handle, tried by the attacker: refused, and nothing is sent.
    const handle = ((await victim.agent.get("/list-sessions")).body as { token: string }[])[0].token;
    expect((await attacker.agent.post("/revoke-session", { token: handle })).status).toBe(401);
    expect((await attacker.agent.post("/revoke-sessions", {})).status).toBe(200);
    expect(await toldAt(path, told)).toEqual([]);
    await expectLive(flow.tokens);
  });
});
