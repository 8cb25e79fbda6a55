import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../cli/run.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { captureLog } from "../helpers/security-log.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";

// Listing, renaming and deleting passkeys: by their owner, by an administrator over HTTP, and by an
// operator at the command line. Another user's passkey id never changes anything.

describeEachDialect("passkeys: list, rename, delete", (dialect) => {
  let t: TestContext;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestContext({ dialect, logger: log.logger });
  });
  afterAll(() => t.close());

  async function userWithPasskey(name = "laptop") {
    const signedUp = await signUp(t);
    const authenticator = new SoftAuthenticator();
    const { verified } = await registerPasskey(signedUp.agent, authenticator, {}, name);
    return { ...signedUp, authenticator, passkey: verified.body };
  }

  it("lists only the caller's passkeys, with every column", async () => {
    const alice = await userWithPasskey("laptop");
    t.clock.advance(1000); // listed oldest first
    await registerPasskey(alice.agent, new SoftAuthenticator(), {}, "phone");
    await userWithPasskey("bob's");
    const list = await alice.agent.get("/passkey/list-user-passkeys");
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(["laptop", "phone"]);
    expect(list.body[0]).toEqual(alice.passkey);
    expect((await (await signUp(t)).agent.get("/passkey/list-user-passkeys")).body).toEqual([]);
  });

  it("renames the caller's passkey and answers {passkey}", async () => {
    const { agent, passkey } = await userWithPasskey();
    const res = await agent.post("/passkey/update-passkey", { id: passkey.id, name: "work laptop" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ passkey: { ...passkey, name: "work laptop" } });
    const bad = await agent.post("/passkey/update-passkey", { id: passkey.id });
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });

  it("deletes the caller's passkey (null), logs it, and the passkey no longer signs in", async () => {
    const { agent, passkey, authenticator, user } = await userWithPasskey();
    log.clear();
    const res = await agent.post("/passkey/delete-passkey", { id: passkey.id });
    expect(res.status).toBe(200);
    expect(res.text).toBe("null");
    expect(log.events("passkey_removed")).toMatchObject([
      { userId: user.id, passkeyId: passkey.id, actorType: "user", actorId: user.id },
    ]);
    expect((await agent.get("/passkey/list-user-passkeys")).body).toEqual([]);
    expect((await passkeySignIn(t.agent(), authenticator)).verified.status).toBe(401);
    const again = await agent.post("/passkey/delete-passkey", { id: passkey.id });
    expect(again.status).toBe(404);
  });

  it("treats another user's passkey id as unknown on rename and delete (404), changing nothing", async () => {
    const alice = await userWithPasskey("alice's");
    const mallory = await signUp(t);
    const rename = await mallory.agent.post("/passkey/update-passkey", { id: alice.passkey.id, name: "pwned" });
    expect(rename.status).toBe(404);
    expect(rename.body).toEqual({ code: "PASSKEY_NOT_FOUND", message: "Passkey not found" });
    const unknown = await mallory.agent.post("/passkey/update-passkey", { id: "no-such-passkey", name: "x" });
    expect(unknown.status).toBe(404);
    const remove = await mallory.agent.post("/passkey/delete-passkey", { id: alice.passkey.id });
    expect(remove.status).toBe(404);
    expect(remove.body.code).toBe("PASSKEY_NOT_FOUND");
    expect((await alice.agent.get("/passkey/list-user-passkeys")).body).toEqual([alice.passkey]);
    expect((await passkeySignIn(t.agent(), alice.authenticator)).verified.status).toBe(200);
  });

  it("refuses list, rename and delete without a session, and delete with a stale one", async () => {
    const { agent, passkey } = await userWithPasskey();
    const anonymous = t.agent();
    expect((await anonymous.get("/passkey/list-user-passkeys")).status).toBe(401);
    expect((await anonymous.post("/passkey/update-passkey", { id: passkey.id, name: "x" })).status).toBe(401);
    expect((await anonymous.post("/passkey/delete-passkey", { id: passkey.id })).status).toBe(401);
    const crossSite = await agent.post(
      "/passkey/delete-passkey",
      { id: passkey.id },
      { headers: { origin: "https://evil.example" } },
    );
    expect(crossSite.body.code).toBe("INVALID_ORIGIN");
    t.clock.advance(86_400_000 + 1000);
    const stale = await agent.post("/passkey/delete-passkey", { id: passkey.id });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("SESSION_IS_NOT_FRESH");
    expect((await agent.get("/passkey/list-user-passkeys")).body).toHaveLength(1);
  });

  it("lets an administrator list and remove a user's passkeys, and no one else", async () => {
    const { user, passkey } = await userWithPasskey();
    const admin = t.server();
    const listed = await admin.post("/admin/list-user-passkeys", { userId: user.id });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ passkeys: [passkey] });
    const stranger = await signUp(t);
    expect((await stranger.agent.post("/admin/list-user-passkeys", { userId: user.id })).status).toBe(403);
    expect(
      (await stranger.agent.post("/admin/remove-user-passkey", { userId: user.id, passkeyId: passkey.id })).status,
    ).toBe(403);
    const wrongOwner = await admin.post("/admin/remove-user-passkey", {
      userId: stranger.user.id,
      passkeyId: passkey.id,
    });
    expect(wrongOwner.status).toBe(404);
    expect(wrongOwner.body.code).toBe("PASSKEY_NOT_FOUND");
    const noUser = await admin.post("/admin/list-user-passkeys", { userId: "nobody" });
    expect(noUser.status).toBe(404);
    expect(noUser.body.code).toBe("USER_NOT_FOUND");
    log.clear();
    const removed = await admin.post("/admin/remove-user-passkey", { userId: user.id, passkeyId: passkey.id });
    expect(removed.body).toEqual({ success: true });
    expect(log.events("passkey_removed")).toMatchObject([{ userId: user.id, actorType: "server" }]);
    expect((await admin.post("/admin/list-user-passkeys", { userId: user.id })).body).toEqual({ passkeys: [] });
  });

  it("authd users passkeys / remove-passkey list and remove a user's passkeys; users show includes them", async () => {
    const { email, passkey } = await userWithPasskey("cli key");
    const env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
    const listed = await runCli(["users", "passkeys", email, "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([passkey]);
    const shown = await runCli(["users", "show", email, "--json"], { env });
    expect(shown.json<{ passkeys: { id: string; name: string }[] }>().passkeys).toMatchObject([
      { id: passkey.id, name: "cli key" },
    ]);
    const foreign = await runCli(["users", "remove-passkey", (await signUp(t)).email, passkey.id], { env });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr.trim().split("\n")).toHaveLength(1);
    const removed = await runCli(["users", "remove-passkey", email, passkey.id, "--json"], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json()).toEqual(passkey);
    const table = await runCli(["users", "passkeys", email], { env });
    expect(table.stdout).toContain("0 passkey(s)");
  });
});
