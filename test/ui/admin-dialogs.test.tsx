import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "../../src/db/repositories/users.ts";
import { createSession } from "../../src/services/sessions/sessions.ts";
import { createUser } from "../../src/services/users.ts";
import { createAdminData } from "../../ui/data.ts";
import { columnWidths } from "../../ui/terminal/components/Table.tsx";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { KEYS, waitForFrame } from "./keys.ts";

// Issue 15, points 8 and 19: the terminal UI's ban with an expiry, the issue dialog's limits, a warning
// before issuing a key to a banned user, and columns as wide as their content.

describe("authd admin dialogs", () => {
  let t: TestContext;
  let app: ReturnType<typeof render> | undefined;
  beforeAll(async () => {
    t = await createTestContext();
    for (const [email, name] of [
      ["erin@example.com", "Erin"],
      ["frank@example.com", "Frank"],
    ]) {
      const user = await createUser(t.ctx, { email, name, password: "password-123" });
      await createSession(t.ctx, user, { ipAddress: "2001:db8:85a3::8a2e:370:7334", userAgent: `agent-of-${name}` });
    }
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
  });
  afterAll(() => t.close());

  const openUser = async (search: string) => {
    app = render(<AdminApp data={createAdminData(t.ctx)} />);
    const ui = app;
    await waitForFrame(ui, "user(s)");
    ui.stdin.write(search);
    await waitForFrame(ui, (f) => f.includes(" 1 user(s)") && !f.includes("loading"));
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, `<${search}@example.com>`);
    return ui;
  };
  const answer = async (ui: ReturnType<typeof render>, label: string, text: string) => {
    await waitForFrame(ui, label);
    ui.stdin.write(text);
    ui.stdin.write(KEYS.enter);
  };

  it("bans for a given time, refusing an unreadable one until it is corrected", async () => {
    const ui = await openUser("erin");
    ui.stdin.write("b");
    await answer(ui, "ban reason:", "chargebacks");
    await answer(ui, "ban for:", "soon");
    await waitForFrame(ui, "expected 30d, 12h, 15m or seconds");
    for (let i = 0; i < 4; i += 1) ui.stdin.write(KEYS.backspace);
    ui.stdin.write("7d");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "banned erin@example.com for 7d");
    // The header may wrap before the date on a narrow terminal.
    await waitForFrame(ui, (f) => /BANNED \(chargebacks\) until\s+\d{4}-\d\d-\d\d/.test(f));
    const erin = await findUserByEmail(t.ctx.db, "erin@example.com");
    expect(Number(erin?.banExpires) - t.clock.now).toBe(7 * 86_400_000);
  });

  it("warns before issuing a key to a banned user; no issues nothing", async () => {
    const ui = await openUser("erin");
    ui.stdin.write("k");
    await waitForFrame(
      ui,
      "This user is banned: their API keys are refused while the ban lasts. Issue a key anyway? [y/N]",
    );
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("Issue a key anyway"));
    const erin = await findUserByEmail(t.ctx.db, "erin@example.com");
    expect(await t.ctx.db.selectFrom("apikey").selectAll().where("userId", "=", erin!.id).execute()).toHaveLength(0);
    ui.stdin.write("k");
    await waitForFrame(ui, "Issue a key anyway?");
    ui.stdin.write("y");
    await answer(ui, "API key name:", "despite-ban");
    for (const label of ["rate limit:", "uses in all:", "refill:", "expires in:"]) await answer(ui, label, "");
    await waitForFrame(ui, "API key issued (refused while the ban lasts)");
  });

  it("issues a key with the limits chosen in the dialog, showing the default rate limit", async () => {
    const ui = await openUser("frank");
    ui.stdin.write("k");
    await answer(ui, "API key name:", "billing");
    await waitForFrame(ui, "enter: the default, 10/1d");
    await answer(ui, "rate limit:", "off");
    await answer(ui, "uses in all:", "500");
    await answer(ui, "refill:", "500/1d");
    await answer(ui, "expires in:", "30d");
    await waitForFrame(ui, "API key issued");
    const frank = await findUserByEmail(t.ctx.db, "frank@example.com");
    const [key] = await t.ctx.db.selectFrom("apikey").selectAll().where("userId", "=", frank!.id).execute();
    expect(key).toMatchObject({ name: "billing", remaining: 500, refillAmount: 500, refillInterval: 86_400_000 });
    expect(Boolean(key.rateLimitEnabled)).toBe(false);
    expect(Number(key.expiresAt) - t.clock.now).toBe(30 * 86_400_000);
  });

  it("shows an IPv6 address whole: columns are as wide as their content", async () => {
    const ui = await openUser("frank");
    await waitForFrame(ui, (f) => f.includes("agent-of-Frank") && f.includes("2001:db8:85a3::8a2e:370:7334"));
  });
});

describe("column widths", () => {
  it("give each column its content's width when it fits", () => {
    expect(columnWidths([{}, {}, {}], 80, [5, 16, 10])).toEqual([5, 16, 10]);
  });

  it("cut the widest columns first when the content does not fit, keeping short ones whole", () => {
    const widths = columnWidths([{}, {}, {}, {}], 100, [16, 16, 40, 60]);
    expect(widths.slice(0, 2)).toEqual([16, 16]);
    expect(widths.reduce((sum, w) => sum + w, 0)).toBe(100 - 2 - 3);
    expect(Math.abs(widths[2] - widths[3])).toBeLessThanOrEqual(1);
  });

  it("honour a column's cap", () => {
    expect(columnWidths([{ width: 8 }, {}], 80, [30, 10])).toEqual([8, 10]);
  });
});
