import type { Kysely } from "kysely";
import { resolveBaseURL } from "./config/load.ts";
import type { Config } from "./config/schema.ts";
import { createPasswordHasher, type PasswordHasher, testScryptCost } from "./crypto/password.ts";
import { generateRandomString } from "./crypto/random.ts";
import { type DatabaseHandle, openDatabase } from "./db/driver.ts";
import { assertUpToDate, migrateToLatest } from "./db/migrator.ts";
import { findSetting, insertSettingIfAbsent } from "./db/repositories/settings.ts";
import type { Database, Db } from "./db/schema.ts";
import { dependencyError } from "./dependencies.ts";
import { createAddressMatcher } from "./ip-address.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { createMetrics, type Metrics } from "./platform/metrics.ts";
import { LocalState } from "./platform/per-context.ts";
import {
  createDatabaseRateLimitStore,
  createMemoryRateLimitStore,
  createRedisRateLimitStore,
  type RateLimitStore,
} from "./platform/rate-limit.ts";
import { createRedisStorage, type SecondaryStorage } from "./platform/secondary-storage.ts";
import type { RoleMap } from "./services/access-control.ts";
import { createMailDelivery } from "./services/mail/delivery.ts";
import { createOutbox, type MailOutbox, outboxEnabled } from "./services/mail/outbox.ts";
import { createProviderCache, type ProviderCache } from "./services/oauth/provider-cache.ts";
import { createOrganizationRoles } from "./services/organizations/roles.ts";
import type { MailMessage } from "./wire/mail.ts";

// One context, built once, handed to the HTTP app, every CLI command, the terminal UI and the tests.
// Nothing else opens the database or reads process.env.

export interface AuthContext {
  config: Config;
  /** Public origin, no trailing slash (links in mails and redirects). */
  baseURL: string;
  /** baseURL + basePath. */
  apiURL: string;
  /** The app users come from and return to (AUTH_APP_URL, else the base URL): where mailed links land by default. */
  appURL: string;
  /** Signs and seals everything new (AUTH_SECRET, else the generated one stored in the database). */
  secret: string;
  /**
   * The current secret first, then AUTH_SECRET_PREVIOUS: what signed cookies, hashed codes and sealed values are
   * checked against, so a rotation keeps what the old secret made working. Never used to sign or seal.
   */
  acceptedSecrets: readonly string[];
  /** The database: the one handle every repository call goes through (services own the writes). */
  db: Kysely<Database>;
  /** What is known about the database beside the handle: dialect, schema, pool, closing. */
  database: Omit<DatabaseHandle, "db">;
  logger: Logger;
  mailer: Mailer;
  rateLimitStore: RateLimitStore;
  secondaryStorage?: SecondaryStorage;
  /** Password hashing on the thread pool, counting its derivations in flight. */
  passwords: PasswordHasher;
  metrics: Metrics;
  /** The organization role table in force (configured or default). */
  organizationRoles: RoleMap;
  /** Provider discovery documents and JWKS, kept per URL. */
  providerCache: ProviderCache;
  /** Whether an address is one of the trusted reverse proxies (AUTH_TRUSTED_PROXIES). */
  isTrustedProxy(address: string): boolean;
  /** The per-process state of this context: each feature's queues, gates, copies and counts (platform/per-context.ts). */
  local: LocalState;
  /** Milliseconds since the epoch; tests replace it to move time. */
  now(): number;
  /**
   * Send a mail in the background, written in the language of the request that caused it (when it is the
   * recipient's): the answer to the request never waits for, or depends on, delivery.
   */
  sendMail(message: MailMessage): void;
  /** Without SMTP (and on loopback, or AUTH_DEV_OUTBOX=on): the last mails, for /account/dev/outbox. */
  outbox: MailOutbox | null;
  /** Run work after the response; shutdown waits for it. */
  background(task: Promise<unknown>): void;
  /** Wait for background work (mail, cleanups) to settle. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface CreateContextOptions {
  logger?: Logger;
  /**
   * Create the database when missing and apply pending migrations while opening (serve and the tests do).
   * Otherwise (every other command) a missing or out-of-date database is refused with what to run.
   */
  migrate?: boolean;
  /**
   * Also reach Redis ("storage": the commands) and the SMTP server ("all": serve) once while opening, so a wrong
   * URL fails the start, by name, not a request.
   */
  checkConnections?: "all" | "storage";
  now?: () => number;
  secondaryStorage?: SecondaryStorage;
}

const SECRET_SETTING = "secret";

async function resolveSecret(config: Config, db: Db, logger: Logger): Promise<string> {
  if (config.secret) return config.secret;
  const stored = await findSetting(db, SECRET_SETTING);
  if (stored) return stored;
  await insertSettingIfAbsent(db, SECRET_SETTING, generateRandomString(64));
  // Another process may have won the race; everyone uses the stored value.
  const winner = await findSetting(db, SECRET_SETTING);
  if (!winner) throw new Error("the generated secret could not be stored in the database");
  logger.warn(
    "AUTH_SECRET is not set: generated a secret and stored it in the database; set AUTH_SECRET in production",
  );
  return winner;
}

/** Unset storage means the secondary storage when there is one (as Better Auth does), memory otherwise. */
function createRateLimitStore(
  config: Config,
  db: Db,
  secondary: SecondaryStorage | undefined,
  logger: Logger,
): RateLimitStore {
  const storage = config.rateLimit.storage ?? (secondary ? "secondary" : "memory");
  if (storage === "database") return createDatabaseRateLimitStore(db);
  if (storage === "secondary") {
    if (secondary) return createRedisRateLimitStore(secondary);
    logger.warn("rate-limit storage is secondary but AUTH_REDIS_URL is not set: counting in memory");
  }
  return createMemoryRateLimitStore();
}

/** Reach Redis and the SMTP server once, so a wrong URL or a server not up yet is told at start, by name. */
async function checkConnections(
  config: Config,
  mailer: Mailer | undefined,
  storage: SecondaryStorage | undefined,
): Promise<void> {
  if (storage && config.redisURL)
    await storage.check().catch((error: unknown) => {
      throw dependencyError(config.redisURL ?? "", error);
    });
  if (config.smtpURL && mailer)
    await mailer.verify().catch((error: unknown) => {
      throw dependencyError(config.smtpURL ?? "", error);
    });
}

/** Reach the database, then migrate it (serve, the tests) or refuse one that is missing or out of date. */
async function prepareDatabase(
  config: Config,
  db: Db,
  database: Omit<DatabaseHandle, "db">,
  migrate: boolean,
  logger: Logger,
): Promise<void> {
  await database.ping().catch((error: unknown) => {
    throw dependencyError(config.databaseURL, error);
  });
  if (migrate) await migrateToLatest(db, (name) => logger.info("applied migration", { name }), database.schema);
  else await assertUpToDate(db, database.schema, config.databaseURL);
}

function openSecondaryStorage(config: Config): SecondaryStorage | undefined {
  if (!config.redisURL) return undefined;
  return createRedisStorage(config.redisURL, { keyPrefix: config.redisKeyPrefix, timeoutMs: config.redisTimeoutMs });
}

/** Work run after the response: a failure is logged, never thrown, and settle() waits for all of it (shutdown). */
function backgroundWork(logger: Logger): Pick<AuthContext, "background" | "settle"> {
  const pending = new Set<Promise<unknown>>();
  return {
    background(task) {
      const tracked = task
        .catch((error: unknown) => logger.error("background task failed", { error }))
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

type Closable = Pick<AuthContext, "settle" | "local" | "mailer" | "secondaryStorage" | "database">;

/** Close a context: background work settles first, then each part in turn, the database last. */
async function closeContext({ settle, local, mailer, secondaryStorage, database }: Closable): Promise<void> {
  await settle();
  // What features keep behind (API-key uses counted in memory or in Redis) reaches the database before it closes.
  await local.close();
  mailer.close();
  await secondaryStorage?.close();
  await database.close();
}

/** Closing twice (serve's shutdown, then a caller's own close) closes once: the second waits for the first. */
function closeOnce(parts: Closable): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= closeContext(parts);
    return closing;
  };
}

export async function createContext(config: Config, options: CreateContextOptions = {}): Promise<AuthContext> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const { db, ...database } = openDatabase(config.databaseURL, {
    poolSize: config.databasePoolSize,
    create: options.migrate === true,
  });
  let secondaryStorage: SecondaryStorage | undefined;
  let mailer: Mailer | undefined;
  try {
    await prepareDatabase(config, db, database, options.migrate === true, logger);
    const secret = await resolveSecret(config, db, logger);
    const smtp = createMailer({
      smtpURL: config.smtpURL,
      from: config.mailFrom,
      timeoutMs: config.smtpTimeoutMs,
      logger,
    });
    mailer = smtp;
    const baseURL = resolveBaseURL(config);
    secondaryStorage = options.secondaryStorage ?? openSecondaryStorage(config);
    if (options.checkConnections)
      await checkConnections(config, options.checkConnections === "all" ? smtp : undefined, secondaryStorage);
    const rateLimitStore = createRateLimitStore(config, db, secondaryStorage, logger);

    const { background, settle } = backgroundWork(logger);
    const passwords = createPasswordHasher(testScryptCost() ?? undefined);
    const metrics = createMetrics({
      passwordHashesInFlight: passwords.inFlight,
      poolStats: database.poolStats,
      poolMax: database.dialect === "postgres" ? config.databasePoolSize : 1,
    });

    const local = new LocalState();
    const now = options.now ?? Date.now;
    const outbox = outboxEnabled(config) ? createOutbox() : null;
    return {
      config,
      baseURL,
      apiURL: `${baseURL}${config.basePath}`,
      appURL: config.appURL ?? baseURL,
      secret,
      acceptedSecrets: [...new Set([secret, ...config.previousSecrets])],
      database,
      db,
      logger,
      mailer: smtp,
      rateLimitStore,
      secondaryStorage,
      passwords,
      metrics,
      organizationRoles: createOrganizationRoles(config),
      providerCache: createProviderCache(),
      isTrustedProxy: createAddressMatcher(config.trustedProxies),
      local,
      now,
      sendMail: createMailDelivery({ config, db, transport: smtp, outbox, background, now }),
      outbox,
      background,
      settle,
      close: closeOnce({ settle, local, mailer: smtp, secondaryStorage, database }),
    };
  } catch (error) {
    mailer?.close();
    await secondaryStorage?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}
