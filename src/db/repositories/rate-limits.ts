import { sql } from "kysely";
import { generateId } from "../../crypto/random.ts";
import type { Db } from "../schema.ts";

// Fixed-window counters in the rateLimit table, shared by every daemon on the database.

export interface CountedRequest {
  key: string;
  windowMs: number;
  max: number;
  now: number;
}

/**
 * Count one request in one upsert, which decides and counts atomically (no read-then-write race between
 * daemons): a fresh window restarts at 1, a full one is left at max + 1 with its time untouched. Answers
 * the count and the window's last counted request.
 */
export async function countRequest(db: Db, request: CountedRequest): Promise<{ count: number; lastRequest: number }> {
  const { key, windowMs, max, now } = request;
  const fresh = sql<boolean>`${now} - ${sql.ref("rateLimit.lastRequest")} > ${windowMs}`;
  const count = sql.ref("rateLimit.count");
  const row = await db
    .insertInto("rateLimit")
    .values({ id: generateId(), key, count: 1, lastRequest: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql`case when ${fresh} then 1 when ${count} >= ${max} then ${max + 1} else ${count} + 1 end`,
        lastRequest: sql`case when ${fresh} or ${count} < ${max} then ${now} else ${sql.ref("rateLimit.lastRequest")} end`,
      }),
    )
    .returning(["count", "lastRequest"])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), lastRequest: Number(row.lastRequest) };
}

export async function deleteRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom("rateLimit").where("key", "=", key).execute();
}
