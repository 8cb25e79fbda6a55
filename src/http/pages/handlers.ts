import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import type { AuthError } from "../../errors.ts";
import { showAccountProfile } from "./account-profile-page.ts";
import { serveAsset } from "./assets.ts";
import { postConsent, showConsent } from "./consent-page.ts";
import { postDeleteAccount, showDeleteAccount } from "./delete-account-page.ts";
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
import { postVerifyEmail, showVerifyEmail } from "./verify-email-page.ts";

// Every page route's handler, in one module that src/http/pages/mount.ts loads with the first page asked
// for: a daemon that serves only the API never loads the pages' code (nor React, nor the bundle).

/** A page answering 429 (the rate limit's refusal), with the API's headers and the standard Retry-After. */
async function tooManyRequests(c: Context, ctx: AuthContext, error: AuthError): Promise<Response> {
  const state = { ...commonState(c, ctx), page: "error" as const, code: "TOO_MANY_REQUESTS" };
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
  showConsent,
  postConsent,
};
