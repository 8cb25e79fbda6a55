import pg from "pg";
import { generateRandomString, LOWER_ALPHANUMERIC } from "../../src/crypto/random.ts";

// Postgres for tests: each test context gets a schema of its own in the `test` database, dropped after.
// When no server answers, Postgres suites are skipped with the reason printed (CI on this machine has one).

export const POSTGRES_URL = process.env.AUTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

let availability: Promise<string | null> | undefined;

/** null when Postgres answers; otherwise why not. */
export function postgresUnavailableReason(): Promise<string | null> {
  availability ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query("select 1");
      return null;
    } catch (error) {
      return `Postgres at ${POSTGRES_URL} did not answer (${(error as Error).message})`;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return availability;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Schemas are named t_<run>_<random>. They are dropped when the whole run ends (test/global-setup.ts), not
// after each test: Kysely's migrator lists tables with has_table_privilege(), which fails with "schema does
// not exist" when another worker drops a schema halfway through the listing.
const RUN_PREFIX = process.env.AUTH_TEST_SCHEMA_RUN ?? Date.now().toString(36);

export async function createPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `t_${RUN_PREFIX}_${generateRandomString(12, LOWER_ALPHANUMERIC)}`;
  await admin((client) => client.query(`create schema ${schema}`));
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  return { url, drop: async () => {} };
}

/**
 * Drop this run's schemas, and those of runs that started over two hours ago (killed before their end).
 * Runs in parallel checkouts keep theirs: each has its own prefix.
 */
export async function dropTestSchemas(run: string): Promise<number> {
  if (await postgresUnavailableReason()) return 0;
  return admin(async (client) => {
    const { rows } = await client.query<{ nspname: string }>(
      "select nspname from pg_namespace where nspname like 't\\_%'",
    );
    const stale = Date.now() - 2 * 3600_000;
    const doomed = rows
      .map((row) => row.nspname)
      .filter((name) => {
        const prefix = name.split("_")[1] ?? "";
        const started = Number.parseInt(prefix, 36);
        return prefix === run || (Number.isFinite(started) && started < stale);
      });
    for (const name of doomed) await client.query(`drop schema if exists ${name} cascade`);
    return doomed.length;
  });
}

/**
 * A Postgres database of its own (for a foreign system's schema, e.g. Better Auth's, whose migrations look at
 * every schema of their database); `drop` removes it.
 */
export async function createPostgresDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a database name for tests: ${name}`);
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
