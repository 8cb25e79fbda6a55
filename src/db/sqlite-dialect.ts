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

class BunSqliteConnection implements DatabaseConnection {
  constructor(private readonly db: BunDatabase) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.db.query(compiled.sql);
    const parameters = compiled.parameters.map(toBinding);
    if (statement.columnNames.length > 0) {
      const rows = statement.all(...parameters) as R[];
      return { rows, numAffectedRows: BigInt(rows.length) };
    }
    const result = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(result.changes), insertId: BigInt(result.lastInsertRowid) };
  }

  // biome-ignore lint/correctness/useYield: Kysely requires the method; this driver never streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported by the bun:sqlite dialect");
  }
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
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
}

export class BunSqliteDialect implements Dialect {
  constructor(private readonly db: BunDatabase) {}
  createDriver(): Driver {
    return new BunSqliteDriver(this.db);
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
