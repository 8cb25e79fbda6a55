import { dropTestSchemas } from "./helpers/postgres.ts";

// One prefix for every Postgres schema this run creates (workers inherit the variable), so the run can drop
// exactly its own schemas at the end while other checkouts' runs go on.
const run = Date.now().toString(36);

export function setup(): void {
  process.env.AUTH_TEST_SCHEMA_RUN = run;
}

export async function teardown(): Promise<void> {
  await dropTestSchemas(run);
}
