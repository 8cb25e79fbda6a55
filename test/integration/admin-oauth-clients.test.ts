import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../../src/crypto/random.ts";
import { authenticateClient } from "../../src/services/oidc-provider/clients.ts";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType, expectNoSecretsInAudit } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// Issue 32: the OpenID Provider's clients over the admin API (/admin/oauth-clients), which the web console
// and `authd clients` share services with. Reading needs oauthClient:list, changing oauthClient:manage; a
// secret is answered once and kept as a SHA-256 digest only; each change is an event naming the admin.

const CALLBACK = "https://rp.example.com/callback";
const CONFIG = {
  oidcProvider: { enabled: true },
  admin: { roles: { support: { user: ["list", "ban"] }, viewer: { oauthClient: ["list"] } } },
};

async function storedDigest(t: TestContext, clientId: string): Promise<string | null | undefined> {
  const row = await t.ctx.db
    .selectFrom("oauthClient")
    .select("secretHash")
    .where("id", "=", clientId)
    .executeTakeFirst();
  return row?.secretHash;
}

describeEachDialect("admin routes over the OpenID Provider's clients", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;

  /** A signed-in user holding `role` (set by the server, then signed in again so the session carries it). */
  const withRole = async (role: string) => {
    const user = await signUp(t);
    await t.server().post("/admin/set-role", { userId: user.user.id, role });
    const agent = t.agent();
    await agent.post("/sign-in/email", { email: user.email, password: user.password });
    return { agent, id: user.user.id as string };
  };
  const create = (agent: Agent, body: Record<string, unknown> = {}) =>
    agent.post("/admin/oauth-clients", { client_name: "Grafana", redirect_uris: [CALLBACK], ...body });

  beforeAll(async () => {
    t = await createTestContext({ dialect, config: CONFIG });
    ({ agent: admin, id: adminId } = await withRole("admin"));
  });
  afterAll(() => t.close());

  it("registers a confidential client, answers its secret once and keeps only its digest", async () => {
    const created = await create(admin, { post_logout_redirect_uris: ["https://rp.example.com/bye"] });
    expect(created.status, created.text).toBe(200);
    const { client_id: id, client_secret: secret } = created.body;
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(created.body).toMatchObject({ client_name: "Grafana", token_endpoint_auth_method: "client_secret_basic" });
    expect(await storedDigest(t, id)).toBe(sha256Base64Url(secret));

    const listed = await admin.get("/admin/oauth-clients");
    expect(listed.body.clients.find((c: { client_id: string }) => c.client_id === id)).not.toHaveProperty(
      "client_secret",
    );
    const shown = await admin.get(`/admin/oauth-clients/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ...created.body, client_secret: undefined });
    expect(shown.text).not.toContain(secret);

    const rotated = await admin.post(`/admin/oauth-clients/${id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.client_secret).not.toBe(secret);
    expect(await storedDigest(t, id)).toBe(sha256Base64Url(rotated.body.client_secret));
    expect(await authenticateClient(t.ctx, id, secret)).toBeNull();
    expect((await authenticateClient(t.ctx, id, rotated.body.client_secret))?.id).toBe(id);

    await expectNoSecretsInAudit(t.ctx, [secret, rotated.body.client_secret]);
    for (const type of ["oidc_client_created", "oidc_client_secret_rotated"]) {
      const [event] = (await eventsOfType(t.ctx, type)).filter((row) => row.data.includes(id));
      expect(event, type).toMatchObject({ actorType: "admin", actorId: adminId, subjectId: null });
    }
  });

  it("registers a public client without a secret; it has none to rotate", async () => {
    const created = await create(admin, {
      token_endpoint_auth_method: "none",
      redirect_uris: ["http://127.0.0.1/callback"],
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).not.toHaveProperty("client_secret");
    expect(await storedDigest(t, created.body.client_id)).toBeNull();
    const rotated = await admin.post(`/admin/oauth-clients/${created.body.client_id}/rotate-secret`, {});
    expect(rotated.status).toBe(400);
    expect(rotated.body).toEqual({
      code: "INVALID_OAUTH_CLIENT_REGISTRATION",
      message: "a public client has no secret to rotate",
    });
  });

  it("changes only the fields given, under registration's rules for URIs", async () => {
    const { client_id: id } = (await create(admin, { backchannel_logout_uri: "https://rp.example.com/logout" })).body;
    const renamed = await admin.post(`/admin/oauth-clients/${id}`, {
      client_name: "<b>Grafana</b>",
      redirect_uris: [CALLBACK, "https://rp.example.com/other"],
      backchannel_logout_uri: null,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      client_name: "<b>Grafana</b>",
      redirect_uris: [CALLBACK, "https://rp.example.com/other"],
      backchannel_logout_uri: null,
      skip_consent: false,
    });
    const [event] = (await eventsOfType(t.ctx, "oidc_client_updated")).filter((row) => row.data.includes(id));
    expect(JSON.parse(event.data)).toEqual({
      clientId: id,
      fields: ["client_name", "redirect_uris", "backchannel_logout_uri"],
    });
    for (const body of [
      { redirect_uris: ["https://rp.example.com/cb#fragment"] },
      { redirect_uris: ["javascript:alert(1)"] },
      { redirect_uris: [] },
      { client_name: "" },
      { client_name: "line\u0000break" },
      { post_logout_redirect_uris: ["https://user:pw@rp.example.com/"] },
    ]) {
      const refused = await admin.post(`/admin/oauth-clients/${id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.get(`/admin/oauth-clients/${id}`)).body.redirect_uris).toHaveLength(2);
    expect((await admin.post("/admin/oauth-clients/no-such-client", { client_name: "X" })).status).toBe(404);
  });

  it("removes a client; it is gone for every route after", async () => {
    const { client_id: id } = (await create(admin)).body;
    const removed = await admin.post(`/admin/oauth-clients/${id}/delete`, {});
    expect(removed.body).toEqual({ success: true });
    expect((await admin.get(`/admin/oauth-clients/${id}`)).status).toBe(404);
    expect((await admin.post(`/admin/oauth-clients/${id}/delete`, {})).status).toBe(404);
    expect((await admin.post(`/admin/oauth-clients/${id}/rotate-secret`, {})).status).toBe(404);
  });

  it("refuses callers without the permission, and changes nothing for them", async () => {
    const { client_id: id, client_secret: secret } = (await create(admin)).body;
    const before = await storedDigest(t, id);
    const plain = await signUp(t);
    const support = (await withRole("support")).agent;
    const viewer = (await withRole("viewer")).agent;
    const changes: [string, Record<string, unknown>][] = [
      ["/admin/oauth-clients", { client_name: "Evil", redirect_uris: ["https://evil.example/cb"] }],
      [`/admin/oauth-clients/${id}`, { redirect_uris: ["https://evil.example/cb"] }],
      [`/admin/oauth-clients/${id}/rotate-secret`, {}],
      [`/admin/oauth-clients/${id}/delete`, {}],
    ];
    for (const agent of [plain.agent, support, viewer])
      for (const [path, body] of changes) expect((await agent.post(path, body)).status, path).toBe(403);
    for (const agent of [plain.agent, support]) {
      expect((await agent.get("/admin/oauth-clients")).status).toBe(403);
      expect((await agent.get(`/admin/oauth-clients/${id}`)).status).toBe(403);
    }
    const refusal = await support.get("/admin/oauth-clients");
    expect(refusal.body.message).toContain("You are not allowed to access resource");
    // The viewer's role reads the clients, never a secret.
    const viewed = await viewer.get("/admin/oauth-clients");
    expect(viewed.status).toBe(200);
    expect(viewed.text).not.toContain(secret);
    for (const [path, body] of changes) expect((await t.agent().post(path, body)).status).toBe(401);
    expect((await t.agent().get("/admin/oauth-clients")).status).toBe(401);
    // From another site, even the admin's browser changes nothing.
    const forged = await admin.post(
      `/admin/oauth-clients/${id}/rotate-secret`,
      {},
      {
        headers: { origin: "https://evil.example" },
      },
    );
    expect(forged.status).toBe(403);
    expect(await storedDigest(t, id)).toBe(before);
    const clients = (await admin.get("/admin/oauth-clients")).body.clients as { client_name: string }[];
    expect(clients.map((c) => c.client_name)).not.toContain("Evil");
    // The server token holds every permission.
    expect((await t.server().get(`/admin/oauth-clients/${id}`)).status).toBe(200);
  });
});

describe("admin routes over clients, with the OpenID Provider off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("do not exist", async () => {
    expect((await t.server().get("/admin/oauth-clients")).status).toBe(404);
    const created = await t.server().post("/admin/oauth-clients", { client_name: "X", redirect_uris: [CALLBACK] });
    expect(created.status).toBe(404);
  });
});
