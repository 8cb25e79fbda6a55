// bench/seed: fill an authd database with many users fast, so latency can be compared at 1,000 and at
// 1,000,000 users. Every user gets a credential account (one shared scrypt hash: hashing a million
// passwords would take hours and measures nothing) and one live session.
//
//   bun bench/seed.ts --database-url sqlite://./bench.db --users 1000000
//   bun bench/seed.ts --database-url 'postgres://postgres@127.0.0.1:5432/test?schema=bench' --users 100000
//
// Users are seed.<n>@example.com with password "bench-password-123"; session tokens are seed<n> padded
// (stored, like every session token, as their SHA-256).

import { parseArgs } from "node:util";
import type { Kysely } from "kysely";
import { loadConfig } from "../src/config/load.ts";
import { createContext } from "../src/context.ts";
import { createPasswordHasher } from "../src/crypto/password.ts";
import type { Database } from "../src/db/schema.ts";
import { registerFeatures } from "../src/features.ts";
import { silentLogger } from "../src/logger.ts";
import { hashSessionToken } from "../src/services/sessions/sessions.ts";

export const SEED_PASSWORD = "bench-password-123";
const BATCH = 500;

export const seedEmail = (n: number) => `seed.${n}@example.com`;
export const seedToken = (n: number) => `seed${String(n).padStart(28, "0")}`;

/** The Cookie header a sign-in answer sets (each cookie's name=value), for the requests that follow it. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Insert users, accounts and sessions numbered from `from` (inclusive) to `to` (exclusive). */
export async function seedUsers(
  db: Kysely<Database>,
  from: number,
  to: number,
  onProgress?: (done: number) => void,
): Promise<void> {
  const hash = await createPasswordHasher().hash(SEED_PASSWORD);
  const now = Date.now();
  const expiresAt = now + 30 * 86_400_000;
  for (let start = from; start < to; start += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, to - start) }, (_, i) => start + i);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("user")
        .values(
          numbers.map((n) => ({
            id: `u${n}`,
            name: `Seed ${n}`,
            email: seedEmail(n),
            emailVerified: true,
            image: null,
            createdAt: now,
            updatedAt: now,
            username: null,
            displayUsername: null,
            role: "user",
            banned: null,
            banReason: null,
            banExpires: null,
            additionalFields: null,
          })),
        )
        .execute();
      await trx
        .insertInto("account")
        .values(
          numbers.map((n) => ({
            id: `a${n}`,
            accountId: `u${n}`,
            providerId: "credential",
            userId: `u${n}`,
            password: hash,
            accessToken: null,
            refreshToken: null,
            idToken: null,
            accessTokenExpiresAt: null,
            refreshTokenExpiresAt: null,
            scope: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto("session")
        .values(
          numbers.map((n) => ({
            id: `s${n}`,
            tokenHash: hashSessionToken(seedToken(n)),
            userId: `u${n}`,
            expiresAt,
            ipAddress: "",
            userAgent: "",
            createdAt: now,
            updatedAt: now,
            activeOrganizationId: null,
            activeTeamId: null,
            impersonatedBy: null,
          })),
        )
        .execute();
    });
    onProgress?.(start + numbers.length - from);
  }
}

/** How many seeded users the database holds already (seeding is resumable). */
export async function countSeeded(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("user")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("email", "like", "seed.%")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Top the database up to `users` seeded users; returns the seconds spent. */
export async function seedDatabase(
  databaseURL: string,
  users: number,
  log: (line: string) => void = () => {},
): Promise<number> {
  const config = loadConfig({
    env: {
      AUTH_DATABASE_URL: databaseURL,
      AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
    },
  });
  registerFeatures();
  const ctx = await createContext(config, { logger: silentLogger, migrate: true });
  const started = performance.now();
  try {
    const existing = await countSeeded(ctx.db);
    if (existing >= users) return 0;
    let lastLog = 0;
    await seedUsers(ctx.db, existing, users, (done) => {
      if (done - lastLog >= 50_000) {
        lastLog = done;
        log(`  seeded ${existing + done} users`);
      }
    });
    return (performance.now() - started) / 1000;
  } finally {
    await ctx.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { "database-url": { type: "string" }, users: { type: "string", default: "1000" } },
  });
  const url = values["database-url"];
  if (!url) {
    console.error("usage: bun bench/seed.ts --database-url URL --users N");
    process.exit(2);
  }
  const users = Number(values.users);
  const seconds = await seedDatabase(url, users, console.log);
  console.log(`database holds ${users} seeded users (${seconds.toFixed(1)} s spent now)`);
}
