import { describe, expect, it } from "vitest";
import { errorMessageKey, LOCALES, translator } from "../../ui/shared/messages/index.ts";

// Issue 28: the error page explains, in words, each `?error=` code authd itself redirects a browser with.
// A code without words would show the generic "Something went wrong" and hide what happened.

const REDIRECTED_CODES = {
  // The social callback (src/services/oauth/callback.ts, social-users.ts; routes/social-callback.ts).
  social: [
    "invalid_callback_request",
    "state_not_found",
    "state_mismatch",
    "please_restart_the_process",
    "no_code",
    "invalid_code",
    "oauth_provider_not_found",
    "unable_to_get_user_info",
    "no_callback_url",
    "email_not_found",
    "banned",
    "unable_to_create_session",
    "account_not_linked",
    "signup_disabled",
    "unable_to_create_user",
    "unable_to_link_account",
    "account_already_linked_to_different_user",
    "email_mismatch",
    "link_failed",
  ],
  // A provider's own refusals passed on (RFC 6749 §4.1.2.1).
  provider: ["access_denied", "invalid_request", "invalid_scope", "server_error", "temporarily_unavailable"],
  // Verification and email-change links (services/email-verification.ts, verification-link.ts).
  verification: ["token_expired", "invalid_token", "user_not_found", "unauthorized", "COULDNT_UPDATE_YOUR_EMAIL"],
  // Magic links (services/magic-link) and reset links (routes/password.ts).
  links: ["INVALID_TOKEN", "EXPIRED_TOKEN", "new_user_signup_disabled"],
} as const;

describe("the error page's words", () => {
  const codes = Object.values(REDIRECTED_CODES).flat();

  it("has its own message for every code authd redirects with", () => {
    const missing = codes.filter((code) => errorMessageKey(code) === "error.generic");
    expect(missing).toEqual([]);
  });

  it("says each in every language, never as the code itself", () => {
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const code of codes) {
        const words = t(errorMessageKey(code));
        expect(words, `${locale} ${code}`).not.toBe(t("error.generic"));
        expect(words, `${locale} ${code}`).not.toContain(code);
      }
    }
  });
});
