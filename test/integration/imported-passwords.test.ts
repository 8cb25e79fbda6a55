import { afterAll, beforeAll, expect, it } from "vitest";
import { fromBetterAuth, fromFirebase, fromKeycloak, normalizeHash } from "../../src/crypto/imported-hash-forms.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import {
  argon2Hash,
  aspNetIdentityHash,
  bcryptHash,
  betterAuthHash,
  djangoPbkdf2,
  FIREBASE_VECTOR,
  keycloakCredential,
  md5Hex,
  PHPASS_VECTOR,
  scryptPhc,
} from "../helpers/foreign-hashes.ts";
import { type CapturedLog, captureLog } from "../helpers/security-log.ts";

// Issue 33: a user whose credential account holds another system's hash signs in with their old password,
// which then is authd's own scrypt; a wrong password is refused, and so is a hash past the bounds.

describeEachDialect("imported password hashes at sign-in", (dialect) => {
  const log: CapturedLog = captureLog();
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, logger: log.logger });
  });
  afterAll(() => t.close());

  /** A user whose password account holds `hash` (another system's hash of `password`). */
  async function importedUser(hash: string, password: string) {
    const { email, user } = await signUp(t, { password: "placeholder-password-1" });
    await t.ctx.db.updateTable("account").set({ password: hash }).where("userId", "=", user.id).execute();
    return { email, id: user.id as string, password };
  }
  const stored = async (userId: string) =>
    (
      await t.ctx.db
        .selectFrom("account")
        .select("password")
        .where("userId", "=", userId)
        .where("providerId", "=", "credential")
        .executeTakeFirstOrThrow()
    ).password;

  const keycloak = (password: string) => {
    const credential = keycloakCredential(password);
    return fromKeycloak({ ...JSON.parse(credential.secretData), ...JSON.parse(credential.credentialData) });
  };
  const firebase = () => fromFirebase(FIREBASE_VECTOR.config, FIREBASE_VECTOR.salt, FIREBASE_VECTOR.hash);

  const CASES: [kind: string, make: (password: string) => string | Promise<string>, password?: string][] = [
    ["bcrypt", (p) => bcryptHash(p, 4, "2y")],
    ["argon2id", (p) => argon2Hash(p)],
    ["argon2d", (p) => argon2Hash(p, "argon2d")],
    ["scrypt", scryptPhc],
    ["better-auth-scrypt", async (p) => fromBetterAuth(await betterAuthHash(p))],
    ["pbkdf2-sha256", (p) => normalizeHash(djangoPbkdf2(p)).text],
    ["pbkdf2-sha256", keycloak],
    ["pbkdf2-sha1", (p) => normalizeHash(aspNetIdentityHash(p, 2), "aspnet-identity").text],
    ["firebase-scrypt", firebase, FIREBASE_VECTOR.password],
    ["md5", (p) => `$md5$${md5Hex(p)}`],
    ["phpass", () => PHPASS_VECTOR.hash, PHPASS_VECTOR.password],
  ];

  for (const [kind, make, fixed] of CASES)
    it(`${kind}: the old password signs in once the hash is upgraded; a wrong one is refused`, async () => {
      const password = fixed ?? `old-${kind}-password`;
      const u = await importedUser(await make(password), password);
      expect((await t.agent().post("/sign-in/email", { email: u.email, password: `${password}!` })).status).toBe(401);
      expect((await stored(u.id))?.startsWith("$")).toBe(true);

      const signIn = await t.agent().post("/sign-in/email", { email: u.email, password });
      expect(signIn.status, signIn.text).toBe(200);
      const upgraded = await stored(u.id);
      expect(upgraded).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(log.events("password_upgraded").filter((e) => e.userId === u.id)).toMatchObject([
        { outcome: "success", from: kind, actorType: "user", actorId: u.id },
      ]);
      // The new hash is authd's own: the password still works, a wrong one still does not.
      expect((await t.agent().post("/sign-in/email", { email: u.email, password })).status).toBe(200);
      expect((await t.agent().post("/sign-in/email", { email: u.email, password: "nope-nope-1" })).status).toBe(401);
      expect(await stored(u.id)).toBe(upgraded);
    });

  it("two sign-ins at once upgrade the hash once (compare-and-swap) and both succeed", async () => {
    const u = await importedUser(bcryptHash("concurrent-password"), "concurrent-password");
    const both = await Promise.all([0, 1].map(() => t.agent().post("/sign-in/email", u)));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(log.events("password_upgraded").filter((e) => e.userId === u.id)).toHaveLength(1);
  });

  it("a hash past the bounds written into the column is refused at sign-in, even with its own password", async () => {
    const password = "expensive-password";
    const forged = Bun.password.hashSync(password, { algorithm: "argon2id", memoryCost: 1024, timeCost: 11 });
    const u = await importedUser(forged, password);
    expect((await t.agent().post("/sign-in/email", { email: u.email, password })).status).toBe(401);
    expect(await stored(u.id)).toBe(forged);
  });

  it("change-password proves an imported hash too", async () => {
    const u = await importedUser(bcryptHash("before-change-1"), "before-change-1");
    const agent = t.agent();
    expect((await agent.post("/sign-in/email", u)).status).toBe(200);
    const changed = await agent.post("/change-password", {
      currentPassword: u.password,
      newPassword: "after-change-1",
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await t.agent().post("/sign-in/email", { email: u.email, password: "after-change-1" })).status).toBe(200);
  });
});
