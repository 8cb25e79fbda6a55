import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from "kysely";

// Kysely's Postgres introspection (which its migrator asks whether the bookkeeping tables exist) reads the
// catalog of every schema of the database and calls has_schema_privilege() by name on each: a schema another
// process drops during the scan fails it with "schema … does not exist", and a database holding many schemas
// (tenants, test runs) makes every start-up's scan longer. authd's tables live in one schema (`?schema=` on
// the URL, else the connection's current schema), so this dialect's introspection reads that one only.

interface ColumnRow {
  table: string;
  kind: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  serial: boolean;
}

/** Kysely's own migration tables, which introspection leaves out unless asked for them. */
const KYSELY_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

class OneSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the introspector is handed Kysely<any> by the dialect.
    private readonly db: Kysely<any>,
    private readonly schema: string | null,
  ) {}

  /** The schema name: the configured one, or the connection's current schema. */
  #schema() {
    return this.schema === null ? sql`current_schema()` : sql`${this.schema}`;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace where nspname = ${this.#schema()}`.execute(this.db);
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, a.attname as "column", a.attnotnull as not_null,
        a.atthasdef as has_default, t.typname as type, tns.nspname as type_schema,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null as serial
      from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        join pg_catalog.pg_type t on t.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = ${this.#schema()} and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.db);
    const schema = this.schema ?? undefined;
    const tables = new Map<string, { name: string; isView: boolean; schema?: string; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, isView: row.kind === "v", schema, columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isAutoIncrementing: row.serial,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect whose introspection reads one schema: `schema`, or the connection's current one when null. */
export class OneSchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string | null;

  constructor(config: PostgresDialectConfig, schema: string | null) {
    super(config);
    this.#schema = schema;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the signature Kysely's Dialect interface declares.
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OneSchemaIntrospector(db, this.#schema);
  }
}
