import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

// A database a bench creates and drops: a fresh Postgres schema, or a SQLite file in a temporary folder.

export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function scratchDatabase(
  dialect: string,
  label: string,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (dialect === "postgres") {
    // A label may hold characters an unquoted schema name cannot ("in-process").
    const schema = `bench_${label.replace(/[^a-z0-9_]/gi, "_")}_${Date.now().toString(36)}`;
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`create schema ${schema}`);
    return { url: `${BENCH_POSTGRES_URL}?schema=${schema}`, cleanup: () => admin(`drop schema ${schema} cascade`) };
  }
  const dir = mkdtempSync(join(tmpdir(), `authd-${label}-`));
  return {
    url: `sqlite://${join(dir, "bench.db")}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
