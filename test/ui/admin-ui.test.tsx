import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateId } from "../../src/crypto/random.ts";
import { findUserByEmail } from "../../src/db/repositories/users.ts";
import { banUser, unbanUser } from "../../src/services/admin.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { createSession } from "../../src/services/sessions/sessions.ts";
import { createUser } from "../../src/services/users.ts";
import { createAdminData } from "../../ui/data.ts";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { KEYS, waitForFrame } from "./keys.ts";

describe("authd admin terminal UI", () => {
  let t: TestContext;
  let app: ReturnType<typeof render> | undefined;
  beforeAll(async () => {
    t = await createTestContext();
    for (const [email, name] of [
      ["alice@example.com", "Alice"],
      ["bob@example.com", "Bob"],
      ["carol@example.com", "Carol"],
    ]) {
      const user = await createUser(t.ctx, { email, name, password: "password-123" });
      await createSession(t.ctx, user, { ipAddress: "10.0.0.7", userAgent: `agent-of-${name}` });
    }
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
  });
  afterAll(() => t.close());

  const open = () => {
    app = render(<AdminApp data={createAdminData(t.ctx)} />);
    return app;
  };
  const openUser = async (search: string) => {
    const ui = open();
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

  it("lists users and filters them as the operator types", async () => {
    const ui = open();
    const frame = await waitForFrame(ui, "carol@example.com");
    expect(frame).toContain("alice@example.com");
    expect(frame).toContain("bob@example.com");
    ui.stdin.write("bo");
    const filtered = await waitForFrame(ui, (f) => f.includes("search: bo") && !f.includes("alice@example.com"));
    expect(filtered).toContain("bob@example.com");
    expect(filtered).not.toContain("carol@example.com");
    ui.stdin.write(KEYS.backspace);
    ui.stdin.write(KEYS.backspace);
    await waitForFrame(ui, (f) => f.includes("alice@example.com") && f.includes("carol@example.com"));
  });

  it("pages through a table larger than the screen", async () => {
    for (let i = 0; i < 30; i++)
      await createUser(t.ctx, { email: `pager${String(i).padStart(2, "0")}@example.com`, name: `Pager ${i}` });
    const ui = open();
    ui.stdin.write("pager");
    const settled = (text: string) => (f: string) => f.includes(text) && !f.includes("loading");
    const first = await waitForFrame(ui, settled("page 1 of 2 · 30 user(s)"));
    ui.stdin.write(KEYS.right);
    const second = await waitForFrame(ui, settled("page 2 of 2 · 30 user(s)"));
    const shown = (frame: string) => (frame.match(/pager\d\d@example\.com/g) ?? []) as string[];
    expect(shown(first).length + shown(second).length).toBe(30);
    expect(shown(second).some((email) => shown(first).includes(email))).toBe(false);
  });

  it("shows a user's sessions and linked accounts, and bans and unbans them", async () => {
    const ui = await openUser("alice");
    const detail = await waitForFrame(ui, "agent-of-Alice");
    expect(detail).toContain("accounts: credential");
    expect(detail).toContain("Sessions (1 active)");
    ui.stdin.write("b");
    await waitForFrame(ui, "ban reason:");
    ui.stdin.write("spamming");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "ban for:");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "BANNED (spamming)");
    const banned = await findUserByEmail(t.ctx.db, "alice@example.com");
    expect(Boolean(banned?.banned)).toBe(true);
    expect(banned?.banReason).toBe("spamming");
    expect(await waitForFrame(ui, "Sessions (0 active)")).toContain("no active sessions");
    ui.stdin.write("b");
    await waitForFrame(ui, "unbanned alice@example.com");
    expect(Boolean((await findUserByEmail(t.ctx.db, "alice@example.com"))?.banned)).toBe(false);
  });

  it("takes text and enter arriving in one read as typing then submitting", async () => {
    const ui = await openUser("bob");
    ui.stdin.write("r");
    await waitForFrame(ui, "new role:");
    ui.stdin.write("\u007F".repeat(20));
    ui.stdin.write("support\r");
    await waitForFrame(ui, "role set to support");
    expect((await findUserByEmail(t.ctx.db, "bob@example.com"))?.role).toBe("support");
  });

  it("sets a user's role from the detail screen", async () => {
    const ui = await openUser("bob");
    ui.stdin.write("r");
    await waitForFrame(ui, "new role:");
    for (let i = 0; i < 10; i++) ui.stdin.write(KEYS.backspace);
    ui.stdin.write("admin");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "role set to admin");
    expect((await findUserByEmail(t.ctx.db, "bob@example.com"))?.role).toBe("admin");
  });

  it("issues an API key, shows it once, and revokes it", async () => {
    const ui = await openUser("carol");
    ui.stdin.write("k");
    await waitForFrame(ui, "API key name:");
    ui.stdin.write("deploy");
    ui.stdin.write(KEYS.enter);
    for (const label of ["rate limit:", "uses in all:", "refill:", "expires in:"]) {
      await waitForFrame(ui, label);
      ui.stdin.write(KEYS.enter);
    }
    const frame = await waitForFrame(ui, (f) => f.includes("shown once") && f.includes("API keys (1)"));
    const carol = await findUserByEmail(t.ctx.db, "carol@example.com");
    const keys = await t.ctx.db.selectFrom("apikey").selectAll().where("userId", "=", carol!.id).execute();
    expect(keys).toHaveLength(1);
    expect(frame).toContain(keys[0].start as string);
    ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, "revoke key");
    ui.stdin.write("x");
    await waitForFrame(ui, "Revoke API key deploy? Apps using it stop working. [y/N]");
    ui.stdin.write("y");
    await waitForFrame(ui, "API key deploy revoked");
    expect(await t.ctx.db.selectFrom("apikey").selectAll().where("userId", "=", carol!.id).execute()).toHaveLength(0);
  });

  it("shows a user's passkeys and removes the highlighted one", async () => {
    const alice = await findUserByEmail(t.ctx.db, "alice@example.com");
    const passkey = {
      id: generateId(),
      name: "laptop",
      publicKey: "cHVibGlj",
      userId: alice!.id,
      credentialID: generateId(),
      counter: 0,
      deviceType: "multiDevice",
      backedUp: true,
      transports: "internal",
      createdAt: t.ctx.now(),
      aaguid: null,
    };
    await t.ctx.db.insertInto("passkey").values(passkey).execute();
    const ui = await openUser("alice");
    const frame = await waitForFrame(ui, "Passkeys (1)");
    expect(frame).toContain("laptop");
    expect(frame).toContain("multiDevice");
    ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, "to passkeys");
    ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, "remove passkey");
    ui.stdin.write("x");
    await waitForFrame(ui, "Remove passkey laptop of alice@example.com?");
    ui.stdin.write("y");
    await waitForFrame(ui, (f) => f.includes("passkey laptop removed") && f.includes("Passkeys (0)"));
    expect(await t.ctx.db.selectFrom("passkey").selectAll().where("id", "=", passkey.id).execute()).toEqual([]);
  });

  it("marks the API keys of a banned user as refused", async () => {
    // Given a user holding a key
    const dave = await createUser(t.ctx, { email: "dave@example.com", name: "Dave", password: "password-123" });
    await createApiKey(t.ctx, { userId: dave.id, name: "cron" }, { isServer: true }, CLI_SOURCE);
    const ui = await openUser("dave");
    const before = await waitForFrame(ui, "API keys (1)");
    expect(before).not.toContain("owner banned");

    // When the operator bans them from the detail screen, the keys section says the keys are refused
    ui.stdin.write("b");
    await waitForFrame(ui, "ban reason:");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, "ban for:");
    ui.stdin.write(KEYS.enter);
    const banned = await waitForFrame(ui, (f) => f.includes("BANNED") && f.includes("API keys (1)"));
    expect(banned).toContain("API keys (1) · owner banned: keys refused");

    // Then unbanning takes the mark away
    ui.stdin.write("b");
    await waitForFrame(ui, (f) => f.includes("unbanned dave@example.com") && !f.includes("owner banned"));
  });

  it("revokes one session, then asks before revoking all", async () => {
    const carol = (await findUserByEmail(t.ctx.db, "carol@example.com"))!;
    await createSession(t.ctx, carol, { userAgent: "second-device" });
    await createSession(t.ctx, carol, { userAgent: "third-device" });
    const ui = await openUser("carol");
    await waitForFrame(ui, "Sessions (3 active)");
    ui.stdin.write("x");
    await waitForFrame(ui, "Revoke this session of carol@example.com");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("Revoke this session"));
    expect(await t.ctx.db.selectFrom("session").selectAll().where("userId", "=", carol.id).execute()).toHaveLength(3);
    ui.stdin.write("x");
    await waitForFrame(ui, "Revoke this session of carol@example.com");
    ui.stdin.write("y");
    await waitForFrame(ui, "Sessions (2 active)");
    ui.stdin.write("a");
    await waitForFrame(ui, "Revoke all 2 session(s)");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("Revoke all"));
    expect(await t.ctx.db.selectFrom("session").selectAll().where("userId", "=", carol.id).execute()).toHaveLength(2);
    ui.stdin.write("a");
    await waitForFrame(ui, "Revoke all 2 session(s)");
    ui.stdin.write("y");
    await waitForFrame(ui, "revoked 2 session(s)");
    expect(await t.ctx.db.selectFrom("session").selectAll().where("userId", "=", carol.id).execute()).toHaveLength(0);
  });

  it("deletes a user only after confirmation", async () => {
    await createUser(t.ctx, { email: "doomed@example.com", name: "Doomed", password: "password-123" });
    const ui = await openUser("doomed");
    ui.stdin.write("d");
    await waitForFrame(ui, "cannot be undone");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("cannot be undone"));
    expect(await findUserByEmail(t.ctx.db, "doomed@example.com")).toBeDefined();
    ui.stdin.write("d");
    await waitForFrame(ui, "cannot be undone");
    ui.stdin.write("y");
    await waitForFrame(ui, "deleted doomed@example.com");
    expect(await findUserByEmail(t.ctx.db, "doomed@example.com")).toBeUndefined();
  });

  it("shows organizations with their members, invitations and teams", async () => {
    const alice = (await findUserByEmail(t.ctx.db, "alice@example.com"))!;
    const organizationId = generateId();
    const now = t.ctx.now();
    await t.ctx.db
      .insertInto("organization")
      .values({ id: organizationId, name: "Acme Corp", slug: "acme", logo: null, metadata: null, createdAt: now })
      .execute();
    await t.ctx.db
      .insertInto("member")
      .values({ id: generateId(), organizationId, userId: alice.id, role: "owner", teamId: null, createdAt: now })
      .execute();
    await t.ctx.db
      .insertInto("invitation")
      .values({
        id: generateId(),
        organizationId,
        email: "newbie@example.com",
        role: "member",
        status: "pending",
        teamId: null,
        inviterId: alice.id,
        expiresAt: now + 86_400_000,
        createdAt: now,
      })
      .execute();
    await t.ctx.db
      .insertInto("team")
      .values({ id: generateId(), name: "Platform", organizationId, createdAt: now, updatedAt: now })
      .execute();
    const ui = open();
    await waitForFrame(ui, "user(s)");
    ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, "Acme Corp");
    ui.stdin.write(KEYS.enter);
    const detail = await waitForFrame(ui, "Members (1)");
    expect(detail).toContain("alice@example.com");
    expect(detail).toContain("owner");
    expect(detail).toContain("newbie@example.com");
    expect(detail).toContain("pending");
    expect(detail).toContain("Platform");
    ui.stdin.write(KEYS.escape);
    await waitForFrame(ui, "organization(s)");
  });

  it("lists active sessions across users and revokes the highlighted one", async () => {
    const before = await t.ctx.db.selectFrom("session").selectAll().execute();
    const ui = open();
    await waitForFrame(ui, "user(s)");
    ui.stdin.write(KEYS.tab);
    ui.stdin.write(KEYS.tab);
    await waitForFrame(ui, `${before.length} session(s)`);
    ui.stdin.write("x");
    await waitForFrame(ui, "Revoke this session of");
    ui.stdin.write("y");
    await waitForFrame(ui, "revoked a session of");
    await waitForFrame(ui, `${before.length - 1} session(s)`);
    expect(await t.ctx.db.selectFrom("session").selectAll().execute()).toHaveLength(before.length - 1);
  });

  it("shows the audit log as the fourth tab, filters it by type and opens an event's user", async () => {
    const alice = await findUserByEmail(t.ctx.db, "alice@example.com");
    if (!alice) throw new Error("alice was seeded");
    // The test clock stands still: move it so these two are the newest events.
    t.clock.advance(60_000);
    await banUser(t.ctx, alice.id, { reason: "audit screen" }, CLI_SOURCE);
    t.clock.advance(60_000);
    await unbanUser(t.ctx, alice.id, CLI_SOURCE);
    const ui = open();
    await waitForFrame(ui, "user(s)");
    for (let i = 0; i < 3; i += 1) ui.stdin.write(KEYS.tab);
    const frame = await waitForFrame(ui, (f) => f.includes("event(s)") && f.includes("user_unbanned"));
    expect(frame).toContain("user_banned");
    expect(frame).toContain("cli");
    ui.stdin.write("user_unb");
    const filtered = await waitForFrame(ui, (f) => f.includes("search: user_unb") && !f.includes("loading"));
    expect(filtered).toContain("user_unbanned");
    expect(filtered).not.toContain("user_banned");
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, (f) => f.includes("Sessions (") && f.includes("alice@example.com"));
  });

  it("shows each audit event's subject email beside its id, and filters the log by email", async () => {
    const bob = await findUserByEmail(t.ctx.db, "bob@example.com");
    const carol = await findUserByEmail(t.ctx.db, "carol@example.com");
    if (!bob || !carol) throw new Error("bob and carol were seeded");
    t.clock.advance(60_000);
    await banUser(t.ctx, bob.id, { reason: "audit email" }, CLI_SOURCE);
    t.clock.advance(60_000);
    await banUser(t.ctx, carol.id, { reason: "audit email" }, CLI_SOURCE);
    const ui = open();
    await waitForFrame(ui, "user(s)");
    for (let i = 0; i < 3; i += 1) ui.stdin.write(KEYS.tab);
    const frame = await waitForFrame(ui, (f) => f.includes("event(s)") && f.includes("carol@example.com"));
    expect(frame).toContain("bob@example.com");
    ui.stdin.write("bob@exa");
    const filtered = await waitForFrame(ui, (f) => f.includes("search: bob@exa") && !f.includes("loading"));
    expect(filtered).toContain("bob@example.com");
    expect(filtered).not.toContain("carol@example.com");
    expect(filtered).toContain("user_banned");
  });

  it("re-lays out when the terminal is resized", async () => {
    const ui = open();
    await waitForFrame(ui, "user(s)");
    const stdout = ui.stdout as unknown as NodeJS.EventEmitter & { columns: number };
    Object.defineProperty(stdout, "columns", { value: 50, configurable: true });
    stdout.emit("resize");
    const narrow = await waitForFrame(
      ui,
      (f) => f.split("\n").every((line) => line.length <= 50) && f.includes("EMAIL"),
    );
    expect(narrow).toContain("search:");
  });
});

describe("authd admin terminal UI when the database fails", () => {
  it("shows the error in place instead of crashing", async () => {
    const t = await createTestContext();
    await t.ctx.database.close();
    const ui = render(<AdminApp data={createAdminData(t.ctx)} />);
    const frame = await waitForFrame(ui, "✗");
    expect(frame).toContain("authd admin");
    expect(frame).toContain("esc");
    ui.stdin.write("x");
    await waitForFrame(ui, "search: x");
    ui.unmount();
    await t.close().catch(() => {});
  });
});
