import * as z from "zod";
import { accountFields } from "./account-schema.ts";
import { AuditConfigSchema, WebhooksConfigSchema } from "./audit-schema.ts";
import { integrationFields } from "./integrations-schema.ts";
import { oidcProviderFields } from "./oidc-schema.ts";
import { pagesFields } from "./pages-schema.ts";
import { pluginFields } from "./plugins-schema.ts";
import { serverFields } from "./server-schema.ts";

// One schema for the whole configuration: every field has its default and a description, which the
// README's configuration table and `authd config check` are generated from. Its sections live in files of
// their own (server-, account-, plugins-, integrations- and audit-schema.ts); the order they are spread in
// here is the order of the README table.

export type { SocialProviderConfig } from "./integrations-schema.ts";

export const ConfigSchema = z
  .object({
    ...serverFields,
    audit: AuditConfigSchema,
    webhooks: WebhooksConfigSchema,
    ...accountFields,
    ...pluginFields,
    ...integrationFields,
    ...pagesFields,
    ...oidcProviderFields,
  })
  .strict();

export type ConfigInput = z.input<typeof ConfigSchema>;
export type Config = z.output<typeof ConfigSchema>;
