import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

// Each test here runs the CLI several times, a process each that loads the source: beside the Chromium files
// on two cores of a slower machine one such test took over 30 s (alone: 3-4 s).
vi.setConfig({ testTimeout: 90_000 });

describeEachDialect("authd commands on a live database", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  beforeAll(async () => {
    // The test context plays the running server: commands work on the same database beside it.
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
  });
  afterAll(() => t.close());

  it("create-user prints the user as JSON and the password signs in", async () => {
    const result = await runCli(
      [
        "create-user",
        "--email",
        "Ops@Example.com",
        "--name",
        "Ops",
        "--password",
        "ops-password-1",
        "--role",
        "admin",
        "--verified",
        "--json",
      ],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    const user = result.json<Record<string, unknown>>();
    expect(user).toMatchObject({ email: "ops@example.com", name: "Ops", role: "admin", emailVerified: true });
    const signIn = await t.agent().post("/sign-in/email", { email: "ops@example.com", password: "ops-password-1" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(user.id);
  });

  it("create-user reads the password from stdin", async () => {
    const result = await runCli(
      ["create-user", "--email", "stdin@example.com", "--name", "Piped", "--password-stdin", "--json"],
      { env, input: "piped-password-1\n" },
    );
    expect(result.code, result.stderr).toBe(0);
    const signIn = await t.agent().post("/sign-in/email", { email: "stdin@example.com", password: "piped-password-1" });
    expect(signIn.status).toBe(200);
  });

  it("create-user refuses a duplicate email and a short password with one line and exit 1", async () => {
    const duplicate = await runCli(
      ["create-user", "--email", "ops@example.com", "--name", "Again", "--password", "ops-password-1"],
      { env },
    );
    expect(duplicate.code, duplicate.stderr).toBe(1);
    expect(duplicate.stderr.trim()).toBe("authd: User already exists");
    const short = await runCli(["create-user", "--email", "short@example.com", "--name", "S", "--password", "abc"], {
      env,
    });
    expect(short.code, short.stderr).toBe(1);
    expect(short.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("create-user without a password off a terminal is bad usage", async () => {
    const result = await runCli(["create-user", "--email", "nopw@example.com", "--name", "N"], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
  });

  it("users list --json is an array of user objects, filtered by --search and cut by --limit", async () => {
    await signUp(t, { email: "alice.search@example.com", name: "Alice" });
    const all = await runCli(["users", "list", "--json"], { env });
    expect(all.code, all.stderr).toBe(0);
    const emails = all.json<{ email: string }[]>().map((u) => u.email);
    expect(emails).toEqual(
      expect.arrayContaining(["ops@example.com", "stdin@example.com", "alice.search@example.com"]),
    );
    const searched = await runCli(["users", "list", "--search", "ALICE.SEARCH", "--json"], { env });
    expect(searched.json<{ email: string }[]>().map((u) => u.email)).toEqual(["alice.search@example.com"]);
    const limited = await runCli(["users", "list", "--limit", "1", "--json"], { env });
    expect(limited.json<unknown[]>()).toHaveLength(1);
  });

  it("users show --json lists the user's sessions and linked accounts without secrets", async () => {
    const { email } = await signUp(t, { email: "shown@example.com" });
    const result = await runCli(["users", "show", email, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const overview = result.json<{
      user: { email: string };
      sessions: unknown[];
      accounts: { providerId: string }[];
    }>();
    expect(overview.user.email).toBe(email);
    expect(overview.sessions).toHaveLength(1);
    expect(overview.accounts.map((a) => a.providerId)).toEqual(["credential"]);
    expect(result.stdout).not.toContain("password");
    const missing = await runCli(["users", "show", "nobody@example.com"], { env });
    expect(missing.code, missing.stderr).toBe(1);
    expect(missing.stderr).toContain("nobody@example.com");
  });

  it("sessions list shows sessions without their tokens", async () => {
    const { email, token } = await signUp(t);
    const result = await runCli(["sessions", "list", "--user", email, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    const sessions = result.json<{ userEmail: string; token?: string }[]>();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].userEmail).toBe(email);
    expect(sessions[0].token).toBeUndefined();
    expect(result.stdout).not.toContain(token as string);
  });

  it("revoke-sessions --user signs that user out and reports the count", async () => {
    const { agent, email } = await signUp(t);
    await agent.post("/sign-in/email", { email, password: "correct-horse-battery" });
    const result = await runCli(["revoke-sessions", "--user", email, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toEqual({ revoked: 2 });
    const session = await agent.get("/get-session?disableCookieCache=true");
    expect(session.body).toBeNull();
  });

  it("revoke-sessions --all asks for --yes off a terminal, then revokes everything", async () => {
    const { agent } = await signUp(t);
    const refused = await runCli(["revoke-sessions", "--all"], { env });
    expect(refused.code, refused.stderr).toBe(2);
    expect((await agent.get("/get-session?disableCookieCache=true")).body).not.toBeNull();
    const result = await runCli(["revoke-sessions", "--all", "--yes", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json<{ revoked: number }>().revoked).toBeGreaterThanOrEqual(1);
    expect(result.stderr).toBe("");
    // This test's daemon learns of the other process's revocation from Postgres's NOTIFY (or SQLite's
    // data_version) as soon as it is delivered and read; under load that is not always before the next
    // request (docs/security.md, "How soon another daemon refuses a revoked session").
    await expect
      .poll(async () => (await agent.get("/get-session?disableCookieCache=true")).body, { timeout: 5_000 })
      .toBeNull();
  });

  it("revoke-sessions without a target is bad usage", async () => {
    const result = await runCli(["revoke-sessions"], { env });
    expect(result.code, result.stderr).toBe(2);
  });

  it("issue-api-key prints the key once; api-keys list never shows it; api-keys revoke ends it", async () => {
    const issued = await runCli(
      [
        "issue-api-key",
        "--user",
        "ops@example.com",
        "--name",
        "deploy",
        "--prefix",
        "ops_",
        "--expires-in",
        "86400",
        "--remaining",
        "3",
        "--json",
      ],
      { env },
    );
    expect(issued.code, issued.stderr).toBe(0);
    const key = issued.json<{
      id: string;
      key: string;
      name: string;
      prefix: string;
      remaining: number;
      expiresAt: string;
    }>();
    expect(key).toMatchObject({ name: "deploy", prefix: "ops_", remaining: 3 });
    expect(key.key.startsWith("ops_")).toBe(true);
    const verified = await t.server().post("/api/auth/api-key/verify", { key: key.key });
    expect(verified.body.valid).toBe(true);

    const listed = await runCli(["api-keys", "list", "--user", "ops@example.com", "--json"], { env });
    expect(listed.json<{ id: string }[]>().map((k) => k.id)).toContain(key.id);
    expect(listed.stdout).not.toContain(key.key);

    const revoked = await runCli(["api-keys", "revoke", key.id, "--json"], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await t.server().post("/api/auth/api-key/verify", { key: key.key })).body.valid).toBe(false);
    const again = await runCli(["api-keys", "revoke", key.id], { env });
    expect(again.code, again.stderr).toBe(1);
  });

  it("api-keys list and users show mark the keys of a banned owner as refused", async () => {
    // Given a user with a key, then banned
    const { email } = await signUp(t, { email: "keyholder@example.com" });
    const issued = await runCli(["issue-api-key", "--user", email, "--name", "batch", "--json"], { env });
    expect(issued.code, issued.stderr).toBe(0);
    const before = await runCli(["api-keys", "list", "--user", email, "--json"], { env });
    expect(before.json<{ ownerBanned: boolean }[]>().map((k) => k.ownerBanned)).toEqual([false]);
    expect((await runCli(["users", "ban", email], { env })).code).toBe(0);

    // When the operator looks at the keys, both listings say the owner is banned and the keys refused
    const listed = await runCli(["api-keys", "list", "--user", email, "--json"], { env });
    expect(listed.json<{ name: string; ownerBanned: boolean }[]>()).toEqual([
      expect.objectContaining({ name: "batch", ownerBanned: true }),
    ]);
    const table = await runCli(["api-keys", "list", "--user", email], { env });
    expect(table.stdout).toMatch(/batch .*owner banned: keys refused/);
    const shown = await runCli(["users", "show", email], { env });
    expect(shown.stdout).toContain("api keys (1) · owner banned: keys refused");
    const shownJSON = await runCli(["users", "show", email, "--json"], { env });
    expect(shownJSON.json<{ apiKeys: { ownerBanned: boolean }[] }>().apiKeys.map((k) => k.ownerBanned)).toEqual([true]);

    // Then once unbanned the mark is gone
    await runCli(["users", "unban", email], { env });
    expect((await runCli(["users", "show", email], { env })).stdout).not.toContain("owner banned");
  });

  it("issue-api-key refuses an unknown user and malformed permissions", async () => {
    const unknown = await runCli(["issue-api-key", "--user", "ghost@example.com"], { env });
    expect(unknown.code, unknown.stderr).toBe(1);
    expect(unknown.stderr).toContain("ghost@example.com");
    const malformed = await runCli(["issue-api-key", "--user", "ops@example.com", "--permissions", "[1,2]"], { env });
    expect(malformed.code, malformed.stderr).toBe(2);
  });

  it("orgs list and orgs show describe organizations created through the API", async () => {
    const { agent, email } = await signUp(t, { email: "founder@example.com" });
    const created = await agent.post("/organization/create", { name: "Initech", slug: "initech" });
    expect(created.status).toBe(200);
    const listed = await runCli(["orgs", "list", "--search", "INITECH", "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([expect.objectContaining({ slug: "initech", name: "Initech", memberCount: 1 })]);
    const shown = await runCli(["orgs", "show", "initech", "--json"], { env });
    expect(shown.code, shown.stderr).toBe(0);
    const detail = shown.json<{
      organization: { id: string };
      members: { email: string; role: string }[];
      invitations: unknown[];
      teams: unknown[];
    }>();
    expect(detail.organization.id).toBe(created.body.id);
    expect(detail.members).toEqual([expect.objectContaining({ email, role: "owner" })]);
    const missing = await runCli(["orgs", "show", "no-such-org"], { env });
    expect(missing.code).toBe(1);
  });

  it("admin refuses to start without a terminal (bad usage)", async () => {
    const result = await runCli(["admin"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("terminal");
  });

  it("users ban, unban, set-role, set-password and delete act through the admin rules", async () => {
    const { agent, email, password } = await signUp(t, { email: "moderated@example.com" });
    const banned = await runCli(["users", "ban", email, "--reason", "spam", "--json"], { env });
    expect(banned.code, banned.stderr).toBe(0);
    expect(banned.json()).toMatchObject({ email, banned: true, banReason: "spam" });
    expect((await agent.get("/get-session?disableCookieCache=true")).body).toBeNull();
    expect((await t.agent().post("/sign-in/email", { email, password })).status).not.toBe(200);

    const unbanned = await runCli(["users", "unban", email, "--json"], { env });
    expect(unbanned.json()).toMatchObject({ banned: false, banReason: null });
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);

    const role = await runCli(["users", "set-role", email, "admin,support", "--json"], { env });
    expect(role.json()).toMatchObject({ role: "admin,support" });

    const reset = await runCli(["users", "set-password", email, "--password-stdin"], {
      env,
      input: "brand-new-password\n",
    });
    expect(reset.code, reset.stderr).toBe(0);
    expect((await t.agent().post("/sign-in/email", { email, password: "brand-new-password" })).status).toBe(200);

    const unconfirmed = await runCli(["users", "delete", email], { env });
    expect(unconfirmed.code).toBe(2);
    const deleted = await runCli(["users", "delete", email, "--yes", "--json"], { env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await runCli(["users", "show", email], { env })).code).toBe(1);
    expect((await runCli(["users", "ban", "nobody@example.com"], { env })).code).toBe(1);
  });
});
