import type { Context } from "hono";
import { type AuditEventListing, describeEventData, type UserOverview } from "../../../ui/data.ts";
import type { ConsoleUserApiKey, ConsoleUserEvent, ConsoleUserState } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { type ConsoleAccess, consoleScreen, queryNumber } from "./frame.ts";

// A user's detail screen (/console/users/:id): the overview the CLI's `users show` prints, the user's
// timeline of security events a page at a time (?offset=…), and every form that acts on the user
// (user-actions.ts). A key just issued is shown once, in full, on the screen the issuing form draws.

const EVENTS_PAGE = 20;

/** What the impersonation form offers, in seconds; those longer than the configured limit are left out. */
const DURATIONS = [900, 1800, 3600, 7200, 14_400, 28_800, 86_400];
export const DEFAULT_IMPERSONATION = 3600;

export function impersonationDurations(limit: number): number[] {
  const offered = DURATIONS.filter((seconds) => seconds <= limit);
  return offered.includes(limit) ? offered : [...offered, limit];
}

/** The roles the role form offers: user, every admin role and every narrower one (admin.roles). */
export function offeredRoles(ctx: AuthContext): string[] {
  const { adminRoles, roles, defaultRole } = ctx.config.admin;
  return [...new Set(["user", defaultRole, ...adminRoles, ...Object.keys(roles)])];
}

/** The key issued by the form being answered: drawn once on the screen, never stored or sent elsewhere. */
const issuedKeys = new WeakMap<Context, { id: string; key: string }>();

export function showIssuedKey(c: Context, issued: { id: string; key: string }): void {
  issuedKeys.set(c, issued);
}

const permissionsText = (permissions: Record<string, string[]> | null): string | null =>
  permissions && Object.keys(permissions).length > 0
    ? Object.entries(permissions)
        .map(([resource, actions]) => `${resource}:${actions.join(",")}`)
        .join("; ")
    : null;

function keyRow(key: UserOverview["apiKeys"][number]): ConsoleUserApiKey {
  return {
    id: key.id,
    name: key.name,
    start: key.start,
    enabled: key.enabled,
    remaining: key.remaining,
    refillAmount: key.refillAmount,
    refillInterval: key.refillInterval,
    rateLimitEnabled: key.rateLimitEnabled,
    rateLimitMax: key.rateLimitMax,
    rateLimitTimeWindow: key.rateLimitTimeWindow,
    permissions: permissionsText(key.permissions),
    expiresAt: key.expiresAt,
    lastRequest: key.lastRequest,
    createdAt: key.createdAt,
  };
}

const eventRow = (event: AuditEventListing): ConsoleUserEvent => ({
  id: event.id,
  type: event.type,
  outcome: event.outcome,
  createdAt: event.createdAt,
  actorType: event.actor.type,
  actorId: event.actor.id,
  ip: event.ip,
  details: describeEventData(event),
});

async function buildUser(c: Context, ctx: AuthContext, access: ConsoleAccess) {
  const overview = await access.data.describeUser(c.req.param("id") ?? "");
  if (!overview) return null;
  const { user } = overview;
  const offset = queryNumber(c.req.query("offset"), 0, 1_000_000);
  const events = await access.data.listUserAuditEvents(user.id, { limit: EVENTS_PAGE, offset });
  const state: Omit<ConsoleUserState, "console"> = {
    page: "console-user",
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      username: user.username ?? null,
      role: user.role ?? null,
      banned: user.banned === true,
      banReason: user.banReason ?? null,
      banExpires: user.banExpires ?? null,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    features: {
      apiKeys: ctx.config.apiKey.enabled,
      passkeys: ctx.config.passkey.enabled,
      twoFactor: ctx.config.twoFactor.enabled,
      passwords: ctx.config.emailAndPassword.enabled,
      organizations: ctx.config.organization.enabled,
    },
    sessions: overview.sessions.map((session) => ({
      id: session.id,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      ipAddress: session.ipAddress ?? null,
      userAgent: session.userAgent ?? null,
      impersonatedBy: typeof session.impersonatedBy === "string" ? session.impersonatedBy : null,
    })),
    accounts: overview.accounts,
    organizations: overview.organizations,
    apiKeys: overview.apiKeys.map(keyRow),
    passkeys: overview.passkeys.map(({ id, name, deviceType, backedUp, createdAt }) => ({
      id,
      name,
      deviceType,
      backedUp,
      createdAt,
    })),
    secondFactor: overview.secondFactor,
    events: events.items.map(eventRow),
    eventsPage: { offset, limit: EVENTS_PAGE, total: events.total },
    impersonationDurations: impersonationDurations(access.data.impersonationLimit()),
    roles: offeredRoles(ctx),
    issuedKey: issuedKeys.get(c) ?? null,
  };
  return state;
}

export const userScreen = consoleScreen("users", { user: ["get"] }, buildUser);
