import type { Context } from "hono";

// The language the signed-in user chose (the account page's profile), noted when the request's session is
// resolved (session.ts), so the pages put it ahead of the browser's Accept-Language (pages/page-state.ts)
// without a second read of the user.

declare module "hono" {
  interface ContextVariableMap {
    /** The signed-in user's chosen language, once the session was resolved; unset when they chose none. */
    chosenLanguage: string;
  }
}

/**
 * Note the language of the user whose session the request holds. An administrator impersonating a user is
 * not that user: the browser is the administrator's, and keeps its own Accept-Language.
 */
export function noteChosenLanguage(c: Context, language: string | null, impersonated: boolean): void {
  if (language && !impersonated) c.set("chosenLanguage", language);
}

/** The signed-in user's chosen language, or null (signed out, none chosen, session not resolved yet). */
export const chosenLanguageOf = (c: Context): string | null => c.get("chosenLanguage") ?? null;
