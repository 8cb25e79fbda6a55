import { LANGUAGES } from "../config/pages-schema.ts";
import type { AuthContext } from "../context.ts";
import type { EventSource } from "./security-events.ts";
import { saveOwnChanges } from "./user-profile.ts";
import type { UserRecord } from "./users.ts";

// The language a user chose for authd's pages and mails (the account page's profile). It is authd's own
// column, never on the wire: get-session, update-user and list-users keep Better Auth's keys. The pages
// (src/http/pages/page-state.ts) and the mails (mail/delivery.ts, which reads it for each recipient) put
// it ahead of the browser's Accept-Language; null follows the browser.

export type UserLanguage = (typeof LANGUAGES)[number];

/** Only a language the pages and mails have a catalogue for (LANGUAGES, kept equal to the catalogue's). */
export const isUserLanguage = (value: unknown): value is UserLanguage =>
  typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);

/**
 * Set (or, with null, clear) the caller's own language. An unknown language is refused as a value and
 * nothing is written; the change is recorded as `user_updated` naming the field, like the profile's.
 */
export async function setOwnLanguage(
  ctx: AuthContext,
  user: UserRecord,
  language: string | null,
  source: EventSource,
): Promise<{ user: UserRecord } | { refused: "UNSUPPORTED_LANGUAGE" }> {
  if (language !== null && !isUserLanguage(language)) return { refused: "UNSUPPORTED_LANGUAGE" };
  if ((user.language ?? null) === language) return { user };
  return { user: await saveOwnChanges(ctx, user, { language }, source) };
}
