import type { AuthContext } from "../../context.ts";
import { AuthError, type ErrorKey } from "../../errors.ts";
import type { RequestOrigin } from "../request-origin.ts";
import type { SignInFailureReason } from "../security-event-types.ts";
import { hashSessionToken, type LiveSession, type SessionWithUser } from "../sessions/sessions.ts";
import { recordSignIn, recordSignInFailure } from "../sign-in/events.ts";
import { findUserById } from "../users.ts";
import { type ApiKeyRefusal, verifyApiKey } from "./verification.ts";

// An API key header standing in for a session of the key's owner (apiKey.enableSessionForAPIKeys). Not a
// pipeline method: no session is started and no second factor applies; the key authenticates one request.
// Both outcomes are logged as sign-ins by API key, the key's id standing in for it (never the key itself).

// How each refusal answers on the header path (the verify route reports them as values instead), and
// the reason the security log gives.
const HEADER_REFUSALS: Record<ApiKeyRefusal, { key: ErrorKey; reason: SignInFailureReason }> = {
  INVALID_API_KEY: { key: "MALFORMED_API_KEY", reason: "invalid_api_key" },
  KEY_NOT_FOUND: { key: "INVALID_API_KEY", reason: "key_not_found" },
  KEY_DISABLED: { key: "KEY_DISABLED", reason: "key_disabled" },
  KEY_EXPIRED: { key: "KEY_EXPIRED", reason: "key_expired" },
  USER_IS_BANNED: { key: "USER_IS_BANNED", reason: "banned" },
  USAGE_EXCEEDED: { key: "USAGE_EXCEEDED", reason: "usage_exceeded" },
  RATE_LIMITED: { key: "RATE_LIMITED", reason: "rate_limited" },
  FAILED_TO_UPDATE_API_KEY: { key: "FAILED_TO_UPDATE_API_KEY", reason: "failed" },
};

/**
 * The stand-in session of the key's owner (the use is counted like a verification). A key that fails
 * verification, or a banned or missing owner, is refused.
 */
export async function signInWithApiKey(ctx: AuthContext, key: string, origin: RequestOrigin): Promise<SessionWithUser> {
  const attempt = { method: "api-key" } as const;
  const result = await verifyApiKey(ctx, key);
  if (!result.valid) {
    const refusal = HEADER_REFUSALS[result.reason];
    await recordSignInFailure(ctx, attempt, refusal.reason, origin);
    const details = result.tryAgainIn === undefined ? undefined : { tryAgainIn: result.tryAgainIn };
    throw new AuthError(refusal.key, { details });
  }
  const apiKey = result.row;
  const user = await findUserById(ctx, apiKey.userId);
  if (!user) {
    await recordSignInFailure(ctx, attempt, "failed", origin, apiKey.userId);
    throw new AuthError("INVALID_USER_ID_FROM_API_KEY");
  }
  await recordSignIn(ctx, { ...attempt, keyId: apiKey.id }, user.id, origin);
  const now = ctx.now();
  // Not a stored session: its token is the key (as Better Auth answers), and its hash names no session row.
  const session: LiveSession = {
    id: apiKey.id,
    token: key,
    tokenHash: hashSessionToken(key),
    userId: user.id,
    expiresAt: apiKey.expiresAt === null ? now + ctx.config.session.expiresIn * 1000 : Number(apiKey.expiresAt),
    ipAddress: origin.ip,
    userAgent: origin.userAgent,
    createdAt: now,
    updatedAt: now,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
  };
  return { session, user };
}
