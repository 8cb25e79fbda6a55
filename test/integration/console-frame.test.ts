import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// The console's door (issue 32): signed out → sign-in and back; a user without any admin permission → the
// refusal; a narrower role → only the screens it may open; the pages' headers; values as text.

const ROLES = { support: { user: ["list"] }, auditor: { audit: ["list"] } };

describeEachDialect("the web console's door", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES } } });
  });
  afterAll(() => t.close());

  it("sends a signed-out browser through sign-in and back to the screen it asked for", async () => {
    const page = await browse(t.agent(), "/console/users?search=ann");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(
      `/account/sign-in?redirect=${encodeURIComponent("/console/users?search=ann")}`,
    );
  });

  it("refuses a user who holds no admin permission, and an API key or bearer token is no way in", async () => {
    const plain = await signUp(t);
    const page = await browse(plain.agent, "/console/users");
    expect(page.status).toBe(403);
    expect(page.text).toContain("The console is for administrators");
    expect(page.text).not.toContain(plain.user.email);
    const admin = await consoleUser(t);
    const token = (await admin.agent.get("/get-session")).body.session.token as string;
    const bearer = await t
      .agent()
      .get("/console/users", { headers: { authorization: `Bearer ${token}`, accept: "text/html" } });
    expect(bearer.status).toBe(302);
  });

  it("lets an admin in, with the pages' policy, no framing and every stored value as text", async () => {
    const admin = await consoleUser(t);
    await signUp(t, { name: '<img src=x onerror="alert(1)">', email: `tag-${dialect}@example.com` });
    const page = await browse(admin.agent, `/console/users?search=tag-${dialect}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.text).toContain(`tag-${dialect}@example.com`);
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).toContain("&lt;img src=x");
    expect(page.text).toMatch(/<script type="module" src="\/account\/assets\/console-[0-9a-f]+\.js">/);
    expect(page.text).toContain("1–1 of 1");
  });

  it("shows a narrower role only the screens it holds, and refuses the others", async () => {
    const support = await consoleUser(t, "support");
    expect((await browse(support.agent, "/console/users")).status).toBe(200);
    const auditor = await consoleUser(t, "auditor");
    const refused = await browse(auditor.agent, "/console/users");
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Your admin role does not allow this part of the console");
  });

  it("pages through a search, and takes hostile paging values as the first page", async () => {
    const admin = await consoleUser(t);
    for (const offset of ["-5", "1e309", "abc", "99999999999999999999"]) {
      const page = await browse(admin.agent, `/console/users?offset=${offset}`);
      expect(page.status).toBe(200);
    }
    const past = await browse(admin.agent, "/console/users?offset=100000");
    expect(past.text).toContain("Nothing found");
  });
});

describe("the console switched off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { console: { enabled: false } } });
  });
  afterAll(() => t.close());

  it("is not there (404), while the pages still are", async () => {
    const admin = await consoleUser(t);
    expect((await browse(admin.agent, "/console/users")).status).toBe(404);
    expect((await browse(admin.agent, "/console")).status).toBe(404);
    expect((await browse(admin.agent, "/account")).status).toBe(200);
  });
});
