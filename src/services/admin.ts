import type { AuthContext } from "../context.ts";
import type { UserRow, UserUpdate } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { iso } from "../wire/common.ts";
import {
  type AccessDecision,
  assertAllowed,
  createAccessControl,
  defineRole,
  type PermissionRequest,
  type RoleMap,
  roleAllows,
  splitRoles,
} from "./access-control.ts";
import { clearPasswordAttempts } from "./account-throttle.ts";
import { defineHook } from "./hooks.ts";
import { setPassword } from "./passwords.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import {
  revokeAllSessions,
  revokeSessionByHandle,
  revokeSessionById,
  revokeUserSessions,
} from "./sessions/sessions.ts";
import { deleteUser, findUserById, updateUser } from "./users.ts";

// The admin capability: who may act on users and sessions, and the actions themselves. Routes check the
// permission first (assertAdminPermission), then call one function here; the command line and the terminal
// UI call the same functions. Each action is logged as a security event from the `source` it is given.

export const adminStatements = {
  user: [
    "create",
    "list",
    "get",
    "update",
    "set-role",
    "ban",
    "impersonate",
    "delete",
    "set-password",
    "reset-two-factor",
  ],
  session: ["list", "revoke", "delete"],
  audit: ["list", "export"],
  // What the web console (issue 32) adds: organizations, API keys across users, webhooks, OpenID clients and
  // the effective settings, each a resource of its own so a narrower role (admin.roles) can leave it out.
  organization: ["list", "get", "update"],
  apiKey: ["list", "create", "update", "revoke"],
  webhook: ["list", "manage", "resend"],
  oauthClient: ["list", "manage"],
  settings: ["read"],
} as const;

export type AdminResource = keyof typeof adminStatements;

const adminAccessControl = createAccessControl(adminStatements);
const fullAccess = adminAccessControl.newRole(adminStatements);
/** The user role holds nothing at all, so a refusal names the resource ("not allowed to access resource"). */
const noAccess = adminAccessControl.newRole({});

/**
 * admin and every configured admin role hold everything; a role of admin.roles holds what it names (a
 * support desk that may list and ban but not delete); user (and any other role) holds nothing.
 */
export function adminRoles(ctx: AuthContext): RoleMap {
  const roles: Record<string, typeof fullAccess> = { admin: fullAccess, user: noAccess };
  for (const [name, statements] of Object.entries(ctx.config.admin.roles)) roles[name] = defineRole(statements);
  for (const role of ctx.config.admin.adminRoles) roles[role] = fullAccess;
  return roles;
}

/** What is wrong with admin.roles: a resource or an action the admin statements do not know (config check). */
export function adminRoleProblems(roles: Record<string, Record<string, string[]>>): string[] {
  const known: Record<string, readonly string[]> = adminStatements;
  const problems: string[] = [];
  for (const [role, statements] of Object.entries(roles))
    for (const [resource, actions] of Object.entries(statements)) {
      const actionsKnown = Object.hasOwn(known, resource) ? known[resource] : undefined;
      if (!actionsKnown) {
        problems.push(`admin.roles.${role}: unknown resource "${resource}" (known: ${Object.keys(known).join(", ")})`);
        continue;
      }
      for (const action of actions)
        if (!actionsKnown.includes(action))
          problems.push(
            `admin.roles.${role}.${resource}: unknown action "${action}" (known: ${actionsKnown.join(", ")})`,
          );
    }
  return problems;
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

/** Whether the user holds any admin permission at all: an admin user id, or a role granting any action. */
export function holdsAnyAdminPermission(ctx: AuthContext, user: Pick<UserRow, "id" | "role">): boolean {
  if (ctx.config.admin.adminUserIds.includes(user.id)) return true;
  const roles = adminRoles(ctx);
  return splitRoles(user.role || ctx.config.admin.defaultRole).some((name) => {
    const role = Object.hasOwn(roles, name) ? roles[name] : undefined;
    return role !== undefined && Object.values(role.statements).some((actions) => actions.length > 0);
  });
}

/**
 * Impersonating someone who holds admin permissions would hand the impersonator those permissions
 * under another name (and let one admin act as another), so it is refused unless configured.
 */
export function assertMayBeImpersonated(ctx: AuthContext, target: Pick<UserRow, "id" | "role">): void {
  if (!ctx.config.admin.allowImpersonatingAdmins && holdsAnyAdminPermission(ctx, target))
    throw new AuthError("YOU_CANNOT_IMPERSONATE_ADMINS");
}

/** "admin, user" or ["admin", "user"] → "admin,user", the stored form of several roles. */
export function normalizeRoles(role: string | readonly string[]): string {
  return splitRoles(role).join(",");
}

export async function findUserOrThrow(ctx: AuthContext, userId: string): Promise<UserRow> {
  const user = await findUserById(ctx, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

async function updateUserOrThrow(ctx: AuthContext, userId: string, changes: UserUpdate): Promise<UserRow> {
  const updated = await updateUser(ctx, userId, changes);
  if (!updated) throw new AuthError("USER_NOT_FOUND");
  return updated;
}

export async function setUserRole(
  ctx: AuthContext,
  userId: string,
  role: string | readonly string[],
  source: EventSource,
): Promise<UserRow> {
  return withTransaction(ctx, async (tx) => {
    const user = await updateUserOrThrow(tx, userId, { role: normalizeRoles(role) });
    await recordSecurityEvent(tx, { type: "role_changed", outcome: "success", role: user.role ?? "", userId, source });
    return user;
  });
}

export interface BanOptions {
  reason?: string;
  /** Seconds until the ban lifts itself; none bans until unbanned. */
  expiresIn?: number;
}

/** Ban a user and end every session they hold, so the ban takes effect at once. */
export async function banUser(
  ctx: AuthContext,
  userId: string,
  options: BanOptions,
  source: EventSource,
): Promise<UserRow> {
  return withTransaction(ctx, async (tx) => {
    const user = await updateUserOrThrow(tx, userId, {
      banned: true,
      banReason: options.reason || ctx.config.admin.defaultBanReason,
      banExpires: options.expiresIn ? ctx.now() + options.expiresIn * 1000 : null,
    });
    await revokeUserSessions(tx, userId);
    await recordSecurityEvent(tx, {
      type: "user_banned",
      outcome: "success",
      banExpires: iso(user.banExpires),
      userId,
      source,
    });
    return user;
  });
}

export async function unbanUser(ctx: AuthContext, userId: string, source: EventSource): Promise<UserRow> {
  return withTransaction(ctx, async (tx) => {
    const user = await updateUserOrThrow(tx, userId, { banned: false, banReason: null, banExpires: null });
    await recordSecurityEvent(tx, { type: "user_unbanned", outcome: "success", userId, source });
    return user;
  });
}

export async function removeUser(ctx: AuthContext, userId: string, source: EventSource): Promise<void> {
  if (!(await deleteUser(ctx, userId, source))) throw new AuthError("USER_NOT_FOUND");
}

/** Set a user's password, creating the credential account when the user signs in only socially. */
/**
 * An operator set a new password: every lock-out a feature keeps on the account goes with the old one
 * (the second factor's count of wrong codes).
 */
export const lockoutsLifted = defineHook<(ctx: AuthContext, userId: string) => Promise<void>>("lockoutsLifted");

export async function setUserPassword(
  ctx: AuthContext,
  userId: string,
  newPassword: string,
  source: EventSource,
): Promise<void> {
  const user = await findUserOrThrow(ctx, userId);
  await setPassword(ctx, userId, newPassword, {
    type: "password_changed",
    outcome: "success",
    method: "admin",
    userId,
    source,
  });
  // A new password set by an operator also unlocks an account held by the per-account throttle, and lifts
  // a lock on its second factor: whoever filled that count knew the old password, and it no longer works.
  await clearPasswordAttempts(ctx, user);
  for (const lift of lockoutsLifted.handlers()) await lift(ctx, userId);
}

/** Which sessions an administrator or operator ends: one (by handle or token, or by id), a user's, or everyone's. */
export type SessionRevocation =
  | { handle: string }
  | { sessionId: string; ownerId?: string }
  | { userId: string }
  | { all: true; onProgress?: (revoked: number) => void };

/** End sessions of others (admin routes, the command line, the terminal UI); returns how many went. */
export async function revokeSessionsOf(
  ctx: AuthContext,
  target: SessionRevocation,
  source: EventSource,
): Promise<number> {
  if ("all" in target) {
    // Everyone's sessions go in batches (with progress), too many for one transaction: the event follows them.
    const count = await revokeAllSessions(ctx, target.onProgress);
    await recordSecurityEvent(ctx, {
      type: "session_revoked",
      outcome: "success",
      scope: "all",
      count,
      userId: null,
      source,
    });
    return count;
  }
  return withTransaction(ctx, async (tx) => {
    if ("userId" in target) {
      const count = await revokeUserSessions(tx, target.userId);
      const event = { type: "session_revoked", outcome: "success", scope: "user", count } as const;
      await recordSecurityEvent(tx, { ...event, userId: target.userId, source });
      return count;
    }
    const revoked =
      "handle" in target
        ? await revokeSessionByHandle(tx, target.handle)
        : await revokeSessionById(tx, target.sessionId, target.ownerId);
    const event = { type: "session_revoked", outcome: "success", scope: "session", count: revoked.length } as const;
    await recordSecurityEvent(tx, { ...event, sessionId: revoked[0]?.id, userId: revoked[0]?.userId ?? null, source });
    return revoked.length;
  });
}
