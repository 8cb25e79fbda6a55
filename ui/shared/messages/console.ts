import { consoleApiKeysDe, consoleApiKeysEn } from "./console-api-keys.ts";
import { consoleAuditDe, consoleAuditEn } from "./console-audit.ts";
import { consoleClientsDe, consoleClientsEn } from "./console-clients.ts";
import { consoleCoreDe, consoleCoreEn } from "./console-core.ts";
import { consoleMailDe, consoleMailEn } from "./console-mail.ts";
import { consoleOrganizationsDe, consoleOrganizationsEn } from "./console-organizations.ts";
import { consoleOverviewDe, consoleOverviewEn } from "./console-overview.ts";
import { consoleSettingsDe, consoleSettingsEn } from "./console-settings.ts";
import { consoleUserDe, consoleUserEn } from "./console-user.ts";
import { consoleUserHoldingsDe, consoleUserHoldingsEn } from "./console-user-holdings.ts";
import { consoleUsersDe, consoleUsersEn } from "./console-users.ts";
import { consoleWebhooksDe, consoleWebhooksEn } from "./console-webhooks.ts";
import { CATALOGUES, type Locale, type MessageKey } from "./index.ts";

// The web console's messages: part of the one catalogue (same languages, same `{name}` values, same
// picking of the language), kept in files of their own so only the console's bundle carries them and the
// sign-in page stays light. Each area of the console adds a file `console-<area>.ts` with its English and
// German messages (keys console.<area>.*) and spreads them in here.

export const consoleEn = {
  ...consoleCoreEn,
  ...consoleUsersEn,
  ...consoleOverviewEn,
  ...consoleAuditEn,
  ...consoleUserEn,
  ...consoleUserHoldingsEn,
  ...consoleOrganizationsEn,
  ...consoleApiKeysEn,
  ...consoleClientsEn,
  ...consoleWebhooksEn,
  ...consoleSettingsEn,
  ...consoleMailEn,
} as const;

export type ConsoleMessageKey = keyof typeof consoleEn;

export const consoleDe: Record<ConsoleMessageKey, string> = {
  ...consoleCoreDe,
  ...consoleUsersDe,
  ...consoleOverviewDe,
  ...consoleAuditDe,
  ...consoleUserDe,
  ...consoleUserHoldingsDe,
  ...consoleOrganizationsDe,
  ...consoleApiKeysDe,
  ...consoleClientsDe,
  ...consoleWebhooksDe,
  ...consoleSettingsDe,
  ...consoleMailDe,
};

const CONSOLE_CATALOGUES: Record<Locale, Record<ConsoleMessageKey, string>> = { en: consoleEn, de: consoleDe };

/** A key of the pages' catalogue or of the console's. */
export type AnyMessageKey = MessageKey | ConsoleMessageKey;

export type ConsoleTranslate = (key: AnyMessageKey, values?: Record<string, string | number>) => string;

/** The console's messages in one language, falling back to the pages' for the words they share. */
export function consoleTranslator(locale: Locale): ConsoleTranslate {
  const console: Record<string, string> = CONSOLE_CATALOGUES[locale];
  const pages: Record<string, string> = CATALOGUES[locale];
  return (key, values) =>
    (console[key] ?? pages[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) =>
      values && name in values ? String(values[name]) : whole,
    );
}
