import type { AuthContext } from "../context.ts";
import { generateId } from "../crypto/random.ts";
import { insertAuditEvent } from "../db/repositories/audit-events.ts";
import { type LogSlot, LogSlots } from "../platform/log-slots.ts";
import { perContext } from "../platform/per-context.ts";
import { withoutControlCharacters } from "./control-characters.ts";
import type { Detail, LogOnlyType } from "./security-event-types.ts";

// Security events: one structured info line per security-relevant action, written through the context's
// logger, and one row in the audit log (the outbox webhooks are delivered from). The row is written
// through `ctx.db`: a service that changes something passes the context of its transaction (see
// withTransaction), so the event commits or rolls back with the change it describes.
//
// Never a secret: an event carries ids, codes and request facts only. The catalogue (security-event-types.ts)
// leaves no field for a password, token, key, code or cookie, and every string is bounded and cleaned of
// control characters (a user agent or an origin is written by the caller, and must neither split a line nor
// drive a terminal).

/** Who acted: the signed-in user themself, an administrator, a server call, an operator at the command line or terminal UI, or nobody known. */
export type ActorType = "user" | "admin" | "server" | "cli" | "anonymous";

/** An administrator acting in a user's name through an impersonation session. */
export interface Impersonation {
  /** The administrator who started the impersonation (the session's impersonatedBy). */
  adminId: string;
  /** The user the session belongs to. */
  userId: string;
}

/** Who acted and from where (the request's client address and user agent; none at the command line). */
export interface EventSource {
  actorType: ActorType;
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** Caused from an impersonation session: the event names the administrator as its actor and both ids in its data. */
  impersonation?: Impersonation;
}

/** The command line and the terminal UI: an operator on the host, no request. */
export const CLI_SOURCE: EventSource = { actorType: "cli", actorId: null, ip: null, userAgent: null };

/** One security event: what happened (type, outcome, a few details), to whom (userId) and by whom from where (source). */
export type SecurityEvent = Detail & { userId: string | null; source: EventSource; organizationId?: string | null };

/** Types written to the log only: an outsider can cause them at will, and they change nothing. */
const LOG_ONLY = new Set<string>(["origin_refused"] satisfies LogOnlyType[]);

const MAX_TEXT = 256;

/** Caller-written text as it may appear in a log line: no control characters, bounded. */
export function loggableText(text: string): string {
  const clean = withoutControlCharacters(text);
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
}

const loggable = (value: unknown): unknown => (typeof value === "string" ? loggableText(value) : value);

/**
 * Record one security event: its log line (message `security.<type>`: outcome, userId, actor, ip, user agent,
 * details) and its audit row, through `ctx.db` (the caller's transaction when it runs in one). Two-factor,
 * passkey and every later feature call this one function with a type from the catalogue.
 */
export async function recordSecurityEvent(ctx: AuthContext, event: SecurityEvent): Promise<void> {
  const { type, outcome, userId, organizationId, ...eventDetails } = event;
  const { source, details } = withImpersonation(eventDetails);
  const fields: Record<string, unknown> = {
    outcome,
    userId,
    actorType: source.actorType,
    actorId: source.actorId,
    ip: source.ip,
    userAgent: source.userAgent,
    ...(organizationId ? { organizationId } : {}),
    ...details,
  };
  for (const [name, value] of Object.entries(fields)) fields[name] = loggable(value);
  // A refused origin is most often the operator's own app missing from AUTH_TRUSTED_ORIGINS: a warning.
  if (type === "origin_refused") ctx.logger.warn(`security.${type}`, fields);
  else ctx.logger.info(`security.${type}`, fields);
  if (LOG_ONLY.has(type)) return;
  const data: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(details)) data[name] = loggable(value);
  await insertAuditEvent(ctx.db, {
    id: generateId(),
    type,
    createdAt: ctx.now(),
    actorType: source.actorType,
    actorId: source.actorId,
    subjectId: userId,
    organizationId: organizationId ?? null,
    ip: source.ip === null ? null : loggableText(source.ip),
    userAgent: source.userAgent === null ? null : loggableText(source.userAgent),
    outcome,
    data: JSON.stringify(data),
  });
}

/**
 * What an impersonation session causes is the administrator's doing, whoever the flow names as the actor (the
 * user whose session it is, or nobody known): the actor becomes the administrator, and the details carry both
 * ids (impersonatedBy, impersonatedUserId), so the log, the audit row and the webhook say who acted as whom.
 */
function withImpersonation(event: Omit<SecurityEvent, "type" | "outcome" | "userId" | "organizationId">) {
  const { source: given, ...details } = event;
  const impersonation = given.impersonation;
  if (!impersonation) return { source: given, details };
  const acting = given.actorType === "user" || given.actorType === "anonymous";
  const source = acting ? { ...given, actorType: "admin" as const, actorId: impersonation.adminId } : given;
  return {
    source,
    details: { ...details, impersonatedBy: impersonation.adminId, impersonatedUserId: impersonation.userId },
  };
}

/** This context's counts of the lines below, per kind and key. */
const logSlots = perContext(() => new LogSlots());

/**
 * Whether a line an outsider can cause at will (refused origins, throttled accounts) may be written now;
 * see LogSlots: one line per key and minute, the repeats in between counted. Null: only counted.
 */
export function claimLogSlot(ctx: AuthContext, kind: string, key: string): LogSlot | null {
  return logSlots(ctx).claim(kind, key, ctx.now());
}
export type { SignInFailureReason, SignInMethod, TwoFactorMethod } from "./security-event-types.ts";
