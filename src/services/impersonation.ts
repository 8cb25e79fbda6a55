import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors.ts";
import { isoDate } from "../wire/common.ts";
import { assertMayBeImpersonated, findUserOrThrow } from "./admin.ts";
import type { EventSource } from "./security-events.ts";
import { findSession, revokeSession, type SessionWithUser } from "./sessions/sessions.ts";
import { startSession } from "./sign-in/start-session.ts";

// Impersonation: an administrator signs in as a user for a short while, in a session marked impersonatedBy.
// The rules are here (who may be impersonated, how long, the reason on the event); the HTTP side parks the
// administrator's own session in a signed cookie and brings it back (src/http/impersonation.ts), for the
// API's /admin/impersonate-user and /admin/stop-impersonating and the console alike. Whoever asks has been
// checked for the user:impersonate permission before. Every event the impersonation session causes names
// the administrator as its actor and both ids (security-events.ts, `withImpersonation`).

/** Longest reason kept on the event: it is an operator's note, not a document. */
export const IMPERSONATION_REASON_MAX = 500;

export interface ImpersonationOptions {
  /** Why: recorded on impersonation_started (the console requires one; the API takes it optionally). */
  reason?: string;
  /** Seconds it lasts: at most admin.impersonationSessionDuration, which it is when unset (longer is cut to it). */
  expiresIn?: number;
  /** The request's address and user agent, kept on the impersonation session like any session's. */
  ipAddress: string | null;
  userAgent: string | null;
}

/** The longest an impersonation may last, in seconds. */
export function impersonationLimit(ctx: AuthContext): number {
  return ctx.config.admin.impersonationSessionDuration;
}

/**
 * Start a session of `targetUserId` marked as impersonated by `adminId`. An administrator (any admin
 * permission) cannot be impersonated unless admin.allowImpersonatingAdmins, nor a banned user (the ban rules
 * of every sign-in apply).
 */
export async function startImpersonation(
  ctx: AuthContext,
  adminId: string,
  targetUserId: string,
  options: ImpersonationOptions,
  source: EventSource,
): Promise<SessionWithUser> {
  const target = await findUserOrThrow(ctx, targetUserId);
  assertMayBeImpersonated(ctx, target);
  const limit = impersonationLimit(ctx);
  const expiresIn = Math.max(1, Math.min(Math.floor(options.expiresIn ?? limit), limit));
  const reason = options.reason?.trim().slice(0, IMPERSONATION_REASON_MAX);
  const session = await startSession(ctx, target, {
    impersonatedBy: adminId,
    expiresIn,
    ipAddress: options.ipAddress,
    userAgent: options.userAgent ?? "",
    event: (started) => ({
      type: "impersonation_started",
      outcome: "success",
      sessionId: started.id,
      expiresAt: isoDate(Number(started.expiresAt)),
      ...(reason ? { reason } : {}),
      userId: target.id,
      source,
    }),
  });
  return { session, user: target };
}

/**
 * End the impersonation `current` is (impersonation_stopped) and answer the administrator's own session, named
 * by the token parked when it began: it must still be live and be the session of the administrator who
 * started this impersonation, else FAILED_TO_FIND_ADMIN_SESSION and nothing ends.
 */
export async function stopImpersonation(
  ctx: AuthContext,
  current: SessionWithUser,
  parkedAdminToken: string | null,
  source: EventSource,
): Promise<SessionWithUser> {
  const impersonatedBy = current.session.impersonatedBy;
  if (!impersonatedBy) throw new AuthError("NOT_IMPERSONATING");
  const admin = parkedAdminToken ? await findSession(ctx, parkedAdminToken) : null;
  if (!admin || admin.user.id !== impersonatedBy) throw new AuthError("FAILED_TO_FIND_ADMIN_SESSION");
  await revokeSession(ctx, current.session.token, (ended) => ({
    type: "impersonation_stopped",
    outcome: "success",
    sessionId: ended.id,
    userId: ended.userId,
    source,
  }));
  return admin;
}
