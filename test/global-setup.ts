import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropTestSchemas } from "./helpers/postgres.ts";

// One prefix for every Postgres schema this run creates (workers inherit the variable), so the run can drop
// exactly its own schemas at the end while other checkouts' runs go on.
const run = Date.now().toString(36);

// One compiled executable for every test file of this run that needs one (helpers/binary.ts builds it on
// first use, once; workers inherit the variable).
const binaries = mkdtempSync(join(tmpdir(), "authd-run-bin-"));

export function setup(): void {
  process.env.AUTH_TEST_SCHEMA_RUN = run;
  // scrypt at a lower cost for every context and daemon of the run (src/crypto/password.ts): the same code
  // and format, a fraction of the time. test/unit/password-cost.test.ts proves the product's own cost.
  process.env.AUTHD_TEST_SCRYPT_COST = "1024";
  process.env.AUTHD_TEST_BINARY_DIR = binaries;
}

export async function teardown(): Promise<void> {
  await dropTestSchemas(run);
  rmSync(binaries, { recursive: true, force: true });
}
