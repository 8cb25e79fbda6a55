import type { Migration } from "kysely";
import * as createAuthTables from "./20261121000000_create_auth_tables.ts";
import * as hashSessionTokens from "./20261123140000_hash_session_tokens.ts";
import * as createPasskeyTable from "./20261123170000_create_passkey_table.ts";
import * as addJwksRotation from "./20261123171000_add_jwks_rotation.ts";
import * as addTwoFactor from "./20261123172000_add_two_factor.ts";
import * as createAuditTables from "./20261123173000_create_audit_tables.ts";
import * as addApiKeyUsageVersion from "./20261127070000_add_api_key_usage_version.ts";
import * as addPasskeyLastUsed from "./20261127180000_add_passkey_last_used.ts";
import * as createOidcProviderTables from "./20261127190000_create_oidc_provider_tables.ts";
import * as createImportedUserTable from "./20261127200000_create_imported_user_table.ts";
import * as addAuditEventIndexes from "./20261127213100_add_audit_event_indexes.ts";
import * as addWebhookDeliveryLog from "./20261127213700_add_webhook_delivery_log.ts";
import * as addUserDirectoryIndexes from "./20261127214500_add_user_directory_indexes.ts";
import * as addUserLanguage from "./20261128010000_add_user_language.ts";

// Listed statically so `bun build --compile` embeds every migration in the binary. Add new ones in order.
export const migrations: Record<string, Migration> = {
  "20261121000000_create_auth_tables": createAuthTables,
  "20261123140000_hash_session_tokens": hashSessionTokens,
  "20261123170000_create_passkey_table": createPasskeyTable,
  "20261123171000_add_jwks_rotation": addJwksRotation,
  "20261123172000_add_two_factor": addTwoFactor,
  "20261123173000_create_audit_tables": createAuditTables,
  "20261127070000_add_api_key_usage_version": addApiKeyUsageVersion,
  "20261127180000_add_passkey_last_used": addPasskeyLastUsed,
  "20261127190000_create_oidc_provider_tables": createOidcProviderTables,
  "20261127200000_create_imported_user_table": createImportedUserTable,
  "20261127213100_add_audit_event_indexes": addAuditEventIndexes,
  "20261127213700_add_webhook_delivery_log": addWebhookDeliveryLog,
  "20261127214500_add_user_directory_indexes": addUserDirectoryIndexes,
  "20261128010000_add_user_language": addUserLanguage,
};
