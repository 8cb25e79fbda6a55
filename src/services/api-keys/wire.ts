import { readJSONObject } from "../../db/json-column.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import type { ApiKey, Permissions } from "../../wire/api-key.ts";
import { iso, isoDate } from "../../wire/common.ts";

// An API key row as wire JSON: the one mapping the key routes, the listings and verification share.

const numberOrNull = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The one place a key row becomes wire JSON. The stored key (hash) never leaves. */
export function toApiKeyWire(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name ?? null,
    start: row.start ?? null,
    prefix: row.prefix ?? null,
    userId: row.userId,
    refillInterval: numberOrNull(row.refillInterval),
    refillAmount: numberOrNull(row.refillAmount),
    lastRefillAt: iso(row.lastRefillAt),
    enabled: Boolean(row.enabled),
    rateLimitEnabled: Boolean(row.rateLimitEnabled),
    rateLimitTimeWindow: numberOrNull(row.rateLimitTimeWindow),
    rateLimitMax: numberOrNull(row.rateLimitMax),
    requestCount: Number(row.requestCount),
    remaining: numberOrNull(row.remaining),
    lastRequest: iso(row.lastRequest),
    expiresAt: iso(row.expiresAt),
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
    metadata: readJSONObject(row.metadata),
    permissions: readJSONObject<Permissions>(row.permissions),
  };
}
