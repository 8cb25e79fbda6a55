import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateRandomString, LOWER_ALPHANUMERIC } from "../../src/crypto/random.ts";
import { findUserByEmail } from "../../src/db/repositories/users.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { createSession } from "../../src/services/sessions/sessions.ts";
import { createUser } from "../../src/services/users.ts";
import { buildBinary } from "../helpers/binary.ts";
import { createTestContext, TEST_SECRET, type TestContext } from "../helpers/context.ts";

// The compiled binary's terminal UI in a real terminal (tmux), driven by key presses like an operator.

const socket = `authd-test-${generateRandomString(8, LOWER_ALPHANUMERIC)}`;
const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
const screen = (session = "admin") => tmux("capture-pane", "-p", "-t", session);
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

async function waitForScreen(expected: string, session = "admin", timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen(session);
    if (text.includes(expected)) return text;
    if (Date.now() > deadline)
      throw new Error(`the terminal never showed ${JSON.stringify(expected)}; it shows:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("authd admin from the compiled binary in tmux", () => {
  let t: TestContext;
  let binary: string;
  beforeAll(async () => {
    binary = buildBinary();
    t = await createTestContext();
    const target = await createUser(t.ctx, {
      email: "troublemaker@example.com",
      name: "Trouble Maker",
      password: "password-123",
    });
    await createUser(t.ctx, { email: "innocent@example.com", name: "Innocent", password: "password-123" });
    await createSession(t.ctx, target, { userAgent: "troublemaker-browser" });
  }, 120_000);
  afterAll(async () => {
    try {
      tmux("kill-server");
    } catch {
      // already gone: the UI quit and the session ended
    }
    await t.close();
  });

  it("navigates to a user and bans them, and the ban is in the database", async () => {
    // At info the ban's security line is logged: it must appear above the UI, not be drawn over it.
    const env = `AUTH_DATABASE_URL=${quote(t.ctx.config.databaseURL)} AUTH_SECRET=${quote(TEST_SECRET)} AUTH_LOG_LEVEL=info`;
    // The shell stays after authd ends, so its exit code (or its error, if it failed) stays on screen.
    tmux(
      "new-session",
      "-d",
      "-s",
      "admin",
      "-x",
      "120",
      "-y",
      "32",
      `env ${env} ${quote(binary)} admin; echo "authd exited with $?"; sleep 60`,
    );
    tmux("set-option", "-g", "escape-time", "0");
    await waitForScreen("innocent@example.com");

    tmux("send-keys", "-t", "admin", "-l", "trouble");
    await waitForScreen("1 user(s)");
    tmux("send-keys", "-t", "admin", "Enter");
    await waitForScreen("troublemaker-browser");

    tmux("send-keys", "-t", "admin", "b");
    await waitForScreen("ban reason:");
    tmux("send-keys", "-t", "admin", "-l", "abusive behaviour");
    await waitForScreen("ban reason: abusive behaviour");
    tmux("send-keys", "-t", "admin", "Enter");
    await waitForScreen("ban for:");
    tmux("send-keys", "-t", "admin", "Enter");
    const after = await waitForScreen("BANNED (abusive behaviour)");
    expect(after).toContain("Sessions (0 active)");
    // The line wraps at the terminal's width.
    expect(after.replace(/\n/g, "")).toMatch(
      /INFO +security\.user_banned outcome=success userId=\S+ actorType=cli actorId=null ip=null userAgent=null/,
    );

    const user = await findUserByEmail(t.ctx.db, "troublemaker@example.com");
    expect(Boolean(user?.banned)).toBe(true);
    expect(user?.banReason).toBe("abusive behaviour");
    const sessions = await t.ctx.db.selectFrom("session").selectAll().where("userId", "=", user!.id).execute();
    expect(sessions).toHaveLength(0);
    expect(Boolean((await findUserByEmail(t.ctx.db, "innocent@example.com"))?.banned)).toBe(false);

    // esc back to the list (still filtered), esc clears the search, esc again quits with exit code 0.
    tmux("send-keys", "-t", "admin", "Escape");
    await waitForScreen("page 1 of 1 · 1 user(s)");
    tmux("send-keys", "-t", "admin", "Escape");
    await waitForScreen("page 1 of 1 · 2 user(s)");
    tmux("send-keys", "-t", "admin", "Escape");
    await waitForScreen("authd exited with 0");
  });

  it("create-user asks for the password on a terminal without echoing it", async () => {
    // At info the ban's security line is logged: it must appear above the UI, not be drawn over it.
    const env = `AUTH_DATABASE_URL=${quote(t.ctx.config.databaseURL)} AUTH_SECRET=${quote(TEST_SECRET)} AUTH_LOG_LEVEL=info`;
    tmux(
      "new-session",
      "-d",
      "-s",
      "prompt",
      "-x",
      "120",
      "-y",
      "20",
      `env ${env} ${quote(binary)} create-user --email prompted@example.com --name Prompted; echo "authd exited with $?"; sleep 60`,
    );
    await waitForScreen("Password:", "prompt");
    tmux("send-keys", "-t", "prompt", "-l", "typed-secret-123");
    tmux("send-keys", "-t", "prompt", "Enter");
    await waitForScreen("Repeat password:", "prompt");
    tmux("send-keys", "-t", "prompt", "-l", "typed-secret-123");
    tmux("send-keys", "-t", "prompt", "Enter");
    const text = await waitForScreen("authd exited with 0", "prompt");
    expect(text).toContain("created user prompted@example.com");
    expect(text).not.toContain("typed-secret-123");
    const signIn = await t
      .agent()
      .post("/sign-in/email", { email: "prompted@example.com", password: "typed-secret-123" });
    expect(signIn.status).toBe(200);
  });

  it("revoke-sessions --all asks on a terminal and reports progress there", async () => {
    const user = (await findUserByEmail(t.ctx.db, "innocent@example.com"))!;
    for (let i = 0; i < 3; i++) await createSession(t.ctx, user);
    // At info the ban's security line is logged: it must appear above the UI, not be drawn over it.
    const env = `AUTH_DATABASE_URL=${quote(t.ctx.config.databaseURL)} AUTH_SECRET=${quote(TEST_SECRET)} AUTH_LOG_LEVEL=info`;
    tmux(
      "new-session",
      "-d",
      "-s",
      "revoke",
      "-x",
      "120",
      "-y",
      "20",
      `env ${env} ${quote(binary)} revoke-sessions --all; echo "authd exited with $?"; sleep 60`,
    );
    await waitForScreen("Revoke every session of every user? [y/N]", "revoke");
    tmux("send-keys", "-t", "revoke", "y", "Enter");
    const text = await waitForScreen("authd exited with 0", "revoke");
    expect(text).toMatch(/revoked \d+ session\(s\)…/);
    expect(await t.ctx.db.selectFrom("session").selectAll().execute()).toHaveLength(0);
  });
  it("revokes an API key from the API keys screen with ctrl-x, as a real terminal sends it", async () => {
    const owner = (await findUserByEmail(t.ctx.db, "innocent@example.com"))!;
    const { key } = await createApiKey(t.ctx, { userId: owner.id, name: "tmux-key" }, { isServer: true }, CLI_SOURCE);
    const env = `AUTH_DATABASE_URL=${quote(t.ctx.config.databaseURL)} AUTH_SECRET=${quote(TEST_SECRET)}`;
    tmux(
      "new-session",
      "-d",
      "-s",
      "keys",
      "-x",
      "120",
      "-y",
      "32",
      `env ${env} ${quote(binary)} admin; echo "authd exited with $?"; sleep 60`,
    );
    tmux("set-option", "-g", "escape-time", "0");
    await waitForScreen("user(s)", "keys");
    // One key at a time: keys that arrive in one read are not told apart.
    for (const noun of ["organization(s)", "session(s)", "event(s)", "API key(s)"]) {
      tmux("send-keys", "-t", "keys", "Tab");
      await waitForScreen(noun, "keys");
    }
    tmux("send-keys", "-t", "keys", "-l", "tmux-key");
    await waitForScreen("search: tmux-key", "keys");
    await waitForScreen("page 1 of 1 · 1 API key(s)\n", "keys");
    tmux("send-keys", "-t", "keys", "C-x");
    await waitForScreen("Revoke API key tmux-key of innocent@example.com?", "keys");
    tmux("send-keys", "-t", "keys", "y");
    await waitForScreen("API key tmux-key revoked", "keys");
    expect((await t.server().post("/api-key/verify", { key })).body.valid).toBe(false);
    // esc clears the search, esc again quits.
    tmux("send-keys", "-t", "keys", "Escape");
    await waitForScreen("type to filter by name, prefix", "keys");
    tmux("send-keys", "-t", "keys", "Escape");
    await waitForScreen("authd exited with 0", "keys");
  });
});
