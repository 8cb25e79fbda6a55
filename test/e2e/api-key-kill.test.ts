import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { createContext } from "../../src/context.ts";
import { registerFeatures } from "../../src/features.ts";
import { silentLogger } from "../../src/logger.ts";
import { MAX_LEASE } from "../../src/services/api-keys/leases.ts";
import { FLUSH_INTERVAL_MS } from "../../src/services/api-keys/usage.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { createPostgresSchema, postgresUnavailableReason } from "../helpers/postgres.ts";
import { REDIS_URL, redisEnv, redisSkipped } from "../helpers/redis.ts";

// Two real daemons share a database (and Redis, in one variant) while verifications hammer them; one is
// killed with SIGKILL mid-load. Afterwards every use answered `valid: true` is counted, none twice beyond
// the requests cut off by the kill, `remaining` never goes below 0, and a key without limits has lost at
// most the last flush interval of its `lastRequest` stamps.

const SERVER_TOKEN = "laak3Rc9ZWMixkR0O7j_sojS7jbj33OkQ1MsA9Z1ybZldPSV185Tl6cKu7N0BuOR";
const postgresSkipped = (await postgresUnavailableReason()) !== null;
const REMAINING = 1_000_000;
/** How long both daemons are loaded before the kill, and the survivor after it. */
const LOAD_BEFORE_KILL_MS = 2500;
const LOAD_AFTER_KILL_MS = 1000;
/** Timers of a loaded machine run late: the bound checked is the interval plus this much. */
const TIMER_SLACK_MS = 2000;

interface Tally {
  valid: number;
  refused: number;
  /** Requests that got no answer (the killed daemon's connections). */
  cutOff: number;
  /** The latest lastRequest answered (ms). */
  lastAnswered: number;
}

const tally = (): Tally => ({ valid: 0, refused: 0, cutOff: 0, lastAnswered: 0 });

async function verify(daemon: Daemon, key: string, into: Tally): Promise<void> {
  try {
    const res = await fetch(`${daemon.url}/api/auth/api-key/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ key }),
    });
    const body = (await res.json()) as { valid: boolean; key: { lastRequest: string | null } | null };
    if (!body.valid) {
      into.refused += 1;
      return;
    }
    into.valid += 1;
    const stamp = Date.parse(body.key?.lastRequest ?? "");
    if (stamp > into.lastAnswered) into.lastAnswered = stamp;
  } catch {
    into.cutOff += 1;
  }
}

/** Keep `workers` verifications of `key` in flight on `daemon` until `until()` says stop. */
async function hammer(daemon: Daemon, key: string, into: Tally, until: () => boolean, workers = 3): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!until()) await verify(daemon, key, into);
    }),
  );
}

const variants = [
  { name: "SQLite", dialect: "sqlite", redis: false, skip: false },
  { name: "Postgres", dialect: "postgres", redis: false, skip: postgresSkipped },
  { name: "Postgres + Redis", dialect: "postgres", redis: true, skip: postgresSkipped || redisSkipped },
  // apiKey.usageWrites "fast": commits without Postgres's flush; a daemon's SIGKILL still loses nothing.
  { name: "Postgres, fast usage writes", dialect: "postgres", redis: false, skip: postgresSkipped, writes: "fast" },
  // "leased": the killed daemon's blocks are lost with it, counted as spent: never fewer uses than answered.
  { name: "Postgres, leased uses", dialect: "postgres", redis: false, skip: postgresSkipped, writes: "leased" },
] as const;

for (const variant of variants) {
  describe.skipIf(variant.skip)(`API key uses when a daemon is killed mid-load [${variant.name}]`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("counts every valid use of limited keys exactly and loses at most a flush interval of stamps", async () => {
      // Given two daemons on one database (and one Redis)
      let databaseURL: string;
      if (variant.dialect === "postgres") {
        const schema = await createPostgresSchema();
        databaseURL = schema.url;
        cleanups.push(schema.drop);
      } else {
        const dir = mkdtempSync(join(tmpdir(), "authd-kill-"));
        databaseURL = `sqlite://${join(dir, "auth.db")}`;
        cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      }
      const env: Record<string, string> = {
        AUTH_DATABASE_URL: databaseURL,
        AUTH_SERVER_TOKEN: SERVER_TOKEN,
        AUTH_RATE_LIMIT: "off",
        AUTH_LOG_LEVEL: "error",
        ...(variant.redis ? redisEnv() : {}),
        ...("writes" in variant ? { AUTH_API_KEY_USAGE_WRITES: variant.writes } : {}),
      };
      const command = [process.execPath, "bin/authd.ts"];
      const victim = await startDaemon(command, env);
      const survivor = await startDaemon(command, env);
      cleanups.push(async () => {
        victim.process.kill("SIGKILL");
        await survivor.stop();
      });
      const server = (path: string, body: unknown) =>
        fetch(`${survivor.url}/api/auth${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${SERVER_TOKEN}`,
            origin: survivor.url,
          },
          body: JSON.stringify(body),
        });
      const signUp = await fetch(`${survivor.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: survivor.url },
        body: JSON.stringify({ name: "Kill", email: "kill@example.com", password: "correct-horse-battery" }),
      });
      const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
      const createKey = async (fields: Record<string, unknown>) =>
        (await (await server("/api-key/create", { userId, ...fields })).json()) as { id: string; key: string };
      const remainingKey = await createKey({ rateLimitEnabled: false, remaining: REMAINING });
      const windowKey = await createKey({ rateLimitMax: REMAINING, rateLimitTimeWindow: 86_400_000 });
      const victimsUnlimited = await createKey({ rateLimitEnabled: false });

      // When both are hammered and one is killed mid-load
      const remainingUses = tally();
      const windowUses = tally();
      const unlimitedUses = tally();
      let killed = false;
      let stopped = false;
      const load = Promise.all([
        ...[victim, survivor].flatMap((daemon) => [
          hammer(daemon, remainingKey.key, remainingUses, () => stopped || (daemon === victim && killed)),
          hammer(daemon, windowKey.key, windowUses, () => stopped || (daemon === victim && killed)),
        ]),
        hammer(victim, victimsUnlimited.key, unlimitedUses, () => killed, 2),
      ]);
      await Bun.sleep(LOAD_BEFORE_KILL_MS);
      victim.process.kill("SIGKILL");
      killed = true;
      await Bun.sleep(LOAD_AFTER_KILL_MS);
      stopped = true;
      await load;
      // The survivor shuts down cleanly: it writes what it holds (and copies Redis's counters) on the way out.
      expect(await survivor.stop()).toBe(0);

      // Then the database holds every valid use of the limited keys
      registerFeatures();
      const ctx = await createContext(
        loadConfig({
          env: { ...env, AUTH_SECRET: "g7XFMDuN4xsp-bMuPlqxcoWnsG7nCp6XvaYhQieyPvCdhP5D_P6fAeSxfCtcGSjT" },
        }),
        {
          logger: silentLogger,
        },
      );
      try {
        const row = (id: string) =>
          ctx.db.selectFrom("apikey").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        expect(remainingUses.valid).toBeGreaterThan(0);
        expect(remainingUses.refused + windowUses.refused).toBe(0);
        const spent = REMAINING - Number((await row(remainingKey.id)).remaining);
        // Each valid answer is counted; a request cut off by the kill may have been counted without an answer
        // (and with leased uses, the killed daemon's block of each key: at most one block each).
        const lost = "writes" in variant && variant.writes === "leased" ? MAX_LEASE : 0;
        expect(spent).toBeGreaterThanOrEqual(remainingUses.valid);
        expect(spent).toBeLessThanOrEqual(remainingUses.valid + remainingUses.cutOff + lost);
        const windowCount = Number((await row(windowKey.id)).requestCount);
        expect(windowCount).toBeGreaterThanOrEqual(windowUses.valid);
        expect(windowCount).toBeLessThanOrEqual(windowUses.valid + windowUses.cutOff + lost);
        if (variant.redis) {
          // Redis holds the truth; the survivor's last copy brought the rows level with it.
          const redis = new Bun.RedisClient(REDIS_URL);
          try {
            const counters = (await redis.send("HGET", [
              `${env.AUTH_REDIS_KEY_PREFIX}apikey-usage:${remainingKey.id}`,
              "remaining",
            ])) as string;
            expect(Number(counters)).toBe(REMAINING - spent);
          } finally {
            redis.close();
          }
        }

        // And the key without limits lost at most the last flush interval of its stamps
        expect(unlimitedUses.valid).toBeGreaterThan(0);
        const stamped = Number((await row(victimsUnlimited.id)).lastRequest);
        expect(stamped).toBeGreaterThan(0);
        expect(stamped).toBeLessThanOrEqual(unlimitedUses.lastAnswered);
        expect(unlimitedUses.lastAnswered - stamped).toBeLessThanOrEqual(FLUSH_INTERVAL_MS + TIMER_SLACK_MS);
      } finally {
        await ctx.close();
      }
    }, 60_000);
  });
}
