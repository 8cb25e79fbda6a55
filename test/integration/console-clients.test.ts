import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../../src/crypto/random.ts";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType, expectNoSecretsInAudit } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { registerClient } from "../helpers/oidc-rp.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";

// Issue 32: the console's OpenID clients (/console/clients), offered while the OpenID Provider is on: register
// a client (its secret shown once, in the answer to the form, and kept as a digest), change its name and URIs,
// give it a new secret, remove it. The attacker's side: signed out, a plain user, a role that reads the
// clients but may not change them, one without them, forms without the token or from another origin, HTML in
// a client's name. SQLite only: the data layer is the admin routes' (admin-oauth-clients.test.ts, both dialects).

const ROLES = { viewer: { oauthClient: ["list"] }, support: { user: ["list"] } };
const CALLBACK = "https://rp.example.com/callback";

describe("the console's OpenID clients", () => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestContext({ config: { oidcProvider: { enabled: true }, admin: { roles: ROLES } } });
    ({ agent: admin, id: adminId } = await consoleUser(t));
  });
  afterAll(() => t.close());

  const post = async (agent: Agent, path: string, fields: Record<string, string>) =>
    postForm(agent, `/console/clients${path}`, { csrf: await formTokenOf(agent, "/console/clients"), ...fields });
  const register = (fields: Record<string, string> = {}) =>
    post(admin, "/create", {
      name: "Grafana",
      redirectURIs: CALLBACK,
      type: "confidential",
      idTokenAlg: "RS256",
      ...fields,
    });
  const stored = (id: string) => t.ctx.db.selectFrom("oauthClient").selectAll().where("id", "=", id).executeTakeFirst();
  /** The secret a page shows in its read-only field. */
  const secretOn = (html: string) => html.match(/authd-console-code"[^>]*value="([A-Za-z0-9]{48})"/)?.[1];

  it("registers a confidential client and shows its secret once, keeping only its digest", async () => {
    const answer = await register({ postLogoutRedirectURIs: "https://rp.example.com/bye https://rp.example.com/bye2" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain("it is not shown again");
    const secret = secretOn(answer.text) ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    const id = answer.text.match(/Client ID: ([A-Za-z0-9]{32})/)?.[1] ?? "";
    const row = await stored(id);
    expect(row?.secretHash).toBe(sha256Base64Url(secret));
    expect(JSON.parse(row?.postLogoutRedirectURIs ?? "[]")).toEqual([
      "https://rp.example.com/bye",
      "https://rp.example.com/bye2",
    ]);
    const later = await browse(admin, `/console/clients/${id}`);
    expect(later.status).toBe(200);
    expect(later.text).not.toContain(secret);
    expect((await browse(admin, "/console/clients")).text).toContain(`href="/console/clients/${id}"`);
    await expectNoSecretsInAudit(t.ctx, [secret]);
    const [event] = (await eventsOfType(t.ctx, "oidc_client_created")).filter((e) => e.data.includes(id));
    expect(event).toMatchObject({ actorType: "admin", actorId: adminId });
  });

  it("registers a public client without a secret, and refuses URIs registration refuses, keeping what was typed", async () => {
    const answer = await register({ name: "Mobile", type: "public", redirectURIs: "com.example.app:/cb" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(
      /^\/console\/clients\/[A-Za-z0-9]{32}\?notice=console\.clients\.notice\.registered$/,
    );
    const before = (await t.ctx.db.selectFrom("oauthClient").select("id").execute()).length;
    for (const redirectURIs of [
      "https://rp.example.com/cb#frag",
      "javascript:alert(1)",
      "",
      "https://user:pw@rp.example.com/",
    ]) {
      const refused = await register({ name: "Refused", redirectURIs });
      expect(refused.status, redirectURIs).toBe(400);
      expect(refused.text).toContain("Check the name and the URIs");
      expect(refused.text).toContain('value="Refused"');
    }
    expect((await register({ idTokenAlg: "HS256" })).status).toBe(400);
    expect((await register({ type: "other" })).status).toBe(400);
    expect((await t.ctx.db.selectFrom("oauthClient").select("id").execute()).length).toBe(before);
  });

  it("changes a client's name and URIs; its name is drawn as text", async () => {
    const { client } = await registerClient(t);
    const changed = await post(admin, `/${client.id}/update`, {
      name: "<img src=x onerror=alert(1)>",
      redirectURIs: `${CALLBACK} https://rp.example.com/two`,
      postLogoutRedirectURIs: "",
      backchannelLogoutURI: "",
      skipConsent: "yes",
    });
    expect(changed.status).toBe(303);
    const row = await stored(client.id);
    expect(row?.name).toBe("<img src=x onerror=alert(1)>");
    expect(JSON.parse(row?.redirectURIs ?? "[]")).toEqual([CALLBACK, "https://rp.example.com/two"]);
    const [event] = (await eventsOfType(t.ctx, "oidc_client_updated")).filter((e) => e.data.includes(client.id));
    expect(JSON.parse(event.data).fields).toEqual(["client_name", "redirect_uris", "skip_consent"]);
    const shown = await browse(admin, `/console/clients/${client.id}`);
    expect(shown.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(shown.text).not.toContain("<img src=x");
  });

  it("gives a new secret and removes a client, each only with the box ticked", async () => {
    const { client, secret } = await registerClient(t);
    expect((await post(admin, `/${client.id}/rotate-secret`, {})).status).toBe(400);
    expect((await stored(client.id))?.secretHash).toBe(sha256Base64Url(secret ?? ""));
    const rotated = await post(admin, `/${client.id}/rotate-secret`, { confirm: "yes" });
    expect(rotated.status).toBe(200);
    const fresh = secretOn(rotated.text) ?? "";
    expect((await stored(client.id))?.secretHash).toBe(sha256Base64Url(fresh));
    expect((await post(admin, `/${client.id}/delete`, {})).status).toBe(400);
    const removed = await post(admin, `/${client.id}/delete`, { confirm: "yes" });
    expect(removed.headers.get("location")).toBe("/console/clients?notice=console.clients.notice.deleted");
    expect(await stored(client.id)).toBeUndefined();
    expect((await browse(admin, `/console/clients/${client.id}`)).status).toBe(404);
  });

  it("refuses the signed out, plain users, a reader's changes and a role without clients, and forged forms", async () => {
    const { client, secret } = await registerClient(t);
    const digest = sha256Base64Url(secret ?? "");
    expect((await browse(t.agent(), "/console/clients")).status).toBe(302);
    const plain = await signUp(t);
    expect((await browse(plain.agent, "/console/clients")).status).toBe(403);
    const support = (await consoleUser(t, "support")).agent;
    expect((await browse(support, "/console/clients")).status).toBe(403);
    expect((await browse(support, "/console/users")).text).not.toContain('href="/console/clients"');
    const viewer = (await consoleUser(t, "viewer")).agent;
    const read = await browse(viewer, `/console/clients/${client.id}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain("/rotate-secret");
    expect((await browse(viewer, "/console/clients")).text).not.toContain("/console/clients/create");
    const changes: [string, Record<string, string>][] = [
      ["/create", { name: "Evil", redirectURIs: "https://evil.example/cb", type: "confidential" }],
      [`/${client.id}/update`, { name: "Evil", redirectURIs: "https://evil.example/cb" }],
      [`/${client.id}/rotate-secret`, { confirm: "yes" }],
      [`/${client.id}/delete`, { confirm: "yes" }],
    ];
    for (const [path, fields] of changes) expect((await post(viewer, path, fields)).status, path).toBe(403);
    const token = await formTokenOf(admin, "/console/clients");
    const forged = [
      await postForm(admin, `/console/clients/${client.id}/rotate-secret`, { confirm: "yes" }),
      await postForm(
        admin,
        `/console/clients/${client.id}/rotate-secret`,
        { confirm: "yes", csrf: token },
        {
          origin: "https://evil.example",
        },
      ),
    ];
    for (const attempt of forged) expect(attempt.status).toBe(403);
    expect((await stored(client.id))?.secretHash).toBe(digest);
    expect((await stored(client.id))?.name).toBe("Test RP");
  });
});

describe("the console's OpenID clients, with the OpenID Provider off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("are not there, nor in the navigation", async () => {
    const admin = await consoleUser(t);
    expect((await browse(admin.agent, "/console/clients")).status).toBe(404);
    expect((await browse(admin.agent, "/console/users")).text).not.toContain('href="/console/clients"');
  });
});
