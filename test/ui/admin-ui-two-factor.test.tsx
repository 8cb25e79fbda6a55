import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateBackupCodes, generateTotpSecret, writeTwoFactor } from "../../src/services/two-factor/store.ts";
import { createUser, findUserById, updateUser } from "../../src/services/users.ts";
import { createAdminData } from "../../ui/data.ts";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { KEYS, waitForFrame } from "./keys.ts";

describe("authd admin terminal UI: two-factor", () => {
  let t: TestContext;
  let app: ReturnType<typeof render> | undefined;
  let enrolledId: string;
  beforeAll(async () => {
    t = await createTestContext();
    const enrolled = await createUser(t.ctx, { email: "dora@example.com", name: "Dora", password: "password-123" });
    await writeTwoFactor(t.ctx, enrolled.id, generateTotpSecret(), generateBackupCodes(t.ctx));
    await updateUser(t.ctx, enrolled.id, { twoFactorEnabled: true });
    enrolledId = enrolled.id;
    await createUser(t.ctx, { email: "evan@example.com", name: "Evan", password: "password-123" });
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
    await waitForFrame(
      ui,
      (f) => f.includes(`search: ${search}`) && f.includes(" 1 user(s)") && !f.includes("loading"),
    );
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "Sessions (");
    return ui;
  };

  it("shows 2FA off, and offers no reset, for a user without it", async () => {
    const ui = await openUser("evan");
    expect(ui.lastFrame()).toContain("2FA off");
    expect(ui.lastFrame()).not.toContain("reset 2FA");
  });

  it("shows 2FA on and removes it after confirmation", async () => {
    const ui = await openUser("dora");
    expect(ui.lastFrame()).toContain("2FA on");
    expect(ui.lastFrame()).toContain("reset 2FA");
    ui.stdin.write("f");
    await waitForFrame(ui, "Remove the second factor of dora@example.com?");
    ui.stdin.write("y");
    await waitForFrame(ui, (f) => f.includes("two-factor removed for dora@example.com") && f.includes("2FA off"));
    expect(Boolean((await findUserById(t.ctx, enrolledId))?.twoFactorEnabled)).toBe(false);
    const rows = await t.ctx.db.selectFrom("twoFactor").select("id").where("userId", "=", enrolledId).execute();
    expect(rows).toEqual([]);
  });
});
