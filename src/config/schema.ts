import * as z from "zod";
import { accountFields } from "./account-schema.ts";
import { auditConfigSchema, webhooksConfigSchema } from "./audit-schema.ts";
import { integrationFields } from "./integrations-schema.ts";
import { oidcProviderFields } from "./oidc-schema.ts";
import { pagesFields } from "./pages-schema.ts";
import { pluginFields } from "./plugins-schema.ts";
import { serverFields } from "./server-schema.ts";

// One schema for the whole configuration: every field has its default and a description, which the
// README's configuration table and `authd config check` are generated from. Its sections live in files of
// their own (server-, account-, plugins-, integrations- and audit-schema.ts); the order they are spread in
// here is the order of the README table.
//
// The schema is built when it is needed and held only weakly: the daemon reads its configuration once, and
// the schema's ~2 MB of zod objects would otherwise stay in its heap for good (bench/README.md, "Idle
// memory (issue 34, round four)"), while the tests and commands that load configurations one after another
// build it once, not each time (building takes ~10 ms).

export type { SocialProviderConfig } from "./integrations-schema.ts";

function buildConfigSchema() {
  return z
    .object({
      ...serverFields(),
      audit: auditConfigSchema(),
      webhooks: webhooksConfigSchema(),
      ...accountFields(),
      ...pluginFields(),
      ...integrationFields(),
      ...pagesFields(),
      ...oidcProviderFields(),
    })
    .strict();
}

export type ConfigSchema = ReturnType<typeof buildConfigSchema>;

let lastBuilt: WeakRef<ConfigSchema> | undefined;

/** The configuration schema: the one built last while anything still holds it, else a new one. */
export function configSchema(): ConfigSchema {
  const schema = lastBuilt?.deref() ?? buildConfigSchema();
  lastBuilt = new WeakRef(schema);
  return schema;
}

let keys: readonly string[] | undefined;

/** The configuration's top-level keys, in the schema's order (the README table's). */
export function configKeys(): readonly string[] {
  keys ??= Object.keys(configSchema().shape);
  return keys;
}

export type ConfigInput = z.input<ConfigSchema>;
export type Config = z.output<ConfigSchema>;
