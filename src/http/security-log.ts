import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import type { AdminActor } from "../services/admin.ts";
import type { MailboxOwner } from "../services/passwordless.ts";
import type { SignInFailureReason, SignInMethod } from "../services/security-event-types.ts";
import {
  type ActorType,
  type EventSource,
  recordSecurityEvent,
  type SecurityEvent,
} from "../services/security-events.ts";
import { clientAddress } from "./client-address.ts";
import { noteUser } from "./middleware/request-log.ts";

// Security events raised by requests (src/services/security-events.ts writes them). The source of each is
// who acted, with the client's address (the one rate limits and sessions use, so forwarding headers count
// only from trusted proxies) and user agent.

export function requestSource(
  c: Context,
  ctx: AuthContext,
  actorType: ActorType = "anonymous",
  actorId: string | null = null,
): EventSource {
  if (actorType === "user" && actorId) noteUser(c, actorId);
  return { actorType, actorId, ip: clientAddress(c, ctx), userAgent: c.req.header("user-agent") ?? null };
}

/** An /admin route's caller: the server (server token) or the administrator signed in. */
export function adminRequestSource(c: Context, ctx: AuthContext, actor: AdminActor): EventSource {
  return actor.kind === "server" ? requestSource(c, ctx, "server") : requestSource(c, ctx, "admin", actor.userId);
}

/** How a sign-in was attempted: the method, and the provider of a social one. */
export interface SignInAttempt {
  method: SignInMethod;
  provider?: string;
  /**
   * The proof was a strong factor on its own (a passkey: possession of the authenticator, usually with
   * user verification). A sign-in step that asks for a second factor (two-factor) skips it for these.
   */
  strongFactor?: boolean;
}

/** A sign-in that started a session (or, for an API key, authenticated the request) for `userId`. */
export function signInEvent(
  c: Context,
  ctx: AuthContext,
  attempt: SignInAttempt & { keyId?: string },
  userId: string,
): SecurityEvent {
  return { type: "sign_in", outcome: "success", ...attempt, userId, source: requestSource(c, ctx, "user", userId) };
}

/** Record a sign-in that started no session of its own (an API key authenticating a request). */
export async function recordSignIn(
  c: Context,
  ctx: AuthContext,
  attempt: SignInAttempt & { keyId?: string },
  userId: string,
): Promise<void> {
  await recordSecurityEvent(ctx, signInEvent(c, ctx, attempt, userId));
}

/** A refused sign-in; `userId` when the attempt named a known user (the caller is still nobody known). */
export async function recordSignInFailure(
  c: Context,
  ctx: AuthContext,
  attempt: SignInAttempt,
  reason: SignInFailureReason,
  userId: string | null = null,
): Promise<void> {
  await recordSecurityEvent(ctx, {
    type: "sign_in",
    outcome: "failure",
    ...attempt,
    reason,
    userId,
    source: requestSource(c, ctx),
  });
}

/** The security events of a proven mailbox (magic link, email code): a sign-up, or an address verified. */
export async function recordMailboxProof(
  c: Context,
  ctx: AuthContext,
  owner: MailboxOwner,
  method: "magic-link" | "email-otp",
): Promise<void> {
  const source = requestSource(c, ctx, "user", owner.user.id);
  if (owner.isNewUser)
    await recordSecurityEvent(ctx, { type: "sign_up", outcome: "success", method, userId: owner.user.id, source });
  if (owner.verifiedNow)
    await recordSecurityEvent(ctx, {
      type: "email_verified",
      outcome: "success",
      method,
      userId: owner.user.id,
      source,
    });
}
