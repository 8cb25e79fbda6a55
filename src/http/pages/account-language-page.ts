import { setOwnLanguage } from "../../services/user-language.ts";
import { backToSection } from "./account-frame.ts";
import { profilePage } from "./account-profile-page.ts";
import { sectionForm, userSource } from "./account-section-forms.ts";

// The language form of the account page's profile (POST /account/language): the user's own language for
// the pages and mails, or "" for the browser's. Guarded like its siblings (form token, Origin); an unknown
// language is refused beside the field and nothing is written. Not part of update-user: the language is
// authd's own and never on Better Auth's wire.

export const postAccountLanguage = sectionForm("profile", profilePage, async (c, ctx, session, fields) => {
  // The select's values exactly: "" for the browser's, else a language code (anything else is refused).
  const language = fields.language || null;
  const outcome = await setOwnLanguage(ctx, session.user, language, userSource(c, ctx, session));
  if ("refused" in outcome) return { code: outcome.refused, field: "language" };
  // The session cache (cookieCache) holds the wire user, which has no language: nothing to refresh there.
  return backToSection(c, ctx, "profile", "notice.account.languageSaved");
});
