import { countRequest, deleteRateLimit } from "../db/repositories/rate-limits.ts";
import type { Db } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import type { SecondaryStorage } from "./secondary-storage.ts";

// Fixed-window counters per client key and path, as Better Auth counts them: the first request of a
// window sets the count to 1, later ones increment it until the maximum, after that requests are refused
// until the window (measured from the last counted request) has passed.

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window opens again (only when refused). */
  retryAfter: number;
}

export interface RateLimitStore {
  consume(key: string, windowSeconds: number, max: number, now: number): Promise<RateLimitDecision>;
  /** Forget a counter (the account throttle after a correct password or a reset). */
  reset(key: string): Promise<void>;
}

/** The answer to a refused request, as a rate limit answers: 429 with X-Retry-After in seconds. */
export function tooManyRequests(decision: RateLimitDecision): AuthError {
  return new AuthError("TOO_MANY_REQUESTS", { headers: { "X-Retry-After": String(decision.retryAfter) } });
}

function decide(
  previous: { count: number; lastRequest: number } | undefined,
  windowMs: number,
  max: number,
  now: number,
) {
  if (!previous || now - previous.lastRequest > windowMs)
    return { allowed: true, next: { count: 1, lastRequest: now } };
  if (previous.count >= max) {
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((previous.lastRequest + windowMs - now) / 1000)) };
  }
  return { allowed: true, next: { count: previous.count + 1, lastRequest: now } };
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { count: number; lastRequest: number; windowMs: number }>();
  let lastSweep = 0;
  return {
    async consume(key, windowSeconds, max, now) {
      const windowMs = windowSeconds * 1000;
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        for (const [k, v] of counters) if (now - v.lastRequest > v.windowMs) counters.delete(k);
      }
      const result = decide(counters.get(key), windowMs, max, now);
      if (result.next) counters.set(key, { ...result.next, windowMs });
      return { allowed: result.allowed, retryAfter: result.retryAfter ?? 0 };
    },
    async reset(key) {
      counters.delete(key);
    },
  };
}

/**
 * Counters in the rateLimit table, shared by every daemon on the database (see countRequest). A refused
 * request leaves the count at max + 1 and the window's time untouched, so "count <= max" is the decision.
 */
export function createDatabaseRateLimitStore(db: Db): RateLimitStore {
  return {
    async consume(key, windowSeconds, max, now) {
      const windowMs = windowSeconds * 1000;
      const row = await countRequest(db, { key, windowMs, max, now });
      if (row.count <= max) return { allowed: true, retryAfter: 0 };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((row.lastRequest + windowMs - now) / 1000)) };
    },
    reset: (key) => deleteRateLimit(db, key),
  };
}

// The same decision as decide(), taken inside Redis so concurrent daemons cannot both pass the last slot.
// ARGV: now (ms), window (ms), max. Returns {allowed 0|1, retryAfter seconds}.
const CONSUME_SCRIPT = `
local current = redis.call('HMGET', KEYS[1], 'count', 'last')
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local count = tonumber(current[1])
local last = tonumber(current[2])
if count == nil or last == nil or now - last > window then
  redis.call('HSET', KEYS[1], 'count', 1, 'last', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window + 1000)
  return {1, 0}
end
if count >= max then
  return {0, math.max(1, math.ceil((last + window - now) / 1000))}
end
redis.call('HSET', KEYS[1], 'count', count + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], window + 1000)
return {1, 0}
`;

/** Counters in Redis (the secondary storage), shared by every daemon using it; expire with their window. */
export function createRedisRateLimitStore(redis: Pick<SecondaryStorage, "evaluate" | "delete">): RateLimitStore {
  return {
    async consume(key, windowSeconds, max, now) {
      const reply = (await redis.evaluate(
        CONSUME_SCRIPT,
        [`rate-limit:${key}`],
        [String(now), String(windowSeconds * 1000), String(max)],
      )) as [number, number];
      return { allowed: Number(reply[0]) === 1, retryAfter: Number(reply[1]) };
    },
    async reset(key) {
      await redis.delete(`rate-limit:${key}`);
    },
  };
}
