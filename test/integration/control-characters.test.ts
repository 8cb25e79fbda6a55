import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect, SERVER_TOKEN } from "../helpers/context.ts";
import { LiveAgent, liveSignUp, uniqueEmail } from "../helpers/live-agent.ts";
import { type PeerResponse, peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// NUL and other control characters in strings that reach the database: a 400 on every dialect (Postgres
// used to answer 500 for NUL; SQLite stored it).

const refusedFor = (res: PeerResponse, field: string) => {
  expect(res.status, res.text).toBe(400);
  expect(res.json).toMatchObject({ code: "VALIDATION_ERROR", message: `${field} must not contain control characters` });
};

describeEachDialect("control characters in input", (dialect) => {
  let authd: RunningAuthd;
  let base: string;
  beforeAll(async () => {
    authd = await startAuthd({ dialect, env: { AUTH_API_KEY_METADATA: "on" } });
    base = authd.url;
  });
  afterAll(() => authd.close());

  const server = (path: string, body: unknown) =>
    peerRequest(base, `/api/auth${path}`, { body, headers: { authorization: `Bearer ${SERVER_TOKEN}` } });

  it("refuses NUL and escape characters in user fields, and creates no user", async () => {
    const email = uniqueEmail("nul");
    const agent = new LiveAgent(base);
    refusedFor(
      await agent.post("/sign-up/email", { email, password: "correct-horse-battery", name: "Eve\u0000" }),
      "name",
    );
    refusedFor(
      await agent.post("/sign-up/email", {
        email,
        password: "correct-horse-battery",
        name: "Eve",
        image: "https://img.example/\u001b[2J.png",
      }),
      "image",
    );
    refusedFor(
      await agent.post("/sign-up/email", {
        email,
        password: "correct-horse-battery",
        name: "Eve",
        company: "Acme\u0000",
      }),
      "company",
    );
    refusedFor(
      await agent.post("/sign-in/email", { email: `${email}\u0000`, password: "correct-horse-battery" }),
      "email",
    );
    const later = await agent.post("/sign-up/email", { email, password: "correct-horse-battery", name: "Eve" });
    expect(later.status).toBe(200);

    refusedFor(await agent.post("/update-user", { name: "Tab\tname" }), "name");
    refusedFor(await agent.post("/update-user", { image: "x\u0000" }), "image");
    const session = await agent.get("/get-session");
    expect((session.json as { user: { name: string; image: string | null } }).user).toMatchObject({
      name: "Eve",
      image: null,
    });
  });

  it("refuses control characters in organization names and slugs and in API key names, ids and metadata", async () => {
    const { agent } = await liveSignUp(base);
    refusedFor(await agent.post("/organization/create", { name: "Acme", slug: "acme\u0000" }), "slug");
    refusedFor(
      await agent.post("/organization/create", { name: "Acme\u001b[31m", slug: `acme-${Date.now()}` }),
      "name",
    );
    refusedFor(
      await agent.post("/organization/create", {
        name: "Acme",
        slug: `acme-${Date.now()}`,
        metadata: { plan: "pro\u0000" },
      }),
      "metadata.plan",
    );
    refusedFor(await agent.post("/api-key/create", { name: "key\u0000" }), "name");
    refusedFor(
      await agent.post("/api-key/create", { name: "k", metadata: { nested: [{ note: "a\u0000b" }] } }),
      "metadata.nested.0.note",
    );
    refusedFor(await agent.post("/api-key/create", { name: "k", metadata: { "key\u0000": 1 } }), "metadata.key\u0000");
    refusedFor(await agent.post("/api-key/delete", { keyId: "\u0000" }), "keyId");
    refusedFor(await agent.post("/organization/set-active", { organizationId: "\u0000" }), "organizationId");
  });

  it("keeps tab and line breaks in free text (metadata values, ban reasons)", async () => {
    const { agent, user } = await liveSignUp(base);
    const note = "line one\r\nline two\tindented";
    const key = await agent.post("/api-key/create", { name: "with note", metadata: { note } });
    expect(key.status, key.text).toBe(200);
    expect((key.json as { metadata: { note: string } }).metadata.note).toBe(note);
    const org = await agent.post("/organization/create", {
      name: "Notes",
      slug: `notes-${Date.now()}`,
      metadata: { about: note },
    });
    expect(org.status, org.text).toBe(200);
    refusedFor(await server("/admin/ban-user", { userId: user.id, banReason: "spam\u0000" }), "banReason");
    const banned = await server("/admin/ban-user", { userId: user.id, banReason: "spam\nand abuse" });
    expect(banned.status, banned.text).toBe(200);
    expect((banned.json as { user: { banReason: string } }).user.banReason).toBe("spam\nand abuse");
  });

  it("refuses control characters in query and path parameters", async () => {
    const { agent } = await liveSignUp(base);
    refusedFor(await agent.get("/organization/get-invitation", { id: "\u0000" }), "id");
    refusedFor(await agent.get("/api-key/get", { id: "a\u0000" }), "id");
    refusedFor(
      await agent.get("/organization/list-members", {
        filterField: "role",
        filterValue: "\u0000",
        filterOperator: "contains",
      }),
      "filterValue",
    );
    refusedFor(
      await peerRequest(base, "/api/auth/admin/list-users?searchValue=%00", {
        headers: { authorization: `Bearer ${SERVER_TOKEN}` },
      }),
      "searchValue",
    );
    const link = await peerRequest(base, "/api/auth/reset-password/%00?callbackURL=/reset");
    refusedFor(link, "token");
    const verify = await peerRequest(base, "/api/auth/verify-email?token=%00");
    refusedFor(verify, "token");
  });

  it("drops control characters from the stored user agent instead of refusing the sign-in", async () => {
    const { email, password } = await liveSignUp(base);
    const agent = new LiveAgent(base);
    const res = await agent.request("POST", "/sign-in/email", {
      body: { email, password },
      headers: { "user-agent": "Agent/1.0\tExtra" },
    });
    expect(res.status).toBe(200);
    const session = await agent.get("/get-session");
    expect((session.json as { session: { userAgent: string } }).session.userAgent).toBe("Agent/1.0Extra");
  });
});

describe("control characters in a provider's profile", () => {
  it("drops them from the name and refuses an id or address that holds them", async () => {
    const { profileFromClaims } = await import("../../src/services/oauth/profiles.ts");
    expect(
      profileFromClaims({ sub: "42", email: "a@example.com", email_verified: true, name: "Ann\u0000\u001b[2J Lee" }),
    ).toMatchObject({ id: "42", name: "Ann[2J Lee" });
    expect(profileFromClaims({ sub: "4\u00002", email: "a@example.com" })).toBeNull();
    expect(profileFromClaims({ sub: "42", email: "a\u0000@example.com", picture: "https://x/\u0000" })).toMatchObject({
      email: null,
      image: null,
    });
  });
});
