import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { ImportReport } from "../../src/services/import/run.ts";
import { describeEachDialect } from "../helpers/context.ts";
import { bcryptHash, FIREBASE_VECTOR, keycloakCredential } from "../helpers/foreign-hashes.ts";
import { useCliDatabase } from "../helpers/interchange.ts";
import { totp } from "../helpers/two-factor.ts";
import { runCli } from "./run.ts";

// Issue 33: the auth0, firebase and keycloak readers, each on a fixture written here in its source's
// documented shape: every user signs in with the password they had, linked providers and TOTP come along.

describeEachDialect("authd import auth0 / firebase / keycloak", (dialect) => {
  const db = useCliDatabase(dialect, "authd-import-sources-");
  const tag = Math.random().toString(36).slice(2, 8);
  const email = (name: string) => `${name}.${tag}@example.com`;

  const write = (name: string, content: string) => {
    const path = join(db.dir, name);
    writeFileSync(path, content);
    return path;
  };
  const commit = async (args: string[]) => {
    const result = await runCli(["import", ...args, "--commit", "--json"], { env: db.env });
    expect(result.code, result.stderr).toBe(0);
    return result.json<ImportReport>();
  };
  const signIn = (address: string, password: string) =>
    db.t.agent().post("/sign-in/email", { email: address, password });
  const linked = async (provider: string, accountId: string) =>
    (
      await db.t.ctx.db
        .selectFrom("account")
        .innerJoin("user", "user.id", "account.userId")
        .select("user.email")
        .where("account.providerId", "=", provider)
        .where("account.accountId", "=", accountId)
        .executeTakeFirst()
    )?.email;

  it("auth0: the user export joined with the hash export; bcrypt passwords, social identities", async () => {
    const oid = `64f1c0de${tag}`;
    const users = write(
      "auth0-users.ndjson",
      [
        {
          user_id: `auth0|${oid}`,
          email: email("auth0"),
          email_verified: true,
          name: "Zero",
          identities: [{ provider: "auth0", user_id: oid }],
        },
        {
          user_id: `google-oauth2|g${tag}`,
          email: email("auth0-google"),
          email_verified: true,
          identities: [{ provider: "google-oauth2", user_id: `g${tag}` }],
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const hashes = write(
      "auth0-hashes.ndjson",
      `${JSON.stringify({ _id: { $oid: oid }, email: email("auth0"), passwordHash: bcryptHash("auth0-password", 10) })}\n`,
    );
    expect(await commit(["auth0", users, hashes])).toMatchObject({
      imported: 2,
      refused: 0,
      hashKinds: { bcrypt: 1, none: 1 },
    });
    expect((await signIn(email("auth0"), "auth0-wrong")).status).toBe(401);
    expect((await signIn(email("auth0"), "auth0-password")).status).toBe(200);
    expect(await linked("google", `g${tag}`)).toBe(email("auth0-google"));
  });

  it("firebase: auth:export with the project's hash parameters (its documented test vector)", async () => {
    const users = write(
      "firebase.json",
      JSON.stringify({
        users: [
          {
            localId: `fb-${tag}`,
            email: email("firebase"),
            emailVerified: true,
            displayName: "Fire Base",
            passwordHash: FIREBASE_VECTOR.hash,
            salt: FIREBASE_VECTOR.salt,
            createdAt: "1700000000000",
            providerUserInfo: [
              { providerId: "github.com", rawId: `gh-${tag}` },
              { providerId: "password", rawId: email("firebase") },
            ],
          },
        ],
      }),
    );
    const { signerKey, saltSeparator, rounds, memCost } = FIREBASE_VECTOR.config;
    const config = write(
      "hash-config.json",
      JSON.stringify({
        algorithm: "SCRYPT",
        base64_signer_key: signerKey,
        base64_salt_separator: saltSeparator,
        rounds,
        mem_cost: memCost,
      }),
    );
    const missing = await runCli(["import", "firebase", users], { env: db.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--hash-config/);
    expect(await commit(["firebase", users, "--hash-config", config])).toMatchObject({
      imported: 1,
      hashKinds: { "firebase-scrypt": 1 },
    });
    expect((await signIn(email("firebase"), "user1password-not")).status).toBe(401);
    expect((await signIn(email("firebase"), FIREBASE_VECTOR.password)).status).toBe(200);
    expect(await linked("github", `gh-${tag}`)).toBe(email("firebase"));
  });

  it("keycloak: a realm export's PBKDF2 password and TOTP credential; an unusual OTP setting is refused", async () => {
    const otpSecret = `kc-totp-${tag}-0123456789`;
    const otp = (data: Record<string, unknown>) => ({
      type: "otp",
      secretData: JSON.stringify({ value: otpSecret }),
      credentialData: JSON.stringify({ subType: "totp", digits: 6, period: 30, algorithm: "HmacSHA1", ...data }),
    });
    const realm = write(
      "realm.json",
      JSON.stringify({
        realm: "acme",
        users: [
          {
            id: `kc-${tag}`,
            username: `kc${tag}`,
            email: email("keycloak"),
            emailVerified: true,
            firstName: "Key",
            lastName: "Cloak",
            enabled: true,
            createdTimestamp: 1700000000000,
            credentials: [
              { type: "password", ...keycloakCredential("keycloak-password", "pbkdf2-sha256", 27500) },
              otp({}),
            ],
            federatedIdentities: [{ identityProvider: "github", userId: `kgh-${tag}` }],
          },
          { id: `kc8-${tag}`, email: email("keycloak-8"), credentials: [otp({ digits: 8 })] },
        ],
      }),
    );
    const report = await commit(["keycloak", realm]);
    expect(report).toMatchObject({ imported: 1, refused: 1, hashKinds: { "pbkdf2-sha256": 1 } });
    expect(report.problems[0].problem).toMatch(/6 digits/);
    const agent = db.t.agent();
    expect(
      (await agent.post("/sign-in/email", { email: email("keycloak"), password: "keycloak-password" })).body,
    ).toEqual({
      twoFactorRedirect: true,
    });
    const verified = await agent.post("/two-factor/verify-totp", {
      code: totp(Buffer.from(otpSecret, "utf8"), Date.now()),
    });
    expect(verified.status, verified.text).toBe(200);
    expect(await linked("github", `kgh-${tag}`)).toBe(email("keycloak"));
  });
});
