import type { Kysely } from "kysely";
import { afterEach, expect, it } from "vitest";
import { signValue } from "../../src/crypto/hmac.ts";
import { generateId, generateRandomString } from "../../src/crypto/random.ts";
import { openDatabase } from "../../src/db/driver.ts";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import { describeEachDialect, TEST_SECRET } from "../helpers/context.ts";
import { peerRequest, startAuthd } from "../helpers/live-server.ts";
import { migratorFor, scratchDatabase } from "../helpers/migrations.ts";

// Upgrading a deployment whose session table holds tokens in clear: the migration hashes every row in place,
// and a browser signed in before the upgrade stays signed in after it.

const BEFORE = "20261121000000_create_auth_tables";
const HASHING = "20261123140000_hash_session_tokens";

/** A database at the schema before hashing: one user with two sessions, another with `extra`, all stored the old way. */
async function databaseWithClearTokens(url: string, extra: number) {
  const handle = openDatabase(url);
  const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  try {
    const { error } = await migratorFor(handle.db as Kysely<unknown>, handle.schema).migrateTo(BEFORE);
    if (error) throw error;
    const now = Date.now();
    const user = {
      id: generateId(),
      name: "Old Timer",
      email: "old.timer@example.com",
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
    };
    const other = { ...user, id: generateId(), email: "someone.else@example.com" };
    await db.insertInto("user").values([user, other]).execute();
    const session = (userId: string) => (token: string) => ({
      id: generateId(),
      token,
      userId,
      expiresAt: now + 86_400_000,
      ipAddress: "",
      userAgent: "",
      createdAt: now,
      updatedAt: now,
    });
    const tokens = [generateRandomString(32), generateRandomString(32)];
    const filler = Array.from({ length: extra }, () => generateRandomString(32));
    for (let start = 0; start < filler.length; start += 200) {
      await db
        .insertInto("session")
        .values(filler.slice(start, start + 200).map(session(other.id)))
        .execute();
    }
    await db
      .insertInto("session")
      .values(tokens.map(session(user.id)))
      .execute();
    return { user, tokens, filler };
  } finally {
    await handle.close();
  }
}

const cookieFor = (token: string) => `better-auth.session_token=${encodeURIComponent(signValue(TEST_SECRET, token))}`;

describeEachDialect("session token hashing migration", (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("hashes every clear-token row, and a cookie from before the upgrade still signs in", async () => {
    // Given a deployment on the old schema: more sessions than one conversion batch, two of them one user's.
    const scratch = await scratchDatabase(dialect);
    cleanups.push(scratch.drop);
    const old = await databaseWithClearTokens(scratch.url, 520);

    // When the upgraded daemon starts (serve applies pending migrations first).
    const daemon = await startAuthd({ dialect, databaseURL: scratch.url });
    cleanups.push(daemon.close);

    // Then no row holds a clear token any more, and every row holds the hash of its old token.
    const rows = await daemon.t.ctx.db.selectFrom("session").selectAll().execute();
    expect(rows).toHaveLength(522);
    const stored = new Set(rows.map((row) => row.tokenHash));
    for (const token of [...old.tokens, ...old.filler]) {
      expect(stored.has(hashSessionToken(token))).toBe(true);
      expect(stored.has(token)).toBe(false);
    }
    expect(rows.some((row) => "token" in row)).toBe(false);

    // And the browser signed in before the upgrade is still signed in, over a real socket.
    const session = await peerRequest(daemon.url, "/api/auth/get-session?disableCookieCache=true", {
      headers: { cookie: cookieFor(old.tokens[0]) },
    });
    expect(session.status).toBe(200);
    expect(session.json).toMatchObject({
      user: { id: old.user.id, email: old.user.email },
      session: { token: old.tokens[0], userId: old.user.id },
    });

    // And its other session can be listed by handle and revoked with it.
    const listed = (
      await peerRequest(daemon.url, "/api/auth/list-sessions", { headers: { cookie: cookieFor(old.tokens[0]) } })
    ).json as { token: string }[];
    expect(listed.map((s) => s.token).sort()).toEqual(old.tokens.map(hashSessionToken).sort());
    const revoke = await peerRequest(daemon.url, "/api/auth/revoke-session", {
      headers: { cookie: cookieFor(old.tokens[0]), origin: daemon.t.ctx.baseURL },
      body: { token: hashSessionToken(old.tokens[1]) },
    });
    expect(revoke.status).toBe(200);
    const gone = await peerRequest(daemon.url, "/api/auth/get-session?disableCookieCache=true", {
      headers: { cookie: cookieFor(old.tokens[1]) },
    });
    expect(gone.json).toBeNull();
  });

  it("keeps the hash unique after the upgrade", async () => {
    const scratch = await scratchDatabase(dialect);
    cleanups.push(scratch.drop);
    const old = await databaseWithClearTokens(scratch.url, 0);
    const daemon = await startAuthd({ dialect, databaseURL: scratch.url });
    cleanups.push(daemon.close);
    const now = Date.now();
    const duplicate = {
      id: generateId(),
      tokenHash: hashSessionToken(old.tokens[0]),
      userId: old.user.id,
      expiresAt: now + 1000,
      ipAddress: null,
      userAgent: null,
      createdAt: now,
      updatedAt: now,
      activeOrganizationId: null,
      activeTeamId: null,
      impersonatedBy: null,
    };
    await expect(daemon.t.ctx.db.insertInto("session").values(duplicate).execute()).rejects.toThrow();
  });

  it("down empties the table (hashes cannot be turned back into tokens) and restores the old column", async () => {
    const scratch = await scratchDatabase(dialect);
    cleanups.push(scratch.drop);
    await databaseWithClearTokens(scratch.url, 3);
    const handle = openDatabase(scratch.url);
    cleanups.push(() => handle.close());
    const migrator = migratorFor(handle.db as Kysely<unknown>, handle.schema);
    expect((await migrator.migrateTo(HASHING)).error).toBeUndefined();
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<{ session: { token: string } }>;
    expect(await db.selectFrom("session").select("token").execute()).toEqual([]);
  });
});
