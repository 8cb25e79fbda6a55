import type { Kysely, Transaction } from "kysely";
import type { AuthContext } from "../context.ts";
import { hashPassword } from "../crypto/password.ts";
import { generateId } from "../crypto/random.ts";
import { isUniqueViolationOn, notNullViolationCode } from "../db/errors.ts";
import { insertAccount, insertCredentialAccount } from "../db/repositories/accounts.ts";
import { insertUser } from "../db/repositories/users.ts";
import type { Database, NewAccountRow, UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";

export type Db = Kysely<Database> | Transaction<Database>;

export interface UserWire {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

export function parseAdditional(row: Pick<UserRow, "additionalFields">): Record<string, unknown> {
  if (!row.additionalFields) return {};
  try {
    return JSON.parse(row.additionalFields) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The user as the API shows it: the one place a user row becomes wire JSON. */
export function toUserWire(ctx: AuthContext, row: UserRow): UserWire {
  const wire: UserWire = {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: Boolean(row.emailVerified),
    image: row.image ?? null,
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
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
  const extra = parseAdditional(row);
  for (const [field, definition] of Object.entries(ctx.config.userAdditionalFields)) {
    wire[field] = extra[field] ?? definition.defaultValue ?? null;
  }
  return wire;
}

/** A ban in force: banned and either no expiry or an expiry still in the future. */
export function isBanned(user: Pick<UserRow, "banned" | "banExpires">, now: number): boolean {
  if (!user.banned) return false;
  return user.banExpires === null || user.banExpires === undefined || Number(user.banExpires) > now;
}

/**
 * Validate the configured extra user fields in an input object. On create, required fields must be
 * present and defaults apply; fields with input false are refused from clients.
 */
export function pickAdditionalFields(ctx: AuthContext, input: Record<string, unknown>, mode: "create" | "update"): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, definition] of Object.entries(ctx.config.userAdditionalFields)) {
    const value = input[field];
    if (value === undefined || value === null) {
      if (mode === "create" && definition.required && definition.defaultValue === undefined) {
        throw new AuthError("VALIDATION_ERROR", { message: `${field} is required` });
      }
      if (mode === "create" && definition.defaultValue !== undefined) out[field] = definition.defaultValue;
      continue;
    }
    if (!definition.input) throw new AuthError("VALIDATION_ERROR", { message: `${field} is not allowed` });
    if (typeof value !== definition.type) throw new AuthError("VALIDATION_ERROR", { message: `${field} must be a ${definition.type}` });
    out[field] = value;
  }
  return out;
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
  /** A provider account created in the same transaction (social sign-up). */
  linkedAccount?: Omit<NewAccountRow, "id" | "userId" | "password" | "createdAt" | "updatedAt">;
}

/**
 * Create a user (and a credential account when a password is given) in one transaction. The unique
 * constraints decide races: a lost race on email or username is the same refusal as a visible duplicate.
 */
export async function createUser(ctx: AuthContext, input: NewUserInput): Promise<UserRow> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const now = ctx.now();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, {
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
        additionalFields: input.additional && Object.keys(input.additional).length > 0 ? JSON.stringify(input.additional) : null,
      });
      if (passwordHash !== undefined) {
        await insertCredentialAccount(trx, { id: generateId(), userId: user.id, password: passwordHash, now });
      }
      if (input.linkedAccount) {
        await insertAccount(trx, { ...input.linkedAccount, id: generateId(), userId: user.id, password: null, createdAt: now, updatedAt: now });
      }
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

/** Password length per configuration; the spec's two messages. */
export function assertPasswordLength(ctx: AuthContext, password: string): void {
  if (password.length < ctx.config.emailAndPassword.minPasswordLength) throw new AuthError("PASSWORD_TOO_SHORT");
  if (password.length > ctx.config.emailAndPassword.maxPasswordLength) throw new AuthError("PASSWORD_TOO_LONG");
}
