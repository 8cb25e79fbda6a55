import type { AuthContext } from "../context.ts";
import { removeUser } from "./admin.ts";
import {
  type ApiKeyPermissions,
  type ApiKeyWire,
  type CreatedApiKey,
  createApiKey,
  deleteApiKey,
  updateApiKey,
} from "./api-keys/api-keys.ts";
import { findApiKeyOwnerId } from "./directory.ts";
import { CLI_SOURCE, type EventSource } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";

// What an operator does from a terminal (a CLI command or a key in the terminal UI) that takes more than
// one service call: the two front ends act through these, so the steps exist once. Single-call actions
// (ban, unban, set a role …) call their service directly.

/** Delete a key by id, whoever owns it (`source`: who acts, the CLI unless told); false when there is no such key. */
export async function revokeApiKeyById(
  ctx: AuthContext,
  keyId: string,
  source: EventSource = CLI_SOURCE,
): Promise<boolean> {
  const ownerId = await findApiKeyOwnerId(ctx, keyId);
  if (!ownerId) return false;
  await deleteApiKey(ctx, ownerId, keyId, source);
  return true;
}

/** Delete a user with everything that belongs to them (sessions, accounts, memberships, API keys). */
export async function deleteUserWithSessions(
  ctx: AuthContext,
  userId: string,
  source: EventSource = CLI_SOURCE,
): Promise<void> {
  // Sessions first, through the sessions service, so cached copies (Redis) are revoked too; then the row
  // (accounts, keys and memberships go with it: the foreign keys cascade).
  await revokeUserSessions(ctx, userId);
  await removeUser(ctx, userId, source);
}

/**
 * What an operator chooses for a new key: `authd issue-api-key`'s flags and the UI's issue dialog map to
 * this one shape, and issueApiKeyAsOperator maps it to the service's fields. Unset: the configured default.
 */
export interface OperatorApiKeyOptions {
  name?: string;
  prefix?: string;
  expiresInSeconds?: number;
  remaining?: number;
  permissions?: ApiKeyPermissions;
  metadata?: Record<string, unknown>;
  /** false: no per-key rate limit; a rate: that many verifications per window; unset: the configured default. */
  rateLimit?: false | { max: number; windowMs: number };
  /** Add `amount` to the remaining uses every `intervalMs`. */
  refill?: { amount: number; intervalMs: number };
}

/** Issue a key as the server would (server-only fields allowed), under the same rules as the API. */
export function issueApiKeyAsOperator(
  ctx: AuthContext,
  userId: string,
  options: OperatorApiKeyOptions,
  source: EventSource = CLI_SOURCE,
): Promise<CreatedApiKey> {
  const { rateLimit, refill } = options;
  const fields = {
    userId,
    name: options.name,
    prefix: options.prefix,
    expiresIn: options.expiresInSeconds,
    remaining: options.remaining,
    permissions: options.permissions,
    metadata: options.metadata,
    rateLimitEnabled: rateLimit === undefined ? undefined : rateLimit !== false,
    rateLimitMax: rateLimit ? rateLimit.max : undefined,
    rateLimitTimeWindow: rateLimit ? rateLimit.windowMs : undefined,
    refillAmount: refill?.amount,
    refillInterval: refill?.intervalMs,
  };
  return createApiKey(ctx, fields, { isServer: true }, source);
}

/** What an operator changes on an existing key (the console's key form); unset: left as it is. */
export interface OperatorApiKeyChanges {
  name?: string;
  enabled?: boolean;
  /** Seconds from now; null: never expires. */
  expiresInSeconds?: number | null;
  /** The uses left, set outright (a top-up). */
  remaining?: number;
  permissions?: ApiKeyPermissions | null;
  /** false: no per-key rate limit; a rate: that many verifications per window. */
  rateLimit?: false | { max: number; windowMs: number };
  /** Add `amount` to the remaining uses every `intervalMs`. */
  refill?: { amount: number; intervalMs: number };
}

/** Change one of the user's keys as the server would (server-only fields allowed); KEY_NOT_FOUND for a key not theirs. */
export function updateApiKeyAsOperator(
  ctx: AuthContext,
  userId: string,
  keyId: string,
  changes: OperatorApiKeyChanges,
  source: EventSource,
): Promise<ApiKeyWire> {
  const { rateLimit, refill } = changes;
  const input = {
    name: changes.name,
    enabled: changes.enabled,
    expiresIn: changes.expiresInSeconds,
    remaining: changes.remaining,
    permissions: changes.permissions,
    rateLimitEnabled: rateLimit === undefined ? undefined : rateLimit !== false,
    rateLimitMax: rateLimit ? rateLimit.max : undefined,
    rateLimitTimeWindow: rateLimit ? rateLimit.windowMs : undefined,
    refillAmount: refill?.amount,
    refillInterval: refill?.intervalMs,
  };
  return updateApiKey(ctx, userId, keyId, input, { isServer: true, source });
}
