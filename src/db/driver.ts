import { Database as BunDatabase } from "bun:sqlite";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, sql } from "kysely";
import { DependencyError, dependencyError } from "../dependencies.ts";
import { type ChangeSignal, postgresChangeSignal, sqliteChangeSignal } from "./change-signal.ts";
import { runDirectlyWhenFree } from "./compiled-query.ts";
import { OneSchemaPostgresDialect } from "./one-schema-dialect.ts";
import { createStatementNamer, preparePooledClient } from "./prepared-statements.ts";
import type { Database } from "./schema.ts";
import { BunSqliteDialect } from "./sqlite-dialect.ts";

// The only module that picks a dialect or imports bun:sqlite.

export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Postgres schema the tables live in (the URL's ?schema=, else public); undefined on SQLite. */
  schema?: string;
  /** Connections in use and idle (Postgres), for metrics. */
  poolStats(): { total: number; idle: number; waiting: number };
  /** One round trip (readiness); rejects when the database does not answer. */
  ping(): Promise<void>;
  /** Whether another process changed the data (what in-process copies are checked against; change-signal.ts). */
  changes: ChangeSignal;
  close(): Promise<void>;
}

const pingWith = (db: Kysely<Database>) => async () => {
  await sql`select 1`.execute(db);
};

export interface OpenDatabaseOptions {
  poolSize?: number;
  /**
   * May a missing SQLite file be created (serve and migrate)? Otherwise a missing file is refused with what
   * to run. Never are directories created: a wrong path must not leave a tree behind.
   */
  create?: boolean;
}

/**
 * pg, loaded when a Postgres database is first opened: a daemon on SQLite never loads it (start-up time and
 * idle memory, issue 17). A synchronous require keeps openDatabase synchronous; the bundle evaluates pg here.
 */
function loadPg(): typeof import("pg") {
  const pg = require("pg") as typeof import("pg");
  // Postgres bigint (int8) holds epoch milliseconds, well inside Number's exact range.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  return pg;
}

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (url.startsWith("sqlite://")) return openSqlite(url, options.create ?? true);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.poolSize ?? 10);
  throw new Error(`unsupported database URL: ${url.split("://")[0]}://`);
}

function openSqlite(url: string, create: boolean): DatabaseHandle {
  const path = url.slice("sqlite://".length);
  if (path !== ":memory:") {
    if (!existsSync(dirname(path)))
      throw new DependencyError(`sqlite ${path}`, `directory ${dirname(path)} does not exist (authd creates none)`);
    if (!create && !existsSync(path))
      throw new DependencyError(
        `sqlite ${path}`,
        "no database here; run `authd migrate` to create it, or fix AUTH_DATABASE_URL",
      );
  }
  let sqlite: BunDatabase;
  try {
    sqlite = new BunDatabase(path, { create, strict: false });
    sqlite.run("pragma journal_mode = wal");
    sqlite.run("pragma synchronous = normal");
    sqlite.run("pragma busy_timeout = 5000");
    sqlite.run("pragma foreign_keys = on");
  } catch (error) {
    throw dependencyError(url, error);
  }
  const dialect = new BunSqliteDialect(sqlite);
  const db = new Kysely<Database>({ dialect });
  const driver = dialect.driver;
  if (driver) runDirectlyWhenFree(db, (text, values) => driver.runIfFree(text, values));
  const dataVersion = sqlite.query<{ data_version: number }, []>("pragma data_version");
  return {
    db,
    dialect: "sqlite",
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    ping: pingWith(db),
    changes: sqliteChangeSignal(() => dataVersion.get()?.data_version ?? 0),
    close: () => db.destroy(),
  };
}

/** `?schema=NAME` on a Postgres URL puts authd's tables in that schema (tests use one schema each). */
function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pg = loadPg();
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle client that loses its server (Postgres restart) must not crash the daemon.
  pool.on("error", () => {});
  // A client checked out when its server goes away emits "error" with no pool listener attached: the query
  // in flight already fails (5xx), and an unhandled "error" event would kill the whole daemon.
  const namer = createStatementNamer();
  const never = new Set<string>();
  const nameFor = (text: string) => (never.has(text) ? undefined : namer(text));
  pool.on("connect", (client) => {
    client.on("error", () => {});
    preparePooledClient(client, nameFor, (text) => never.add(text));
  });
  const db = new Kysely<Database>({ dialect: new OneSchemaPostgresDialect({ pool }, schema) });
  const changes = postgresChangeSignal(
    pg.Client,
    { connectionString: parsed.toString(), connectionTimeoutMillis: 5000 },
    schema ?? "public",
  );
  return {
    db,
    dialect: "postgres",
    schema: schema ?? "public",
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: pingWith(db),
    changes,
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}
