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

export async function createPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `t_${generateRandomString(12, LOWER_ALPHANUMERIC)}`;
  await admin((client) => client.query(`create schema ${schema}`));
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  return { url, drop: () => admin((client) => client.query(`drop schema if exists ${schema} cascade`)).then(() => {}) };
}
