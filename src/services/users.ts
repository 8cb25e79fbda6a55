import type { AuthContext } from "../context.ts";
import { generateId } from "../crypto/random.ts";
import { isUniqueViolationOn, notNullViolationCode } from "../db/errors.ts";
import { toJSONColumn } from "../db/json-column.ts";
import * as users from "../db/repositories/users.ts";
import type { Db, UserRow, UserUpdate } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { iso, isoDate } from "../wire/common.ts";
import type { PublicUser, User } from "../wire/user.ts";
import { findPasswordLengthProblem, storePasswordHash } from "./passwords.ts";
import { type EventSource, recordSecurityEvent, type SecurityEvent } from "./security-events.ts";
import { disownCachedSessions } from "./sessions/redis-cache.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";
import { parseAdditional } from "./user-fields.ts";

// Users: the only writer of the user table. A session is cached (Redis) together with its user, so
// every change to a user disowns the cached sessions (see sessions/redis-cache.ts) before the caller answers.

/** The wire's date form, for callers that take it from here (the command line). */
export { iso };

/** A user as the services hand it out (the stored row). */
export type UserRecord = UserRow;

/** The user on the wire (src/wire/user.ts). */
export type UserWire = User;

/** The user as the API shows it: the one place a user row becomes wire JSON. */
export function toUserWire(ctx: AuthContext, row: UserRow): User {
  const wire: User = {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: Boolean(row.emailVerified),
    image: row.image ?? null,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
  if (ctx.config.username.enabled) {
    wire.username = row.username ?? null;
    wire.displayUsername = row.displayUsername ?? null;
  }
  if (ctx.config.admin.enabled) {
    wire.role = row.role ?? null;
    wire.banned = row.banned === null || row.banned === undefined ? null : Boolean(row.banned);
    wire.banReason = row.banReason ?? null;
    wire.banExpires = iso(row.banExpires);
  }
  if (ctx.config.twoFactor.enabled)
    wire.twoFactorEnabled =
      row.twoFactorEnabled === null || row.twoFactorEnabled === undefined ? null : Boolean(row.twoFactorEnabled);
  const extra = parseAdditional(row);
  for (const [field, definition] of Object.entries(ctx.config.userAdditionalFields)) {
    wire[field] = extra[field] ?? definition.defaultValue ?? null;
  }
  return wire;
}

/** The public fields of a user, as verify-email, change-password and social sign-in answer them. */
export function toPublicUserWire(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    image: row.image ?? null,
    emailVerified: Boolean(row.emailVerified),
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}

/** A ban in force: banned and either no expiry or an expiry still in the future. */
export function isBanned(user: Pick<UserRow, "banned" | "banExpires">, now: number): boolean {
  if (!user.banned) return false;
  return user.banExpires === null || user.banExpires === undefined || Number(user.banExpires) > now;
}

export interface NewUserInput {
  email: string;
  /** Required by the table; a missing name is refused by the NOT NULL constraint (Better Auth's 422). */
  name: string | undefined;
  image?: string | null;
  password?: string;
  emailVerified?: boolean;
  username?: string | null;
  displayUsername?: string | null;
  role?: string | null;
  additional?: Record<string, unknown>;
  /** More rows for the new user, in the same transaction (social sign-up links its provider account). */
  alongside?: (trx: Db, user: UserRow) => Promise<unknown>;
  /** The security event describing the creation (sign-up, admin or CLI create-user), in the same transaction. */
  event?: (user: UserRow) => SecurityEvent;
}

/**
 * Create a user (and a credential account when a password is given) in one transaction. The unique
 * constraints decide races: a lost race on email or username is the same refusal as a visible duplicate.
 */
export async function createUser(ctx: AuthContext, input: NewUserInput): Promise<UserRow> {
  const passwordHash = input.password === undefined ? undefined : await ctx.passwords.hash(input.password);
  const now = ctx.now();
  try {
    return await withTransaction(ctx, async (tx) => {
      const trx = tx.db;
      const user = await users.insertUser(trx, {
        id: generateId(),
        email: input.email.toLowerCase(),
        // Undefined leaves the column out of the insert, so the NOT NULL constraint answers (see NewUserInput.name).
        name: input.name as string,
        image: input.image ?? null,
        emailVerified: input.emailVerified ?? false,
        createdAt: now,
        updatedAt: now,
        username: input.username ? input.username.toLowerCase() : null,
        displayUsername: input.username ? (input.displayUsername ?? input.username) : null,
        role: input.role ?? (ctx.config.admin.enabled ? ctx.config.admin.defaultRole : null),
        banned: null,
        banReason: null,
        banExpires: null,
        twoFactorEnabled: null,
        additionalFields:
          input.additional && Object.keys(input.additional).length > 0 ? toJSONColumn(input.additional) : null,
      });
      if (passwordHash !== undefined) await storePasswordHash(ctx, trx, user.id, passwordHash);
      await input.alongside?.(trx, user);
      if (input.event) await recordSecurityEvent(tx, input.event(user));
      return user;
    });
  } catch (error) {
    if (isUniqueViolationOn(error, "username")) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
    if (isUniqueViolationOn(error, "email")) throw new AuthError("USER_ALREADY_EXISTS");
    const notNull = notNullViolationCode(error);
    if (notNull) throw new AuthError("FAILED_TO_CREATE_USER", { details: { code: notNull } });
    throw error;
  }
}

/**
 * Insert a user row brought by an import (issue 33) into the import's transaction `db`: the row as the source
 * had it (its id, times, verification), checked beforehand by the import. No event: the import reports.
 */
export function insertImportedUserRow(db: Db, row: UserRow): Promise<UserRow> {
  return users.insertUser(db, { ...row, email: row.email.toLowerCase() });
}

export function findUserById(ctx: AuthContext, userId: string): Promise<UserRow | undefined> {
  return users.findUserById(ctx.db, userId);
}

export function findUserByEmail(ctx: AuthContext, email: string): Promise<UserRow | undefined> {
  return users.findUserByEmail(ctx.db, email);
}

export function findUserByUsername(ctx: AuthContext, username: string): Promise<UserRow | undefined> {
  return users.findUserByUsername(ctx.db, username);
}

/** A user by id, or by email when the text looks like one (operators name users either way). */
export function findUserByIdOrEmail(ctx: AuthContext, idOrEmail: string): Promise<UserRow | undefined> {
  return users.findUserByIdOrEmail(ctx.db, idOrEmail);
}

/**
 * Change a user's row (updatedAt is set here); undefined when there is no such user. `db` may be a
 * transaction: the cached sessions are disowned now and once more a moment later, after it commits.
 */
export async function updateUser(
  ctx: AuthContext,
  userId: string,
  changes: UserUpdate,
  db: Db = ctx.db,
): Promise<UserRow | undefined> {
  const updated = await users.updateUser(db, userId, { ...changes, updatedAt: ctx.now() });
  await disownCachedSessions(ctx, db);
  return updated;
}

/** A ban whose expiry has passed lifts itself the next time the user signs in. */
export async function liftExpiredBan(ctx: AuthContext, userId: string): Promise<void> {
  await updateUser(ctx, userId, { banned: false, banReason: null, banExpires: null });
}

/**
 * Mark the address verified. True only for the call that flips it from false to true, so a verification
 * link signs its user in (with auto sign-in) at most once, however often it is replayed.
 */
export async function markEmailVerified(ctx: AuthContext, userId: string, event?: SecurityEvent): Promise<boolean> {
  const flipped = await withTransaction(ctx, async (tx) => {
    const once = await users.markEmailVerifiedOnce(tx.db, userId, ctx.now());
    if (once && event) await recordSecurityEvent(tx, event);
    return once;
  });
  if (flipped) await disownCachedSessions(ctx);
  return flipped;
}

/** Give the user a new, unverified address; null when another user holds it (the unique index decides races). */
export async function changeEmail(
  ctx: AuthContext,
  userId: string,
  email: string,
  event: SecurityEvent,
): Promise<UserRow | null> {
  try {
    return await withTransaction(ctx, async (tx) => {
      const changed = await updateUser(tx, userId, { email, emailVerified: false });
      if (changed) await recordSecurityEvent(tx, event);
      return changed ?? null;
    });
  } catch (error) {
    if (isUniqueViolationOn(error, "email")) return null;
    throw error;
  }
}

/**
 * Delete a user; false when there was none. Their sessions are revoked first through the sessions service
 * (tombstoned in the cache); accounts, memberships, API keys and any session started meanwhile go with the
 * row (foreign keys cascade), and the cache is disowned once more for those.
 */
export async function deleteUser(ctx: AuthContext, userId: string, source: EventSource): Promise<boolean> {
  const deleted = await withTransaction(ctx, async (tx) => {
    await revokeUserSessions(tx, userId);
    const gone = await users.deleteUser(tx.db, userId);
    if (gone) await recordSecurityEvent(tx, { type: "user_deleted", outcome: "success", userId, source });
    return gone;
  });
  await disownCachedSessions(ctx);
  return deleted;
}

/** Password length per configuration; the spec's two messages. */
export function assertPasswordLength(ctx: AuthContext, password: string): void {
  const found = findPasswordLengthProblem(ctx, password);
  if (found?.problem === "too-short") throw new AuthError("PASSWORD_TOO_SHORT");
  if (found?.problem === "too-long") throw new AuthError("PASSWORD_TOO_LONG");
}
