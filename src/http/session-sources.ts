import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { findUserById } from "../db/repositories/users.ts";
import type { SessionRow } from "../db/schema.ts";
import { AuthError, type ErrorKey, type ErrorStatus } from "../errors.ts";
import { type ApiKeyRefusal, verifyApiKey } from "../services/api-key-verification.ts";
import { isBanned } from "../services/users.ts";
import { headerClientIp } from "./request.ts";
import type { ResolvedSession } from "./session.ts";

/** The API key a request presents in one of the configured headers, or null (an empty header is no key). */
export function readApiKeyHeader(c: Context, ctx: AuthContext): string | null {
  for (const header of ctx.config.apiKey.headers) {
    const value = c.req.header(header);
    if (value) return value;
  }
  return null;
}

// How each refusal answers on the header path (the verify route reports them as values instead).
const HEADER_REFUSALS: Record<ApiKeyRefusal, { key: ErrorKey; status?: ErrorStatus }> = {
  INVALID_API_KEY: { key: "INVALID_API_KEY", status: 403 },
  KEY_NOT_FOUND: { key: "INVALID_API_KEY", status: 401 },
  KEY_DISABLED: { key: "KEY_DISABLED", status: 401 },
  KEY_EXPIRED: { key: "KEY_EXPIRED", status: 401 },
  USAGE_EXCEEDED: { key: "USAGE_EXCEEDED", status: 429 },
  RATE_LIMITED: { key: "RATE_LIMITED", status: 401 },
  FAILED_TO_UPDATE_API_KEY: { key: "FAILED_TO_UPDATE_API_KEY" },
};

/**
 * Other ways than the session cookie to prove who the caller is: an API key header becomes a session
 * for the key's owner (the use is counted like a verification). Returns null when the request carries
 * no key or the feature is off; a key that fails verification, or a banned owner, is refused.
 */
export async function resolveApiKeySession(c: Context, ctx: AuthContext): Promise<ResolvedSession | null> {
  const config = ctx.config.apiKey;
  if (!config.enabled || config.disableSessionForAPIKeys) return null;
  const key = readApiKeyHeader(c, ctx);
  if (key === null) return null;
  const result = await verifyApiKey(ctx, key);
  if (!result.valid) {
    const refusal = HEADER_REFUSALS[result.reason];
    const details = result.tryAgainIn === undefined ? undefined : { tryAgainIn: result.tryAgainIn };
    throw new AuthError(refusal.key, { status: refusal.status, details });
  }
  const apiKey = result.row;
  const user = await findUserById(ctx.db, apiKey.userId);
  if (!user) throw new AuthError("INVALID_USER_ID_FROM_API_KEY");
  const now = ctx.now();
  if (isBanned(user, now)) throw new AuthError("USER_IS_BANNED", { status: 401 });
  const session: SessionRow = {
    id: apiKey.id,
    token: key,
    userId: user.id,
    expiresAt: apiKey.expiresAt === null ? now + ctx.config.session.expiresIn * 1000 : Number(apiKey.expiresAt),
    ipAddress: headerClientIp(c, ctx),
    userAgent: c.req.header("user-agent") ?? null,
    createdAt: now,
    updatedAt: now,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
  };
  return { session, user, source: "api-key" };
}
