import { consoleCoreDe, consoleCoreEn } from "./console-core.ts";
import { consoleUsersDe, consoleUsersEn } from "./console-users.ts";
import { CATALOGUES, type Locale, type MessageKey } from "./index.ts";

// The web console's messages: part of the one catalogue (same languages, same `{name}` values, same
// picking of the language), kept in files of their own so only the console's bundle carries them and the
// sign-in page stays light. Each area of the console adds a file `console-<area>.ts` with its English and
// German messages (keys console.<area>.*) and spreads them in here.

export const consoleEn = {
  ...consoleCoreEn,
  ...consoleUsersEn,
} as const;

export type ConsoleMessageKey = keyof typeof consoleEn;

export const consoleDe: Record<ConsoleMessageKey, string> = {
  ...consoleCoreDe,
  ...consoleUsersDe,
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
