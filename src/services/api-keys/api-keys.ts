import type { AuthContext } from "../../context.ts";
import { generateId, generateRandomString, LETTERS } from "../../crypto/random.ts";
import { toJSONColumn } from "../../db/json-column.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow, SessionRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { withTransaction } from "../../platform/transaction.ts";
import type { ApiKey, CreatedApiKey, Permissions } from "../../wire/api-key.ts";
import { CLI_SOURCE, type EventSource, recordSecurityEvent } from "../security-events.ts";
import { assertRecentSignIn } from "../sessions/sessions.ts";
import { scheduleExpiredApiKeyCleanup } from "./cleanup.ts";
import { withLeasedRest } from "./leases.ts";
import { applyRemainingEdit, withRedisUsage } from "./redis-usage.ts";
import { forgetApiKeyRows, storedFormOfKey } from "./rows.ts";
import { pendingLastRequest } from "./usage.ts";
import { toApiKeyWire } from "./wire.ts";

// API keys: issuing, reading, changing and removing them. Verification (counting uses) lives in
// api-keys/verification.ts; both share the wire mapping (wire.ts) and the throttled cleanup (cleanup.ts).

const DAY_SECONDS = 86_400;

export type ApiKeyPermissions = Permissions;

/** The key on the wire (src/wire/api-key.ts). */
export type ApiKeyWire = ApiKey;

/** How operators' listings mark the keys of a user whose ban is in force (every such key is refused). */
export const OWNER_BANNED_MARKER = "owner banned: keys refused";

export type { CreatedApiKey };

export { toApiKeyWire };

// ---- shared validation ---------------------------------------------------------------------------

export interface CallerOptions {
  /** The request carries the server token: server-only fields are allowed. */
  isServer: boolean;
  /** Who acts, for the security event of a change (the operator when absent: CLI and terminal UI). */
  source?: EventSource;
  /**
   * The owner's own session, when the owner issues or deletes a key from it (not the server, not the
   * operator): a key is a credential, so the sign-in must be recent (account.freshAge).
   */
  ownerSession?: SessionRow;
}

const SERVER_ONLY_FIELDS = [
  "refillAmount",
  "refillInterval",
  "rateLimitMax",
  "rateLimitTimeWindow",
  "rateLimitEnabled",
  "permissions",
  "remaining",
] as const;

export function assertNoServerOnlyFields(
  input: Partial<Record<(typeof SERVER_ONLY_FIELDS)[number], unknown>>,
  options: CallerOptions,
): void {
  if (options.isServer) return;
  if (
    SERVER_ONLY_FIELDS.some((field) => input[field] !== undefined && (field !== "remaining" || input[field] !== null))
  ) {
    throw new AuthError("SERVER_ONLY_PROPERTY");
  }
}

export function assertMetadata(ctx: AuthContext, metadata: unknown): void {
  if (metadata === undefined) return;
  if (!ctx.config.apiKey.enableMetadata) throw new AuthError("METADATA_DISABLED");
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
    throw new AuthError("METADATA_MUST_BE_OBJECT");
}

export function assertRefillPair(
  refillAmount: number | undefined | null,
  refillInterval: number | undefined | null,
): void {
  const hasAmount = refillAmount !== undefined && refillAmount !== null;
  const hasInterval = refillInterval !== undefined && refillInterval !== null;
  if (hasAmount && !hasInterval) throw new AuthError("REFILL_INTERVAL_REQUIRED");
  if (hasInterval && !hasAmount) throw new AuthError("REFILL_AMOUNT_REQUIRED");
}

/** expiresIn (seconds) as an absolute expiry in ms, checked against the configured day bounds. */
export function expiryFromExpiresIn(ctx: AuthContext, expiresIn: number): number {
  const { disableCustomExpiresTime, minExpiresIn, maxExpiresIn } = ctx.config.apiKey.keyExpiration;
  if (disableCustomExpiresTime) throw new AuthError("KEY_DISABLED_EXPIRATION");
  const days = expiresIn / DAY_SECONDS;
  if (days < minExpiresIn) throw new AuthError("EXPIRES_IN_IS_TOO_SMALL");
  if (days > maxExpiresIn) throw new AuthError("EXPIRES_IN_IS_TOO_LARGE");
  return ctx.now() + expiresIn * 1000;
}

export const PREFIX_PATTERN = /^[a-zA-Z0-9_-]+$/;

export function assertPrefix(ctx: AuthContext, prefix: string): void {
  const { minimumPrefixLength, maximumPrefixLength } = ctx.config.apiKey;
  if (prefix.length < minimumPrefixLength || prefix.length > maximumPrefixLength)
    throw new AuthError("INVALID_PREFIX_LENGTH");
  if (!PREFIX_PATTERN.test(prefix)) throw new AuthError("INVALID_PREFIX_FORMAT");
}

export function assertNameLength(ctx: AuthContext, name: string): void {
  const { minimumNameLength, maximumNameLength } = ctx.config.apiKey;
  if (name.length < minimumNameLength || name.length > maximumNameLength) throw new AuthError("INVALID_NAME_LENGTH");
}

// ---- create, list, get, delete ---------------------------------------------------------------

export interface CreateApiKeyInput {
  userId: string;
  name?: string;
  prefix?: string;
  /** Seconds until expiry; null or absent: the configured default (none unless set). */
  expiresIn?: number | null;
  remaining?: number | null;
  metadata?: unknown;
  permissions?: ApiKeyPermissions;
  refillAmount?: number;
  refillInterval?: number;
  rateLimitEnabled?: boolean;
  rateLimitTimeWindow?: number;
  rateLimitMax?: number;
}

/** Issue a key (logged as security.api_key_created from `source`); the full key is in this answer only. */
export async function createApiKey(
  ctx: AuthContext,
  input: CreateApiKeyInput,
  options: CallerOptions,
  source: EventSource,
): Promise<CreatedApiKey> {
  const config = ctx.config.apiKey;
  if (options.ownerSession) assertRecentSignIn(ctx, options.ownerSession);
  assertNoServerOnlyFields(input, options);
  assertMetadata(ctx, input.metadata);
  assertRefillPair(input.refillAmount, input.refillInterval);
  const now = ctx.now();
  let expiresAt: number | null =
    config.keyExpiration.defaultExpiresIn === null ? null : now + config.keyExpiration.defaultExpiresIn;
  if (input.expiresIn !== undefined && input.expiresIn !== null) expiresAt = expiryFromExpiresIn(ctx, input.expiresIn);
  const prefix = input.prefix ?? config.defaultPrefix ?? null;
  if (input.prefix !== undefined) assertPrefix(ctx, input.prefix);
  if (input.name !== undefined) assertNameLength(ctx, input.name);
  else if (config.requireName) throw new AuthError("INVALID_NAME_LENGTH");

  const key = `${prefix ?? ""}${generateRandomString(config.defaultKeyLength, LETTERS)}`;
  const row = await withTransaction(ctx, async (tx) => {
    const inserted = await apiKeys.insertApiKey(tx.db, {
      id: generateId(),
      name: input.name ?? null,
      start: config.startingCharactersLength > 0 ? key.slice(0, config.startingCharactersLength) : null,
      prefix,
      key: storedFormOfKey(ctx, key),
      userId: input.userId,
      refillInterval: input.refillInterval ?? null,
      refillAmount: input.refillAmount ?? null,
      lastRefillAt: null,
      enabled: true,
      rateLimitEnabled: input.rateLimitEnabled ?? config.rateLimit.enabled,
      rateLimitTimeWindow: input.rateLimitTimeWindow ?? config.rateLimit.timeWindow,
      rateLimitMax: input.rateLimitMax ?? config.rateLimit.maxRequests,
      requestCount: 0,
      remaining: input.remaining ?? input.refillAmount ?? null,
      lastRequest: null,
      expiresAt,
      createdAt: now,
      updatedAt: now,
      permissions: toJSONColumn(input.permissions),
      metadata: toJSONColumn(input.metadata),
    });
    await forgetApiKeyRows(tx, tx.db);
    const event = { type: "api_key_created", outcome: "success", keyId: inserted.id } as const;
    await recordSecurityEvent(tx, { ...event, userId: inserted.userId, source });
    return inserted;
  });
  scheduleExpiredApiKeyCleanup(ctx);
  return { ...toApiKeyWire(row), key };
}

/**
 * Rows with the uses not yet in them: the counters Redis holds for keys with limits, and this process's
 * waiting `lastRequest` stamps of keys without (another daemon's stamps show within a second).
 */
async function withCurrentUsage(ctx: AuthContext, rows: ApiKeyRow[]): Promise<ApiKeyRow[]> {
  const current = ctx.secondaryStorage ? await withRedisUsage(ctx.secondaryStorage, rows) : rows;
  return current.map((stored) => {
    const row = withLeasedRest(ctx, stored);
    const stamp = pendingLastRequest(ctx, row.id);
    return stamp !== undefined && stamp > Number(row.lastRequest ?? 0) ? { ...row, lastRequest: stamp } : row;
  });
}

/** The user's keys, without secrets. */
export async function listApiKeys(ctx: AuthContext, userId: string): Promise<ApiKeyWire[]> {
  const rows = await withCurrentUsage(ctx, await apiKeys.listApiKeysByUserId(ctx.db, userId));
  scheduleExpiredApiKeyCleanup(ctx);
  return rows.map(toApiKeyWire);
}

/** One of the user's keys; someone else's key is "not found", like a missing one. */
export async function getApiKey(ctx: AuthContext, userId: string, keyId: string): Promise<ApiKeyWire> {
  const row = await apiKeys.findApiKeyOfUser(ctx.db, userId, keyId);
  if (!row) throw new AuthError("KEY_NOT_FOUND");
  scheduleExpiredApiKeyCleanup(ctx);
  const [current] = await withCurrentUsage(ctx, [row]);
  return toApiKeyWire(current);
}

/** Delete one of the user's keys; throws KEY_NOT_FOUND when the user has no such key. */
export async function deleteApiKey(
  ctx: AuthContext,
  userId: string,
  keyId: string,
  source: EventSource,
  options: Pick<CallerOptions, "ownerSession"> = {},
): Promise<void> {
  if (options.ownerSession) assertRecentSignIn(ctx, options.ownerSession);
  await withTransaction(ctx, async (tx) => {
    if ((await apiKeys.deleteApiKeyOfUser(tx.db, userId, keyId)) === 0) throw new AuthError("KEY_NOT_FOUND");
    await forgetApiKeyRows(tx, tx.db);
    await recordSecurityEvent(tx, { type: "api_key_deleted", outcome: "success", keyId, userId, source });
  });
  scheduleExpiredApiKeyCleanup(ctx);
}

export interface UpdateApiKeyInput {
  name?: string;
  enabled?: boolean;
  /** Seconds from now; null clears the expiry. */
  expiresIn?: number | null;
  metadata?: unknown;
  remaining?: number;
  refillAmount?: number;
  refillInterval?: number;
  rateLimitEnabled?: boolean;
  rateLimitTimeWindow?: number;
  rateLimitMax?: number;
  permissions?: ApiKeyPermissions | null;
}

/** Change one of the user's keys. An update is not a use: counters and remaining are left alone. */
export async function updateApiKey(
  ctx: AuthContext,
  userId: string,
  keyId: string,
  input: UpdateApiKeyInput,
  options: CallerOptions,
): Promise<ApiKeyWire> {
  assertNoServerOnlyFields(input, options);
  const existing = await apiKeys.findApiKeyOfUser(ctx.db, userId, keyId);
  if (!existing) throw new AuthError("KEY_NOT_FOUND");
  const changes: Parameters<typeof apiKeys.updateApiKeyOfUser>[3] = {};
  if (input.name !== undefined) {
    assertNameLength(ctx, input.name);
    changes.name = input.name;
  }
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.expiresIn !== undefined)
    changes.expiresAt = input.expiresIn === null ? null : expiryFromExpiresIn(ctx, input.expiresIn);
  if (input.metadata !== undefined) {
    assertMetadata(ctx, input.metadata);
    changes.metadata = toJSONColumn(input.metadata);
  }
  if (input.remaining !== undefined) changes.remaining = input.remaining;
  if (input.refillAmount !== undefined || input.refillInterval !== undefined) {
    assertRefillPair(input.refillAmount, input.refillInterval);
    changes.refillAmount = input.refillAmount;
    changes.refillInterval = input.refillInterval;
  }
  if (input.rateLimitEnabled !== undefined) changes.rateLimitEnabled = input.rateLimitEnabled;
  if (input.rateLimitTimeWindow !== undefined) changes.rateLimitTimeWindow = input.rateLimitTimeWindow;
  if (input.rateLimitMax !== undefined) changes.rateLimitMax = input.rateLimitMax;
  if (input.permissions !== undefined) changes.permissions = toJSONColumn(input.permissions);
  if (Object.keys(changes).length === 0) throw new AuthError("NO_VALUES_TO_UPDATE");
  const row = await withTransaction(ctx, async (tx) => {
    // Strictly later than the last edit: a daemon's leased block of uses (leases.ts) is tied to `updatedAt`.
    const updatedAt = Math.max(ctx.now(), Number(existing.updatedAt) + 1);
    const updated = await apiKeys.updateApiKeyOfUser(tx.db, userId, keyId, { ...changes, updatedAt });
    if (!updated) throw new AuthError("KEY_NOT_FOUND");
    await forgetApiKeyRows(tx, tx.db);
    const event = { type: "api_key_updated", outcome: "success", keyId, fields: Object.keys(changes) } as const;
    await recordSecurityEvent(tx, { ...event, userId, source: options.source ?? CLI_SOURCE });
    return updated;
  });
  // With Redis the counters live there: a new `remaining` must reach them before the answer says it is set.
  if (changes.remaining !== undefined && ctx.secondaryStorage) await applyRemainingEdit(ctx.secondaryStorage, row);
  scheduleExpiredApiKeyCleanup(ctx);
  const [current] = await withCurrentUsage(ctx, [row]);
  return toApiKeyWire(current);
}
