import type { Database as BunDatabase, SQLQueryBindings } from "bun:sqlite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

// A Kysely dialect over bun:sqlite. One connection, handed out one holder at a time (transactions span
// awaits); statements come from bun:sqlite's query cache, so a hot path never prepares twice.

function toBinding(value: unknown): SQLQueryBindings {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  return value as SQLQueryBindings;
}

/** Run one statement now (bun:sqlite is synchronous). */
function runStatement<R>(db: BunDatabase, sql: string, values: readonly unknown[]): QueryResult<R> {
  const statement = db.query(sql);
  const parameters = values.map(toBinding);
  if (statement.columnNames.length > 0) {
    const rows = statement.all(...parameters) as R[];
    return { rows, numAffectedRows: BigInt(rows.length) };
  }
  const result = statement.run(...parameters);
  return { rows: [], numAffectedRows: BigInt(result.changes), insertId: BigInt(result.lastInsertRowid) };
}

class BunSqliteConnection implements DatabaseConnection {
  constructor(private readonly db: BunDatabase) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return runStatement<R>(this.db, compiled.sql, compiled.parameters);
  }

  // biome-ignore lint/correctness/useYield: Kysely requires the method; this driver never streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported by the bun:sqlite dialect");
  }
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Holders and waiters. */
  private claims = 0;
  /** Nobody holds the lock or waits for it. */
  get free(): boolean {
    return this.claims === 0;
  }
  lock(): Promise<() => void> {
    this.claims += 1;
    let resolveNext!: () => void;
    const next = new Promise<void>((resolve) => (resolveNext = resolve));
    const release = () => {
      this.claims -= 1;
      resolveNext();
    };
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class BunSqliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly connection: BunSqliteConnection;
  private release: (() => void) | undefined;

  constructor(private readonly db: BunDatabase) {
    this.connection = new BunSqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.release = await this.mutex.lock();
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading read locks.
    this.db.run("begin immediate");
  }

  async commitTransaction(): Promise<void> {
    this.db.run("commit");
  }

  async rollbackTransaction(): Promise<void> {
    this.db.run("rollback");
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    this.db.close();
  }

  /**
   * Run a statement at once when the connection is free, skipping Kysely's connection round (a lock, a
   * release and their promises: about as much as the statement itself for a one-row read or write); nothing
   * can come between, since it runs synchronously. Undefined when a transaction holds the connection or
   * statements wait for it: the caller then queues like any other.
   */
  runIfFree<R>(sql: string, values: readonly unknown[]): R[] | undefined {
    if (!this.mutex.free) return undefined;
    return runStatement<R>(this.db, sql, values).rows;
  }
}

export class BunSqliteDialect implements Dialect {
  /** The driver Kysely made from this dialect (one per Kysely instance). */
  driver: BunSqliteDriver | undefined;
  constructor(private readonly db: BunDatabase) {}
  createDriver(): Driver {
    this.driver = new BunSqliteDriver(this.db);
    return this.driver;
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector interface takes an untyped instance.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
