import type { ApiKeyWithOwnerBan } from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import type { Permissions } from "../../wire/api-key.ts";

// What a verification answers, in a module of its own: verification.ts decides it and redis-usage.ts (which
// verification.ts calls) makes part of it, so neither imports the other for the types.

export type ApiKeyRefusal =
  | "INVALID_API_KEY"
  | "KEY_NOT_FOUND"
  | "KEY_DISABLED"
  | "KEY_EXPIRED"
  | "USER_IS_BANNED"
  | "USAGE_EXCEEDED"
  | "RATE_LIMITED"
  | "FAILED_TO_UPDATE_API_KEY";

export type ApiKeyVerification =
  | { valid: true; row: ApiKeyRow }
  | { valid: false; reason: ApiKeyRefusal; tryAgainIn?: number };

/** A verification waiting for its key's batch: what it asks for, and the row its own lookup read. */
export interface ApiKeyUse {
  permissions: Permissions | undefined;
  row: ApiKeyWithOwnerBan;
}

/** What Redis's script decided for one use of a key with limits. */
export type RedisUseOutcome =
  | { kind: "use"; usage: Pick<ApiKeyRow, "requestCount" | "remaining" | "lastRequest" | "lastRefillAt"> }
  | { kind: "exhausted"; deleteKey: boolean }
  | { kind: "rate-limited"; tryAgainIn: number }
  /** The key was deleted meanwhile. */
  | { kind: "gone" };
