import type { Migration } from "kysely";
import * as createAuthTables from "./20261121000000_create_auth_tables.ts";
import * as hashSessionTokens from "./20261123140000_hash_session_tokens.ts";
import * as createAuditTables from "./20261123170000_create_audit_tables.ts";

// Listed statically so `bun build --compile` embeds every migration in the binary. Add new ones in order.
export const migrations: Record<string, Migration> = {
  "20261121000000_create_auth_tables": createAuthTables,
  "20261123140000_hash_session_tokens": hashSessionTokens,
  "20261123170000_create_audit_tables": createAuditTables,
};
