import type { AuthContext } from "../../context.ts";
import { findMember } from "../../db/repositories/organizations.ts";
import type { Db, MemberRow, SessionRow, UserRow } from "../../db/schema.ts";
import { AuthError, type ErrorKey } from "../../errors.ts";
import type { OrganizationDetail } from "../security-event-types.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";
import { type LiveSession, updateSession } from "../sessions/sessions.ts";

// The caller of an organization operation: a signed-in user with their session, or (server calls) a user
// named by id with no session. Session changes are recorded so the route can rewrite the session cookie.

export interface Actor {
  user: UserRow;
  session: LiveSession | null;
  sessionChanged: boolean;
  /** Who acts from where, for security events (a server call naming the user when not given). */
  source: EventSource;
}

const SERVER_SOURCE: EventSource = { actorType: "server", actorId: null, ip: null, userAgent: null };

export function actorFrom(user: UserRow, session: LiveSession | null, source: EventSource = SERVER_SOURCE): Actor {
  return { user, session, sessionChanged: false, source };
}

/**
 * Record an organization event inside the transaction `trx` of the change (a server call when there is no
 * actor; an operator, who is no member, gives only their source); `subjectId` is the user the event is about
 * (the new member, the invitee, …).
 */
export async function recordOrganizationEvent(
  ctx: AuthContext,
  trx: Db,
  actor: Pick<Actor, "source"> | null,
  organizationId: string,
  detail: OrganizationDetail,
  subjectId: string | null,
): Promise<void> {
  const event = { ...detail, organizationId, userId: subjectId, source: actor?.source ?? SERVER_SOURCE };
  await recordSecurityEvent({ ...ctx, db: trx }, event);
}

/** The organization a call is about: the one named, else the session's active one. */
export function targetOrganizationId(actor: Actor | null, given: string | null | undefined): string | null {
  return given || actor?.session?.activeOrganizationId || null;
}

export async function changeActiveSession(
  ctx: AuthContext,
  actor: Actor,
  changes: Pick<Partial<SessionRow>, "activeOrganizationId" | "activeTeamId">,
): Promise<void> {
  if (!actor.session) return;
  const updated = await updateSession(ctx, actor.session, changes);
  if (updated) {
    actor.session = updated;
    actor.sessionChanged = true;
  }
}

/** The actor's membership of the organization, or the given refusal. */
export async function requireMembership(
  ctx: AuthContext,
  organizationId: string,
  userId: string,
  refusal: ErrorKey,
): Promise<MemberRow> {
  const member = await findMember(ctx.db, organizationId, userId);
  if (!member) throw new AuthError(refusal);
  return member;
}
