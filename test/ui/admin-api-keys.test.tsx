import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { createUser } from "../../src/services/users.ts";
import { createAdminData } from "../../ui/data.ts";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { KEYS, waitForFrame } from "./keys.ts";

// The terminal UI's API keys screen (issue 32's parity with the console): every user's keys, searched and
// paged, revoked only after a confirmation, and then refused where the key is presented.

const CTRL_X = "\u0018";
const settled = (text: string) => (frame: string) => frame.includes(text) && !frame.includes("loading");

describeEachDialect("authd admin: API keys screen", (dialect) => {
  let t: TestContext;
  let app: ReturnType<typeof render> | undefined;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    const alice = await createUser(t.ctx, { email: "alice.keys@example.com", name: "Alice", password: "password-123" });
    const bob = await createUser(t.ctx, { email: "bob.keys@example.com", name: "Bob", password: "password-123" });
    const issue = async (userId: string, name: string, extra: { remaining?: number; expiresIn?: number } = {}) => {
      keys[name] = (await createApiKey(t.ctx, { userId, name, ...extra }, { isServer: true }, CLI_SOURCE)).key;
    };
    await issue(alice.id, "deploy-alpha");
    await issue(alice.id, "metrics-gamma", { remaining: 42 });
    await issue(bob.id, "ci-beta", { expiresIn: 86_400 });
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
  });
  afterAll(() => t.close());

  const verifies = async (key: string) => (await t.server().post("/api-key/verify", { key })).body.valid as boolean;

  /** The app, tabbed to the API keys screen (the fifth). */
  const openKeys = async () => {
    app = render(<AdminApp data={createAdminData(t.ctx)} />);
    const ui = app;
    await waitForFrame(ui, "user(s)");
    for (let i = 0; i < 4; i += 1) ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, settled("API key(s)"));
    return ui;
  };
  const search = async (ui: ReturnType<typeof render>, text: string, total: number) => {
    ui.stdin.write(text);
    return waitForFrame(ui, (f) => f.includes(`search: ${text}`) && settled(` ${total} API key(s)`)(f));
  };

  it("lists every user's keys with owner, state, expiry, uses left and last use", async () => {
    const ui = await openKeys();
    const frame = await waitForFrame(ui, settled("3 API key(s)"));
    expect(frame.split("\n")[0]).toMatch(/ audit +api keys +webhooks$/);
    for (const name of ["deploy-alpha", "metrics-gamma", "ci-beta"]) expect(frame).toContain(name);
    expect(frame).toContain("alice.keys@example.com");
    expect(frame).toContain("bob.keys@example.com");
    expect(frame).toMatch(/metrics-gamma .* 42 /);
    expect(frame).toMatch(/deploy-alpha .*never .*unlimited .*never/);
    const expiry = new Date(t.ctx.now() + 86_400_000).toISOString().replace("T", " ").slice(0, 16);
    expect(frame).toMatch(new RegExp(`ci-beta .*${expiry}`));
    expect(frame).toContain("ctrl-x revoke");
    // The stored keys never reach the screen, only their first characters.
    for (const key of Object.values(keys)) expect(frame).not.toContain(key);
  });

  it("searches by owner email and by name, and esc clears the search", async () => {
    const ui = await openKeys();
    const bobs = await search(ui, "bob.keys", 1);
    expect(bobs).toContain("ci-beta");
    expect(bobs).not.toContain("deploy-alpha");
    ui.stdin.write(KEYS.escape);
    await waitForFrame(ui, (f) => f.includes("3 API key(s)") && f.includes("deploy-alpha"));
    const named = await search(ui, "gamma", 1);
    expect(named).toContain("metrics-gamma");
    expect(named).not.toContain("ci-beta");
  });

  it("pages through more keys than the screen holds", async () => {
    const pager = await createUser(t.ctx, { email: "pager.keys@example.com", name: "Pager" });
    for (let i = 0; i < 25; i += 1)
      await createApiKey(t.ctx, { userId: pager.id, name: `page-${i}` }, { isServer: true }, CLI_SOURCE);
    const ui = await openKeys();
    const first = await search(ui, "pager.keys", 25);
    expect(first).toContain("page 1 of 2");
    ui.stdin.write(KEYS.right);
    const second = await waitForFrame(ui, settled("page 2 of 2 · 25 API key(s)"));
    const shown = (frame: string): string[] => frame.match(/page-\d+/g) ?? [];
    expect(shown(first).length + shown(second).length).toBe(25);
    expect(shown(second).some((name) => shown(first).includes(name))).toBe(false);
  });

  it("asks before revoking: no keeps the key working, yes revokes it and it no longer verifies", async () => {
    const ui = await openKeys();
    await search(ui, "deploy-alpha", 1);
    expect(await verifies(keys["deploy-alpha"])).toBe(true);

    ui.stdin.write(CTRL_X);
    await waitForFrame(ui, "Revoke API key deploy-alpha of alice.keys@example.com? Apps using it stop working. [y/N]");
    ui.stdin.write("n");
    const kept = await waitForFrame(ui, (f) => !f.includes("[y/N]"));
    expect(kept).toContain("deploy-alpha");
    expect(kept).toContain("search: deploy-alpha");
    expect(await verifies(keys["deploy-alpha"])).toBe(true);
    expect(await eventsOfType(t.ctx, "api_key_deleted")).toHaveLength(0);

    ui.stdin.write(CTRL_X);
    await waitForFrame(ui, "Revoke API key deploy-alpha");
    ui.stdin.write("y");
    const after = await waitForFrame(
      ui,
      (f) => f.includes("API key deploy-alpha revoked") && settled("0 API key(s)")(f),
    );
    expect(after).toContain("no API keys match");
    expect(await verifies(keys["deploy-alpha"])).toBe(false);
    expect(await verifies(keys["metrics-gamma"])).toBe(true);
    const [event] = await eventsOfType(t.ctx, "api_key_deleted");
    expect(event).toMatchObject({ actorType: "cli", outcome: "success" });
  });

  it("says so when the key was revoked elsewhere meanwhile, and revokes nothing else", async () => {
    const ui = await openKeys();
    await search(ui, "metrics-gamma", 1);
    const [row] = await t.ctx.db.selectFrom("apikey").select("id").where("name", "=", "metrics-gamma").execute();
    await t.ctx.db.deleteFrom("apikey").where("id", "=", row.id).execute();
    ui.stdin.write(CTRL_X);
    await waitForFrame(ui, "Revoke API key metrics-gamma");
    ui.stdin.write("y");
    await waitForFrame(ui, "✗ API Key not found");
    expect(await verifies(keys["ci-beta"])).toBe(true);
  });

  it("opens the highlighted key's owner, and esc comes back to the same search", async () => {
    const ui = await openKeys();
    await search(ui, "ci-beta", 1);
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, (f) => f.includes("<bob.keys@example.com>") && f.includes("API keys (1)"));
    ui.stdin.write(KEYS.escape);
    await waitForFrame(ui, (f) => f.includes("search: ci-beta") && f.includes("1 API key(s)"));
  });
});
