import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// The console's audit log (/console/audit, /console/audit/:id, /console/audit/export) and its home
// (/console), with the attacker's side: signed out, no admin permission, a support role without the
// export, hostile values stored in events drawn as text and made inert in the CSV, hostile filter values.

const ROLES = {
  support: { user: ["list"], audit: ["list"] },
  auditor: { audit: ["list"] },
  desk: { user: ["list"] },
};

describeEachDialect("the console's audit log and overview", (dialect) => {
  let t: TestContext;
  let counter = 0;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES } } });
  });
  afterAll(() => t.close());

  async function insertEvent(fields: Record<string, unknown>): Promise<string> {
    counter += 1;
    const id = `console-evt-${dialect}-${counter}`;
    await t.ctx.db
      .insertInto("auditEvent")
      .values({
        id,
        type: "user_updated",
        createdAt: t.clock.now,
        actorType: "admin",
        actorId: null,
        subjectId: null,
        organizationId: null,
        ip: null,
        userAgent: null,
        outcome: "success",
        data: "{}",
        fannedOut: true,
        ...fields,
      })
      .execute();
    return id;
  }

  it("sends a signed-out browser to sign in, and refuses a user without admin permissions", async () => {
    for (const path of ["/console", "/console/audit", "/console/audit/x", "/console/audit/export?format=csv"]) {
      const page = await browse(t.agent(), path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get("location"), path).toContain("/account/sign-in?redirect=");
    }
    const plain = await signUp(t);
    for (const path of ["/console", "/console/audit", "/console/audit/export?format=jsonl"]) {
      const page = await browse(plain.agent, path);
      expect(page.status, path).toBe(403);
      expect(page.text).not.toContain("sign_up");
    }
  });

  it("lists one user's events, keeps the filters in the pager and the downloads, and opens an event", async () => {
    const admin = await consoleUser(t);
    const target = await signUp(t, { email: `target-${dialect}@example.com` });
    for (let n = 0; n < 3; n += 1) {
      t.clock.advance(1000);
      await t.agent().post("/sign-in/email", { email: target.email, password: "wrong-password" });
    }
    const page = await browse(admin.agent, `/console/audit?user=${encodeURIComponent(target.email)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("1–4 of 4");
    expect(page.text.match(/<tr>/g)?.length).toBe(5);
    expect(page.text).toContain(`href="/console/audit/export?user=${encodeURIComponent(target.email)}&amp;format=csv"`);
    const failures = await browse(
      admin.agent,
      `/console/audit?user=${target.user.id}&type=sign_in&type=sign_up&outcome=failure`,
    );
    expect(failures.text).toContain("1–3 of 3");
    expect(failures.text).toContain('<option value="sign_in" selected="">sign_in</option>');
    const paged = await browse(
      admin.agent,
      `/console/audit?user=${target.user.id}&type=sign_in,sign_up&outcome=failure&offset=0`,
    );
    expect(paged.text).toContain("1–3 of 3");

    const id = /href="\/console\/audit\/([^"?]+)"/.exec(page.text)?.[1] ?? "";
    const detail = await browse(admin.agent, `/console/audit/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(target.email);
    expect(detail.text).toContain("invalid_credentials");
    expect((await browse(admin.agent, "/console/audit/no-such-event")).status).toBe(404);
  });

  it("draws every value an event holds as text, never as markup", async () => {
    const admin = await consoleUser(t);
    const id = await insertEvent({
      userAgent: '<img src=x onerror="alert(1)">',
      ip: "<b>1.2.3.4</b>",
      data: JSON.stringify({ fields: ["<script>alert(2)</script>"], note: "</dd><script>alert(3)</script>" }),
    });
    const detail = await browse(admin.agent, `/console/audit/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain("<img src=x");
    expect(detail.text).not.toContain("<script>alert");
    expect(detail.text).not.toContain("<b>1.2.3.4");
    expect(detail.text).toContain("&lt;img src=x");
    expect(detail.text).toContain("&lt;/dd&gt;&lt;script&gt;alert(3)&lt;/script&gt;");
    const list = await browse(admin.agent, "/console/audit?type=user_updated");
    expect(list.text).toContain("&lt;b&gt;1.2.3.4&lt;/b&gt;");
    expect(list.text).not.toContain("<b>1.2.3.4");
  });

  it("takes hostile filter values as no filter, says which, and says when an address is nobody's", async () => {
    const admin = await consoleUser(t);
    const odd = await browse(
      admin.agent,
      "/console/audit?from=2026-02-31&to=yesterday&type=sign_in,%3Cscript%3E&offset=-4&outcome=maybe",
    );
    expect(odd.status).toBe(200);
    expect(odd.text).toContain("Left out, since they could not be read: Event types, From (UTC), To (UTC).");
    expect(odd.text).not.toContain("<script>");
    const nobody = await browse(admin.agent, "/console/audit?user=nobody%40example.com");
    expect(nobody.text).toContain("No user has the address nobody@example.com now.");
    expect(nobody.text).toContain("Nothing found");
    const day = await browse(admin.agent, "/console/audit?from=2026-11-01&to=2026-11-02");
    expect(day.text).toContain('value="2026-11-01T00:00"');
    expect(day.text).toContain('value="2026-11-02T23:59"');
  });

  it("downloads the filtered log as CSV with formulas made inert, and as JSON Lines", async () => {
    const admin = await consoleUser(t);
    const victim = await signUp(t, { email: `csv-${dialect}@example.com` });
    await insertEvent({ subjectId: victim.user.id, userAgent: '=HYPERLINK("https://evil.example","x")' });
    await insertEvent({ subjectId: victim.user.id, userAgent: "@SUM(1+1)", data: JSON.stringify({ a: "-1" }) });
    const csv = await browse(admin.agent, `/console/audit/export?format=csv&user=${victim.user.id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="authd-audit-\d{8}T\d{4}Z\.csv"$/);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toMatch(/^id,createdAt,type,outcome/);
    expect(lines).toHaveLength(5);
    expect(csv.text).toContain('"\'=HYPERLINK(""https://evil.example"",""x"")"');
    expect(csv.text).toContain(",'@SUM(1+1),");
    for (const line of lines.slice(1, -1)) for (const cell of line.split(",")) expect(cell).not.toMatch(/^[=+\-@]/);

    const jsonl = await browse(
      admin.agent,
      `/console/audit/export?format=jsonl&user=${encodeURIComponent(victim.email)}&type=sign_up`,
    );
    expect(jsonl.headers.get("content-type")).toBe("application/jsonl; charset=utf-8");
    const events = jsonl.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events).toMatchObject([{ type: "sign_up", subjectId: victim.user.id }]);
    expect((await browse(admin.agent, "/console/audit/export?format=xlsx")).status).toBe(404);
  });

  it("refuses the download to a support role without audit:export, and shows it no download links", async () => {
    const support = await consoleUser(t, "support");
    const page = await browse(support.agent, "/console/audit");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("/console/audit/export");
    const refused = await browse(support.agent, "/console/audit/export?format=csv");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-disposition")).toBeNull();
    expect(refused.text).not.toContain("id,createdAt,type");
    const desk = await consoleUser(t, "desk");
    expect((await browse(desk.agent, "/console/audit")).status).toBe(403);
    expect((await browse(desk.agent, "/console/audit/x")).status).toBe(403);
  });

  it("is the console's home: the figures an admin may read, the range as links, another screen for others", async () => {
    const admin = await consoleUser(t);
    const home = await browse(admin.agent, "/console");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Active sessions");
    expect(home.text).toContain('aria-current="page" class="authd-console-range-link">Last 24 hours');
    expect(home.text).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Sign-ups per hour over the last 24 hours: /);
    expect(home.text).toContain("Hour (UTC)");
    const month = await browse(admin.agent, "/console?range=30d");
    expect(month.text).toContain('aria-current="page" class="authd-console-range-link">Last 30 days');
    expect(month.text).toContain("Day (UTC)");

    const desk = await consoleUser(t, "desk");
    const plain = await browse(desk.agent, "/console");
    expect(plain.status).toBe(200);
    expect(plain.text).toContain("Users");
    expect(plain.text).not.toContain("Active sessions");
    expect(plain.text).not.toContain("Sign-ups and sign-ins");
    const auditor = await consoleUser(t, "auditor");
    const sent = await browse(auditor.agent, "/console");
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/console/audit");
  });
});
