import type { AuthContext } from "../context.ts";
import { withoutControlCharacters } from "./control-characters.ts";
import type { LogSlot } from "./in-process.ts";

// The security log: one structured info line per security-relevant action, written through the context's
// logger wherever the action happens (HTTP routes, the command line, the terminal UI). The event types and
// fields follow issue 21's audit events, so this one call can later also write the audit record.
//
// Never a secret: an event carries ids, codes and request facts only. The types below leave no field for a
// password, token, key, code or cookie, and every string is bounded and cleaned of control characters (a
// user agent or an origin is written by the caller, and must neither split a line nor drive a terminal).

/** Who acted: the signed-in user themself, an administrator, a server call, an operator at the command line or terminal UI, or nobody known. */
export type ActorType = "user" | "admin" | "server" | "cli" | "anonymous";

/** Who acted and from where (the request's client address and user agent; none at the command line). */
export interface EventSource {
  actorType: ActorType;
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The command line and the terminal UI: an operator on the host, no request. */
export const CLI_SOURCE: EventSource = { actorType: "cli", actorId: null, ip: null, userAgent: null };

/** How a sign-in proved who the caller is. */
export type SignInMethod = "email" | "username" | "social" | "api-key" | "email-verification";

/** Why a sign-in failed (a code, never what the caller sent). */
export type SignInFailureReason =
  | "invalid_credentials"
  | "email_not_verified"
  | "banned"
  | "throttled"
  | "invalid_token"
  | "account_not_linked"
  | "signup_disabled"
  | "unable_to_create_user"
  | "unable_to_link_account"
  | "unable_to_create_session"
  | "state_mismatch"
  | "provider_error"
  | "invalid_code"
  | "unable_to_get_user_info"
  | "email_not_found"
  | "key_not_found"
  | "key_disabled"
  | "key_expired"
  | "usage_exceeded"
  | "rate_limited"
  | "invalid_api_key"
  | "failed";

type Detail =
  | { type: "sign_in"; outcome: "success"; method: SignInMethod; provider?: string; keyId?: string }
  | { type: "sign_in"; outcome: "failure"; method: SignInMethod; reason: SignInFailureReason; provider?: string }
  | { type: "sign_up"; outcome: "success"; method: "email" | "social"; provider?: string }
  | {
      type: "password_changed";
      outcome: "success";
      method: "change-password" | "set-password" | "admin";
      revokedOtherSessions?: boolean;
    }
  | { type: "password_reset"; outcome: "success"; revokedSessions: boolean }
  | { type: "email_change_requested"; outcome: "success" }
  | { type: "email_changed"; outcome: "success"; method: "unverified-address" | "confirmed" }
  | { type: "email_verified"; outcome: "success"; method: "link" | "provider"; provider?: string }
  | { type: "user_banned"; outcome: "success"; banExpires: string | null }
  | { type: "user_unbanned"; outcome: "success" }
  | { type: "role_changed"; outcome: "success"; role: string }
  | { type: "impersonation_started"; outcome: "success"; sessionId: string }
  | { type: "impersonation_stopped"; outcome: "success"; sessionId: string }
  | { type: "api_key_created"; outcome: "success"; keyId: string }
  | { type: "api_key_deleted"; outcome: "success"; keyId: string }
  | {
      type: "session_revoked";
      outcome: "success";
      scope: "session" | "user" | "all";
      count: number;
      sessionId?: string;
    }
  | ({ type: "account_throttled"; outcome: "failure"; identifier: "email" | "username"; retryAfter: number } & LogSlot)
  | ({
      type: "origin_refused";
      outcome: "failure";
      origin: string;
      path: string;
      /** The setting that would let the origin in. */
      setting: "AUTH_TRUSTED_ORIGINS";
    } & LogSlot);

/** One security event: what happened (type, outcome, a few details), to whom (userId) and by whom from where (source). */
export type SecurityEvent = Detail & { userId: string | null; source: EventSource };

const MAX_TEXT = 256;

/** Caller-written text as it may appear in a log line: no control characters, bounded. */
export function loggableText(text: string): string {
  const clean = withoutControlCharacters(text);
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
}

const loggable = (value: unknown): unknown => (typeof value === "string" ? loggableText(value) : value);

/** Write the event's line: message `security.<type>`, then outcome, userId, actor, ip, user agent, and the details. */
export function recordSecurityEvent(ctx: AuthContext, event: SecurityEvent): void {
  const { type, outcome, userId, source, ...details } = event;
  const fields: Record<string, unknown> = {
    outcome,
    userId,
    actorType: source.actorType,
    actorId: source.actorId,
    ip: source.ip,
    userAgent: source.userAgent,
    ...details,
  };
  for (const [name, value] of Object.entries(fields)) fields[name] = loggable(value);
  // A refused origin is most often the operator's own app missing from AUTH_TRUSTED_ORIGINS: a warning.
  if (type === "origin_refused") ctx.logger.warn(`security.${type}`, fields);
  else ctx.logger.info(`security.${type}`, fields);
}

/**
 * Whether a line an outsider can cause at will (refused origins, throttled accounts) may be written now;
 * see LogSlots: one line per key and minute, the repeats in between counted. Null: only counted.
 */
export function claimLogSlot(ctx: AuthContext, kind: string, key: string): LogSlot | null {
  return ctx.local.logSlots.claim(kind, key, ctx.now());
}
