import type { Kysely } from "kysely";
import { generateId } from "../crypto/random.ts";
import type { Database } from "../db/schema.ts";

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
}

function decide(previous: { count: number; lastRequest: number } | undefined, windowMs: number, max: number, now: number) {
  if (!previous || now - previous.lastRequest > windowMs) return { allowed: true, next: { count: 1, lastRequest: now } };
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
  };
}

/** Counters in the rateLimit table, shared by every daemon on the database. Each decision is one transaction. */
export function createDatabaseRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async consume(key, windowSeconds, max, now) {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom("rateLimit").select(["count", "lastRequest"]).where("key", "=", key).executeTakeFirst();
        const result = decide(row ? { count: Number(row.count), lastRequest: Number(row.lastRequest) } : undefined, windowSeconds * 1000, max, now);
        if (result.next) {
          await trx
            .insertInto("rateLimit")
            .values({ id: generateId(), key, count: result.next.count, lastRequest: result.next.lastRequest })
            .onConflict((oc) => oc.column("key").doUpdateSet({ count: result.next.count, lastRequest: result.next.lastRequest }))
            .execute();
        }
        return { allowed: result.allowed, retryAfter: result.retryAfter ?? 0 };
      });
    },
  };
}
