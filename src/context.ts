import { resolveBaseURL } from "./config/load.ts";
import type { Config } from "./config/schema.ts";
import { generateRandomString } from "./crypto/random.ts";
import { type DatabaseHandle, openDatabase } from "./db/driver.ts";
import { migrateToLatest } from "./db/migrator.ts";
import type { Database } from "./db/schema.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMailer, type Mail, type Mailer } from "./mailer.ts";
import { createDatabaseRateLimitStore, createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from "./services/rate-limit.ts";
import { createRedisStorage } from "./services/secondary-storage.ts";
import { sessionCacheInvalidationPlugin } from "./services/session-cache-invalidation.ts";
import { disownCachedSessions } from "./services/session-cache.ts";
import type { Kysely } from "kysely";

// One context, built once, handed to the HTTP app, every CLI command, the terminal UI and the tests.
// Nothing else opens the database or reads process.env.

export interface SecondaryStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Set only when the key is absent; false when it already existed. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Several keys in one round trip (null for each absent key). */
  getMany(keys: string[]): Promise<(string | null)[]>;
  /** Add one to a counter (created at 0), returning the new value. */
  increment(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Run a Lua script atomically on the server (rate-limit counters). */
  evaluate(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** Whether a round trip succeeds now (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface AuthContext {
  config: Config;
  /** Public origin, no trailing slash (links in mails and redirects). */
  baseURL: string;
  /** baseURL + basePath. */
  apiURL: string;
  secret: string;
  database: DatabaseHandle;
  db: Kysely<Database>;
  logger: Logger;
  mailer: Mailer;
  rateLimitStore: RateLimitStore;
  secondaryStorage?: SecondaryStorage;
  /** Milliseconds since the epoch; tests replace it to move time. */
  now(): number;
  /** Send a mail in the background: the answer to the request never waits for, or depends on, delivery. */
  sendMail(mail: Mail): void;
  /** Run work after the response; shutdown waits for it. */
  background(task: Promise<unknown>): void;
  /** Wait for background work (mail, cleanups) to settle. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface CreateContextOptions {
  logger?: Logger;
  /** Apply pending migrations while opening (serve does; read-only CLI commands do not need to). */
  migrate?: boolean;
  now?: () => number;
  secondaryStorage?: SecondaryStorage;
}

const SECRET_SETTING = "secret";

async function resolveSecret(config: Config, db: Kysely<Database>, logger: Logger): Promise<string> {
  if (config.secret) return config.secret;
  const stored = await db.selectFrom("authdSetting").select("value").where("key", "=", SECRET_SETTING).executeTakeFirst();
  if (stored) return stored.value;
  const generated = generateRandomString(64);
  await db
    .insertInto("authdSetting")
    .values({ key: SECRET_SETTING, value: generated })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  // Another process may have won the race; everyone uses the stored value.
  const winner = await db.selectFrom("authdSetting").select("value").where("key", "=", SECRET_SETTING).executeTakeFirstOrThrow();
  logger.warn("AUTH_SECRET is not set: generated a secret and stored it in the database; set AUTH_SECRET in production");
  return winner.value;
}

/** Unset storage means the secondary storage when there is one (as Better Auth does), memory otherwise. */
function createRateLimitStore(config: Config, db: Kysely<Database>, secondary: SecondaryStorage | undefined, logger: Logger): RateLimitStore {
  const storage = config.rateLimit.storage ?? (secondary ? "secondary" : "memory");
  if (storage === "database") return createDatabaseRateLimitStore(db);
  if (storage === "secondary") {
    if (secondary) return createRedisRateLimitStore(secondary);
    logger.warn("rate-limit storage is secondary but AUTH_REDIS_URL is not set: counting in memory");
  }
  return createMemoryRateLimitStore();
}

export async function createContext(config: Config, options: CreateContextOptions = {}): Promise<AuthContext> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const database = openDatabase(config.databaseURL, { poolSize: config.databasePoolSize });
  const { db } = database;
  let secondaryStorage: SecondaryStorage | undefined;
  try {
    if (options.migrate) await migrateToLatest(db, (name) => logger.info("applied migration", { name }), database.schema);
    const secret = await resolveSecret(config, db, logger);
    const mailer = createMailer({ smtpURL: config.smtpURL, from: config.mailFrom, timeoutMs: config.smtpTimeoutMs, logger });
    const baseURL = resolveBaseURL(config);
    const pending = new Set<Promise<unknown>>();
    secondaryStorage = options.secondaryStorage ?? (config.redisURL ? createRedisStorage(config.redisURL, { keyPrefix: config.redisKeyPrefix }) : undefined);
    const rateLimitStore = createRateLimitStore(config, db, secondaryStorage, logger);
    const storage = secondaryStorage;
    // Writes to users and sessions made anywhere but the sessions service disown cached sessions.
    const disown = (target: SecondaryStorage) => () => disownCachedSessions(target, (error) => logger.error("could not disown cached sessions", { error }));
    const appDb = storage ? db.withPlugin(sessionCacheInvalidationPlugin(disown(storage))) : db;

    const background = (task: Promise<unknown>) => {
      const tracked = task.catch((error: unknown) => logger.error("background task failed", { error })).finally(() => pending.delete(tracked));
      pending.add(tracked);
    };
    const settle = async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    };

    return {
      config,
      baseURL,
      apiURL: `${baseURL}${config.basePath}`,
      secret,
      database,
      db: appDb,
      logger,
      mailer,
      rateLimitStore,
      secondaryStorage,
      now: options.now ?? Date.now,
      sendMail: (mail) => background(mailer.send(mail)),
      background,
      settle,
      async close() {
        await settle();
        mailer.close();
        await secondaryStorage?.close();
        await database.close();
      },
    };
  } catch (error) {
    await secondaryStorage?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}
