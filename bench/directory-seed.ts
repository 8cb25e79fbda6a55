// Seeding a user directory that looks like a real one, fast (bench/console-users.ts): users created over
// three years with names, emails on a few domains, some usernames, and the shares the console filters on:
// 1 % banned (a third of those bans already expired), 10 % unverified, 5 % with a second factor, 3 % with a
// passkey, a password for 70 %, GitHub for 25 % and Google for 15 %, 0.01 % admins and 0.05 % support, and
// 20 % members of 1,000 organizations (one of 100,000 members, the rest small). Rows go in as multi-row
// inserts, 1,000 users (and their accounts, passkeys and memberships) per transaction.

import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.ts";

const FIRST = ["Anna", "Ben", "Clara", "David", "Elena", "Felix", "Greta", "Hugo", "Ida", "Jonas", "Julia", "John"];
const MORE_FIRST = ["Karl", "Lena", "Max", "Nora", "Oskar", "Paula", "Quentin", "Rosa", "Sam", "Tara", "Uwe", "Vera"];
const LAST = ["Meyer", "Schmidt", "Fischer", "Weber", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Klein"];
const MORE_LAST = ["Wolf", "Brown", "Smith", "Jones", "Garcia", "Miller", "Davis", "Lopez", "Wilson", "Moore"];
const FIRST_NAMES = [...FIRST, ...MORE_FIRST];
const LAST_NAMES = [...LAST, ...MORE_LAST];
const DOMAINS = ["example.com", "mail.example", "acme.test", "globex.test", "initech.test", "example.org"];

export const ORGANIZATIONS = 1000;
/** The one user the searches look for: a needle among them all (number `users` × 0.777777). */
export const NEEDLE = { share: 0.777777, email: "needle.person@findme.example", name: "Nadia Needle" };
const START = Date.UTC(2023, 0, 1);
const SPAN = 3 * 365 * 86_400_000;
const BATCH = 1000;

/** A deterministic fraction in [0, 1) per user and purpose, so every run seeds the same directory. */
function share(n: number, salt: number): number {
  let x = (n * 2654435761 + salt * 40503) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 2246822507) >>> 0;
  x ^= x >>> 13;
  return (x >>> 0) / 4294967296;
}

const pick = <T>(list: readonly T[], n: number, salt: number): T => list[Math.floor(share(n, salt) * list.length)] as T;
const id = () => randomBytes(24).toString("base64url");

export function organizationId(index: number): string {
  return `org${String(index).padStart(5, "0")}`;
}

/** The organization a user belongs to, if any: the first holds 100,000 (10 %), 999 small ones share 10 %. */
function membership(n: number): number | null {
  const x = share(n, 7);
  if (x < 0.1) return 0;
  if (x < 0.2) return 1 + Math.floor(share(n, 8) * (ORGANIZATIONS - 1));
  return null;
}

function userRow(n: number, users: number, now: number) {
  const first = pick(FIRST_NAMES, n, 1);
  const last = pick(LAST_NAMES, n, 2);
  const needle = n === Math.floor(users * NEEDLE.share);
  const createdAt = START + Math.floor((n / users) * SPAN) + Math.floor(share(n, 3) * 60_000);
  const banned = share(n, 4) < 0.01;
  const expiredBan = banned && share(n, 5) < 0.33;
  const r = share(n, 6);
  return {
    id: id(),
    name: needle ? NEEDLE.name : `${first} ${last}`,
    email: needle ? NEEDLE.email : `${first}.${last}.${n}@${pick(DOMAINS, n, 9)}`.toLowerCase(),
    emailVerified: share(n, 10) >= 0.1,
    image: null,
    createdAt,
    updatedAt: createdAt,
    username: share(n, 11) < 0.3 ? `${first}${n}`.toLowerCase() : null,
    displayUsername: null,
    role: r < 0.0001 ? "admin" : r < 0.0006 ? "support" : r < 0.7 ? "user" : null,
    banned: banned ? true : null,
    banReason: banned ? "spam" : null,
    banExpires: expiredBan ? now - 86_400_000 : banned && share(n, 12) < 0.5 ? now + 30 * 86_400_000 : null,
    additionalFields: null,
    twoFactorEnabled: share(n, 13) < 0.05 ? true : null,
  };
}

function accountRow(userId: string, providerId: string, accountId: string, createdAt: number) {
  return {
    id: id(),
    accountId,
    providerId,
    userId,
    password: providerId === "credential" ? "seeded-not-a-hash" : null,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt,
    updatedAt: createdAt,
  };
}

async function seedOrganizations(db: Kysely<Database>): Promise<void> {
  for (let start = 0; start < ORGANIZATIONS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, ORGANIZATIONS - start) }, (_, i) => ({
      id: organizationId(start + i),
      name: `Organization ${start + i}`,
      slug: `org-${start + i}`,
      logo: null,
      metadata: null,
      createdAt: START,
    }));
    await db.insertInto("organization").values(rows).execute();
  }
}

/** Users numbered from 0 to `users` (exclusive) with their accounts, passkeys and memberships. */
export async function seedDirectory(
  db: Kysely<Database>,
  users: number,
  onProgress: (done: number) => void = () => {},
): Promise<void> {
  const now = Date.now();
  await seedOrganizations(db);
  for (let start = 0; start < users; start += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, users - start) }, (_, i) => start + i);
    const rows = numbers.map((n) => ({ n, user: userRow(n, users, now) }));
    const accounts = rows.flatMap(({ n, user }) => [
      ...(share(n, 14) < 0.7 ? [accountRow(user.id, "credential", user.id, user.createdAt)] : []),
      ...(share(n, 15) < 0.25 ? [accountRow(user.id, "github", `gh${n}`, user.createdAt)] : []),
      ...(share(n, 16) < 0.15 ? [accountRow(user.id, "google", `g${n}`, user.createdAt)] : []),
    ]);
    const passkeys = rows
      .filter(({ n }) => share(n, 17) < 0.03)
      .map(({ n, user }) => ({
        id: id(),
        name: "laptop",
        publicKey: "cGs=",
        userId: user.id,
        credentialID: `cred${n}`,
        counter: 0,
        deviceType: "multiDevice",
        backedUp: true,
        transports: "internal",
        createdAt: user.createdAt,
        aaguid: null,
        lastUsedAt: null,
      }));
    const members = rows.flatMap(({ n, user }) => {
      const organization = membership(n);
      if (organization === null) return [];
      const role = share(n, 18) < 0.01 ? "owner" : "member";
      return [
        { id: id(), organizationId: organizationId(organization), userId: user.id, role, teamId: null, createdAt: now },
      ];
    });
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("user")
        .values(rows.map((row) => row.user))
        .execute();
      if (accounts.length > 0) await trx.insertInto("account").values(accounts).execute();
      if (passkeys.length > 0) await trx.insertInto("passkey").values(passkeys).execute();
      if (members.length > 0) await trx.insertInto("member").values(members).execute();
    });
    onProgress(start + numbers.length);
  }
}
