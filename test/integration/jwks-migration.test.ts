import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import { generateId } from "../../src/crypto/random.ts";
import { openDatabase } from "../../src/db/driver.ts";
import { createTestContext, describeEachDialect, signUp, TEST_ORIGIN } from "../helpers/context.ts";
import { migratorFor, scratchDatabase } from "../helpers/migrations.ts";

// Upgrading a database whose jwks table already holds a key written the Better Auth way (its private key
// sealed by another scheme): the row keeps verifying the tokens it signed, and authd signs with a key of
// its own from then on.

const BEFORE = "20261123140000_hash_session_tokens";

describeEachDialect("jwks rotation columns on an existing key", (dialect) => {
  it("keeps publishing the old key (as EdDSA) until its tokens expire, and signs with a new one", async () => {
    const scratch = await scratchDatabase(dialect);
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const oldKid = generateId();
    const handle = openDatabase(scratch.url);
    try {
      const { error } = await migratorFor(handle.db as Kysely<unknown>, handle.schema).migrateTo(BEFORE);
      if (error) throw error;
      const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const row = { id: oldKid, publicKey: JSON.stringify(await exportJWK(publicKey)), privateKey: "sealed-elsewhere" };
      await db
        .insertInto("jwks")
        .values({ ...row, createdAt: Date.now() })
        .execute();
    } finally {
      await handle.close();
    }
    const oldToken = await new SignJWT({ email: "before@example.com" })
      .setProtectedHeader({ alg: "EdDSA", kid: oldKid })
      .setIssuer(TEST_ORIGIN)
      .setAudience(TEST_ORIGIN)
      .setSubject("someone")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);

    const t = await createTestContext({ dialect, databaseURL: scratch.url });
    try {
      const { agent } = await signUp(t);
      const fresh = (await agent.get("/token")).body.token as string;
      const jwks = (await t.agent().get("/jwks")).body;
      expect(jwks.keys).toHaveLength(2);
      expect(jwks.keys[1]).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String), alg: "EdDSA", kid: oldKid });
      const verify = (token: string) =>
        jwtVerify(token, createLocalJWKSet(jwks), { issuer: TEST_ORIGIN, audience: TEST_ORIGIN });
      expect((await verify(oldToken)).payload.email).toBe("before@example.com");
      expect((await verify(fresh)).protectedHeader.kid).toBe(jwks.keys[0].kid);
      const stored = await t.ctx.db.selectFrom("jwks").selectAll().where("id", "=", oldKid).executeTakeFirst();
      expect(stored?.expiresAt).toBeGreaterThan(t.clock.now);
    } finally {
      await t.close();
      await scratch.drop();
    }
  });
});
