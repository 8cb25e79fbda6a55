import type { AuthContext } from "../context.ts";
import { hashPassword } from "../crypto/password.ts";
import { generateId } from "../crypto/random.ts";
import { findCredentialAccount, insertCredentialAccount, updateAccount } from "../db/repositories/accounts.ts";
import { deleteUser, findUserById, updateUser } from "../db/repositories/users.ts";
import type { UserRow, UserUpdate } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { type AccessDecision, assertAllowed, createAccessControl, type PermissionRequest, type RoleMap, roleAllows, splitRoles } from "./access-control.ts";
import { revokeUserSessions } from "./sessions.ts";

// The admin capability: who may act on users and sessions, and the actions themselves. Routes check the
// permission first (assertAdminPermission), then call one function here.

export const adminStatements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
  session: ["list", "revoke", "delete"],
} as const;

const adminAccessControl = createAccessControl(adminStatements);
const fullAccess = adminAccessControl.newRole(adminStatements);
/** The user role holds nothing at all, so a refusal names the resource ("not allowed to access resource"). */
const noAccess = adminAccessControl.newRole({});

/** admin and every configured admin role hold everything; user (and any other role) holds nothing. */
export function adminRoles(ctx: AuthContext): RoleMap {
  const roles: Record<string, typeof fullAccess> = { admin: fullAccess, user: noAccess };
  for (const role of ctx.config.admin.adminRoles) roles[role] = fullAccess;
  return roles;
}

/** Who is asking: the server (holds every permission) or a user with their role string. */
export type AdminActor = { kind: "server" } | { kind: "user"; userId: string; role: string | null | undefined };

export function actorFor(isServer: boolean, user: Pick<UserRow, "id" | "role"> | undefined): AdminActor {
  if (isServer || !user) return { kind: "server" };
  return { kind: "user", userId: user.id, role: user.role };
}

export function decideAdminPermission(ctx: AuthContext, actor: AdminActor, request: PermissionRequest): AccessDecision {
  if (actor.kind === "server") return { allowed: true };
  if (ctx.config.admin.adminUserIds.includes(actor.userId)) return { allowed: true };
  return roleAllows(adminRoles(ctx), actor.role || ctx.config.admin.defaultRole, request);
}

export function assertAdminPermission(ctx: AuthContext, actor: AdminActor, request: PermissionRequest): void {
  assertAllowed(decideAdminPermission(ctx, actor, request));
}

/** Whether the user holds the whole admin capability (an admin user id or an admin role). */
export function isAdminUser(ctx: AuthContext, user: Pick<UserRow, "id" | "role">): boolean {
  if (ctx.config.admin.adminUserIds.includes(user.id)) return true;
  return splitRoles(user.role).some((role) => role === "admin" || ctx.config.admin.adminRoles.includes(role));
}

/** "admin, user" or ["admin", "user"] → "admin,user", the stored form of several roles. */
export function normalizeRoles(role: string | readonly string[]): string {
  return splitRoles(role).join(",");
}

export async function findUserOrThrow(ctx: AuthContext, userId: string): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
  return user;
}

async function updateUserOrThrow(ctx: AuthContext, userId: string, changes: UserUpdate): Promise<UserRow> {
  const updated = await updateUser(ctx.db, userId, { ...changes, updatedAt: ctx.now() });
  if (!updated) throw new AuthError("USER_NOT_FOUND", { status: 404 });
  return updated;
}

export function setUserRole(ctx: AuthContext, userId: string, role: string | readonly string[]): Promise<UserRow> {
  return updateUserOrThrow(ctx, userId, { role: normalizeRoles(role) });
}

export interface BanOptions {
  reason?: string;
  /** Seconds until the ban lifts itself; none bans until unbanned. */
  expiresIn?: number;
}

/** Ban a user and end every session they hold, so the ban takes effect at once. */
export async function banUser(ctx: AuthContext, userId: string, options: BanOptions = {}): Promise<UserRow> {
  const user = await updateUserOrThrow(ctx, userId, {
    banned: true,
    banReason: options.reason || ctx.config.admin.defaultBanReason,
    banExpires: options.expiresIn ? ctx.now() + options.expiresIn * 1000 : null,
  });
  await revokeUserSessions(ctx, userId);
  return user;
}

export function unbanUser(ctx: AuthContext, userId: string): Promise<UserRow> {
  return updateUserOrThrow(ctx, userId, { banned: false, banReason: null, banExpires: null });
}

/** A ban whose expiry has passed lifts itself the next time the user signs in. */
export async function liftExpiredBan(ctx: AuthContext, userId: string): Promise<void> {
  await updateUser(ctx.db, userId, { banned: false, banReason: null, banExpires: null, updatedAt: ctx.now() });
}

export async function removeUser(ctx: AuthContext, userId: string): Promise<void> {
  // Sessions, accounts, memberships and API keys go with the user (foreign keys cascade).
  if (!(await deleteUser(ctx.db, userId))) throw new AuthError("USER_NOT_FOUND", { status: 404 });
}

/** Set a user's password, creating the credential account when the user signs in only socially. */
export async function setUserPassword(ctx: AuthContext, userId: string, newPassword: string): Promise<void> {
  await findUserOrThrow(ctx, userId);
  const hash = await hashPassword(newPassword);
  const now = ctx.now();
  const account = await findCredentialAccount(ctx.db, userId);
  if (account) {
    await updateAccount(ctx.db, account.id, { password: hash, updatedAt: now });
    return;
  }
  await insertCredentialAccount(ctx.db, { id: generateId(), userId, password: hash, now });
}
