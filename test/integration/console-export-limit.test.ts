import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// An audit export reads the whole filtered log, so its download counts against the audit log API route's rate
// limit (the console is no way around a limit), and over it the admin sees the pages' refusal (429 with
// Retry-After), not a file.

describeEachDialect("the audit export's rate limit", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      config: { rateLimit: { enabled: true, customRules: { "/admin/audit-log": { window: 60, max: 2 } } } },
    });
  });
  afterAll(() => t.close());

  it("counts each download against /admin/audit-log and refuses the third in the window", async () => {
    const admin = await consoleUser(t);
    for (const _ of [1, 2]) expect((await browse(admin.agent, "/console/audit/export?format=jsonl")).status).toBe(200);
    const refused = await browse(admin.agent, "/console/audit/export?format=csv");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-disposition")).toBeNull();
    // The screens themselves are not counted: the audit log still opens.
    expect((await browse(admin.agent, "/console/audit")).status).toBe(200);
  });
});
