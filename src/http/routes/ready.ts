import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { defineRoute } from "../route.ts";

// Readiness for load balancers: unlike /ok (the process is up), this fails while the database or the
// secondary storage cannot be reached, so traffic moves to a daemon that can answer.

const READY_TIMEOUT_MS = 2000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms).unref()),
  ]);
}

export const ready = defineRoute({
  method: "GET",
  path: "/ready",
  summary: "Readiness: the database (and Redis when configured) answer",
  tags: ["Health"],
  response: z.object({ ready: z.boolean(), database: z.boolean(), secondaryStorage: z.boolean().optional() }),
  handler: async ({ ctx }) => {
    const database = await within(ctx.database.ping(), READY_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    const secondaryStorage = ctx.secondaryStorage
      ? await within(ctx.secondaryStorage.ping(), READY_TIMEOUT_MS).catch(() => false)
      : undefined;
    const isReady = database && secondaryStorage !== false;
    if (!isReady) {
      throw new AuthError("SERVICE_UNAVAILABLE", { details: { ready: false, database, secondaryStorage } });
    }
    return { ready: true, database, secondaryStorage };
  },
});
