import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import type { AuthError } from "../../errors.ts";
import { showActivity } from "./account-activity-page.ts";
import { postCreateApiKey, postRevokeApiKey, showApiKeys } from "./account-api-keys-page.ts";
import { postAccountDelete, showAccountDelete } from "./account-delete-page.ts";
import { postAccountLanguage } from "./account-language-page.ts";
import { postLinkAccount, postUnlinkAccount, showLinkedAccounts } from "./account-linked-accounts-page.ts";
import {
  postAcceptOwnInvitation,
  postDeclineOwnInvitation,
  postLeaveOrganization,
  postSwitchOrganization,
  showOrganizations,
} from "./account-organizations-page.ts";
import { showAccountPasskeys } from "./account-passkeys-page.ts";
import { postAccountFirstPassword, postAccountPassword, showAccountPassword } from "./account-password-page.ts";
import {
  postAccountEmail,
  postAccountProfile,
  postAccountVerification,
  showAccountProfile,
} from "./account-profile-page.ts";
import {
  postReauthenticate,
  postReauthenticateSecondFactor,
  postSignInAgain,
  showReauthenticate,
} from "./account-reauthenticate-page.ts";
import { postReauthenticatePasskey } from "./account-reauthenticate-passkey.ts";
import {
  postConfirmTwoFactor,
  postDisableTwoFactor,
  postEnableTwoFactor,
  postForgetBrowser,
  postNewBackupCodes,
  showAccountSecondFactor,
} from "./account-second-factor-page.ts";
import {
  postRevokeAllSessions,
  postRevokeOtherSessions,
  postRevokeSession,
  showAccountSessions,
} from "./account-sessions-page.ts";
import { serveAsset } from "./assets.ts";
import { postConsent, showConsent } from "./consent-page.ts";
import { postDeleteAccount, showDeleteAccount } from "./delete-account-page.ts";
import { showDevOutbox, showDevOutboxMail } from "./dev-outbox-page.ts";
import { postEmailCode, postSendEmailCode, showEmailCode } from "./email-code-pages.ts";
import { postAcceptInvitation, postRejectInvitation, showInvitation } from "./invitation-page.ts";
import { postMagicLink, postSendMagicLink, showMagicLink } from "./magic-link-pages.ts";
import { commonState } from "./page-state.ts";
import {
  postForgotPassword,
  postResetPassword,
  showCheckMail,
  showForgotPassword,
  showResetPassword,
} from "./password-pages.ts";
import { renderPage } from "./respond.ts";
import { postSignIn, postSignOut, showError, showSignedOut, showSignIn } from "./sign-in-pages.ts";
import { postSignUp, showSignUp } from "./sign-up-page.ts";
import { postSocial } from "./social-page.ts";
import { postBackupCode, postMailedCode, postSendCode, postTotp, showTwoFactor } from "./two-factor-page.ts";
import { postVerifyEmailCode, showVerifyEmailCode } from "./verify-email-code-page.ts";
import { postVerifyEmail, showVerifyEmail } from "./verify-email-page.ts";

// Every page route's handler, in one module that src/http/pages/mount.ts loads with the first page asked
// for: a daemon that serves only the API never loads the pages' code (nor React, nor the bundle).

/** A page answering 429 (the rate limit's refusal), with the API's headers and the standard Retry-After. */
async function tooManyRequests(c: Context, ctx: AuthContext, error: AuthError): Promise<Response> {
  const state = { ...commonState(c, ctx), page: "error" as const, code: error.code };
  const answer = await renderPage(c, ctx, state, 429);
  for (const [name, value] of Object.entries(error.headers ?? {})) answer.headers.set(name, value);
  // The API's X-Retry-After (Better Auth's name), and the standard header browsers and proxies read.
  const retryAfter = error.headers?.["X-Retry-After"];
  if (retryAfter) answer.headers.set("retry-after", retryAfter);
  return answer;
}

export const PAGE_HANDLERS = {
  serveAsset,
  postDeleteAccount,
  showDeleteAccount,
  postEmailCode,
  postSendEmailCode,
  showEmailCode,
  postAcceptInvitation,
  postRejectInvitation,
  showInvitation,
  postMagicLink,
  postSendMagicLink,
  showMagicLink,
  postForgotPassword,
  postResetPassword,
  showCheckMail,
  showResetPassword,
  postSignIn,
  postSignOut,
  showError,
  showSignedOut,
  showSignIn,
  postSignUp,
  showSignUp,
  postSocial,
  postBackupCode,
  postMailedCode,
  postSendCode,
  postTotp,
  showTwoFactor,
  postVerifyEmail,
  showVerifyEmail,
  showForgotPassword: (c: Context, ctx: AuthContext) => showForgotPassword(c, ctx),
  tooManyRequests,
  showAccountProfile,
  // The account page's linked accounts, API keys, organizations and security activity.
  showLinkedAccounts,
  postLinkAccount,
  postUnlinkAccount,
  showApiKeys,
  postCreateApiKey,
  postRevokeApiKey,
  showOrganizations,
  postSwitchOrganization,
  postLeaveOrganization,
  postAcceptOwnInvitation,
  postDeclineOwnInvitation,
  showActivity,
  // The account page's second factor and passkeys
  showAccountSecondFactor,
  postEnableTwoFactor,
  postConfirmTwoFactor,
  postNewBackupCodes,
  postDisableTwoFactor,
  postForgetBrowser,
  showAccountPasskeys,
  // account-core: the profile, password, sessions and delete sections, and re-authentication.
  postAccountProfile,
  postAccountEmail,
  postAccountVerification,
  postAccountLanguage,
  showAccountPassword,
  postAccountPassword,
  postAccountFirstPassword,
  showAccountSessions,
  postRevokeSession,
  postRevokeOtherSessions,
  postRevokeAllSessions,
  showAccountDelete,
  postAccountDelete,
  showReauthenticate,
  postReauthenticate,
  postReauthenticateSecondFactor,
  postReauthenticatePasskey,
  postSignInAgain,
  // The development outbox, and the page that takes a mailed verification code
  showDevOutbox,
  showDevOutboxMail,
  showVerifyEmailCode,
  postVerifyEmailCode,
  showConsent,
  postConsent,
};
