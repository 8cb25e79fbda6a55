import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { auditRows } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";

// Impersonating from the console (issue 32): a reason and a time limit are required; the browser becomes the
// user and lands on their account page, where a banner names the user and the end; its button restores the
// admin's session. Refused: an admin as the target, a role without user:impersonate, a forged duration, a
// stop from another origin. Every event the impersonation causes names both ids.

const ROLES = { support: { user: ["list", "get", "ban"] } };
const LIVE = { query: { disableCookieCache: true } };

describeEachDialect("impersonating from the console", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES, impersonationSessionDuration: 7200 } } });
  });
  afterAll(() => t.close());

  const screen = (id: string) => `/console/users/${encodeURIComponent(id)}`;
  async function impersonate(agent: Agent, id: string, fields: Record<string, string>, headers = {}) {
    const csrf = await formTokenOf(agent, screen(id));
    return postForm(agent, `${screen(id)}/impersonate`, { csrf, ...fields }, headers);
  }
  const who = async (agent: Agent) => (await agent.get("/get-session", LIVE)).body;

  it("switches to the user with a reason and a limit, shows the banner, and stops back to the admin", async () => {
    const admin = await consoleUser(t);
    const target = await signUp(t, { name: '<b>Ann</b> "Tester"' });
    const since = new Set((await auditRows(t.ctx)).map((row) => row.id));
    const started = await impersonate(admin.agent, target.user.id, { reason: "ticket 31: invoices", duration: "1800" });
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toBe("/account");
    const session = await who(admin.agent);
    expect(session.user.id).toBe(target.user.id);
    expect(session.session.impersonatedBy).toBe(admin.id);
    expect(Date.parse(session.session.expiresAt)).toBe(t.clock.now + 1800 * 1000);

    const account = await browse(admin.agent, "/account");
    expect(account.status).toBe(200);
    expect(account.text).toContain('class="authd-impersonation"');
    expect(account.text).toContain("&lt;b&gt;Ann&lt;/b&gt;");
    expect(account.text).not.toContain("<b>Ann</b>");
    const ends = new Date(t.clock.now + 1800 * 1000).toISOString().slice(0, 16).replace("T", " ");
    expect(account.text).toContain(`until ${ends} UTC`);
    expect(account.text).toContain('action="/console/stop-impersonating"');

    // As the user, a change on the account page: the event names the admin and both ids.
    expect((await admin.agent.post("/update-user", { name: "Renamed By Support" })).status).toBe(200);

    const csrf = hiddenFields(account.text).csrf;
    const foreign = await postForm(
      admin.agent,
      "/console/stop-impersonating",
      { csrf },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect((await who(admin.agent)).user.id).toBe(target.user.id);
    const stopped = await postForm(admin.agent, "/console/stop-impersonating", { csrf });
    expect(stopped.status).toBe(303);
    expect(stopped.headers.get("location")).toBe(
      `${screen(target.user.id)}?notice=console.user.notice.impersonationStopped`,
    );
    expect((await who(admin.agent)).user.id).toBe(admin.id);
    const back = await browse(admin.agent, stopped.headers.get("location") ?? "");
    expect(back.text).not.toContain('class="authd-impersonation"');
    expect(back.text).toContain("You stopped impersonating this user");

    const rows = (await auditRows(t.ctx)).filter((row) => !since.has(row.id));
    const byType = Object.fromEntries(rows.map((row) => [row.type, row]));
    expect(JSON.parse(byType.impersonation_started.data)).toMatchObject({ reason: "ticket 31: invoices" });
    for (const type of ["impersonation_started", "user_updated", "impersonation_stopped"]) {
      expect([byType[type].actorType, byType[type].actorId], type).toEqual(["admin", admin.id]);
      expect(byType[type].subjectId, type).toBe(target.user.id);
    }
    for (const type of ["user_updated", "impersonation_stopped"])
      expect(JSON.parse(byType[type].data), type).toMatchObject({
        impersonatedBy: admin.id,
        impersonatedUserId: target.user.id,
      });
  });

  it("requires a reason and one of the offered lengths", async () => {
    const admin = await consoleUser(t);
    const target = await signUp(t);
    const noReason = await impersonate(admin.agent, target.user.id, { reason: " ", duration: "3600" });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain("Give a reason.");
    const forged = await impersonate(admin.agent, target.user.id, { reason: "r", duration: "999999" });
    expect(forged.status).toBe(400);
    const page = await browse(admin.agent, screen(target.user.id));
    expect(page.text).toContain('<option value="3600" selected="">1 hour</option>');
    expect(page.text).toContain('<option value="7200">2 hours</option>');
    expect(page.text).not.toContain('value="14400"');
    expect((await who(admin.agent)).user.id).toBe(admin.id);
  });

  it("refuses an admin as the target and a role without user:impersonate", async () => {
    const admin = await consoleUser(t);
    const otherAdmin = await consoleUser(t);
    const refused = await impersonate(admin.agent, otherAdmin.id, { reason: "curious", duration: "3600" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Users who hold an admin permission cannot be impersonated.");
    const support = await consoleUser(t, "support");
    const target = await signUp(t);
    expect((await impersonate(support.agent, target.user.id, { reason: "r", duration: "3600" })).status).toBe(403);
    expect((await who(support.agent)).user.id).toBe(support.id);
    expect((await who(admin.agent)).user.id).toBe(admin.id);
  });

  it("answers a stop from a browser that is not impersonating with a refusal page", async () => {
    const admin = await consoleUser(t);
    const csrf = await formTokenOf(admin.agent, "/console/users");
    const res = await postForm(admin.agent, "/console/stop-impersonating", { csrf });
    expect(res.status).toBe(400);
    expect(res.text).toContain("This browser is not impersonating anyone.");
    expect((await who(admin.agent)).user.id).toBe(admin.id);
  });
});
