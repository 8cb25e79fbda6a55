import type { Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { rateLimitMiddleware } from "../middleware/rate-limit.ts";
import { pageHeaders } from "./headers.ts";

// authd's own pages under pages.basePath (default /account): GET draws a page, POST takes its form. Each
// form post is rate limited as the API route it stands for, so a page is no way around a limit.

type Handlers = typeof import("./handlers.ts").PAGE_HANDLERS;
type HandlerName = Exclude<keyof Handlers, "tooManyRequests">;

// The handlers are loaded with the first page asked for (handlers.ts), so each route names its own.
let handlers: Promise<Handlers> | undefined;
const loadHandlers = (): Promise<Handlers> => {
  handlers ??= import("./handlers.ts").then((module) => module.PAGE_HANDLERS);
  return handlers;
};

interface PageRoute {
  path: string;
  get?: HandlerName;
  post?: HandlerName;
  /** The API path whose rate-limit rule and counter a form post shares. */
  limitAs?: string;
}

const PAGE_ROUTES: readonly PageRoute[] = [
  { path: "/sign-in", get: "showSignIn", post: "postSignIn", limitAs: "/sign-in/email" },
  { path: "/sign-up", get: "showSignUp", post: "postSignUp", limitAs: "/sign-up/email" },
  { path: "/sign-out", post: "postSignOut", limitAs: "/sign-out" },
  { path: "/signed-out", get: "showSignedOut" },
  {
    path: "/forgot-password",
    get: "showForgotPassword",
    post: "postForgotPassword",
    limitAs: "/request-password-reset",
  },
  { path: "/check-mail", get: "showCheckMail" },
  { path: "/reset-password", get: "showResetPassword", post: "postResetPassword", limitAs: "/reset-password" },
  // The landings of mailed links whose GET would consume a token (mailed-links.ts): only the post does.
  { path: "/verify-email", get: "showVerifyEmail", post: "postVerifyEmail", limitAs: "/verify-email" },
  {
    path: "/delete-account",
    get: "showDeleteAccount",
    post: "postDeleteAccount",
    limitAs: "/delete-user/callback",
  },
  { path: "/error", get: "showError" },
  // An organization invitation (its mail links to /invitation/<id>), answered by its signed-in recipient.
  { path: "/invitation", get: "showInvitation" },
  { path: "/invitation/:id", get: "showInvitation" },
  { path: "/invitation/accept", post: "postAcceptInvitation", limitAs: "/organization/accept-invitation" },
  { path: "/invitation/reject", post: "postRejectInvitation", limitAs: "/organization/reject-invitation" },
  // The second factor: each form posts where it counts as its API route (per-path limits, as the API's).
  { path: "/two-factor", get: "showTwoFactor", post: "postTotp", limitAs: "/two-factor/verify-totp" },
  { path: "/two-factor/send-code", post: "postSendCode", limitAs: "/two-factor/send-otp" },
  { path: "/two-factor/mailed-code", post: "postMailedCode", limitAs: "/two-factor/verify-otp" },
  { path: "/two-factor/backup-code", post: "postBackupCode", limitAs: "/two-factor/verify-backup-code" },
  // Passwordless and social sign-in from the sign-in page (magic-link-pages.ts, email-code-pages.ts, social-page.ts).
  { path: "/magic-link", post: "postSendMagicLink", limitAs: "/sign-in/magic-link" },
  { path: "/magic-link/verify", get: "showMagicLink", post: "postMagicLink", limitAs: "/magic-link/verify" },
  { path: "/email-code/send", post: "postSendEmailCode", limitAs: "/email-otp/send-verification-otp" },
  { path: "/email-code", get: "showEmailCode", post: "postEmailCode", limitAs: "/sign-in/email-otp" },
  { path: "/social", post: "postSocial", limitAs: "/sign-in/social" },
  // The account page's linked accounts, API keys, organizations and security activity.
  { path: "/linked-accounts", get: "showLinkedAccounts" },
  { path: "/linked-accounts/link", post: "postLinkAccount", limitAs: "/link-social" },
  { path: "/linked-accounts/unlink", post: "postUnlinkAccount", limitAs: "/unlink-account" },
  { path: "/api-keys", get: "showApiKeys" },
  { path: "/api-keys/create", post: "postCreateApiKey", limitAs: "/api-key/create" },
  { path: "/api-keys/revoke", post: "postRevokeApiKey", limitAs: "/api-key/delete" },
  { path: "/organizations", get: "showOrganizations" },
  { path: "/organizations/switch", post: "postSwitchOrganization", limitAs: "/organization/set-active" },
  { path: "/organizations/leave", post: "postLeaveOrganization", limitAs: "/organization/leave" },
  { path: "/organizations/accept", post: "postAcceptOwnInvitation", limitAs: "/organization/accept-invitation" },
  { path: "/organizations/decline", post: "postDeclineOwnInvitation", limitAs: "/organization/reject-invitation" },
  { path: "/activity", get: "showActivity" },
  // The account page's second factor (account-second-factor-page.ts) and passkeys (account-passkeys-page.ts).
  { path: "/second-factor", get: "showAccountSecondFactor" },
  { path: "/second-factor/enable", post: "postEnableTwoFactor", limitAs: "/two-factor/enable" },
  { path: "/second-factor/confirm", post: "postConfirmTwoFactor", limitAs: "/two-factor/verify-totp" },
  { path: "/second-factor/backup-codes", post: "postNewBackupCodes", limitAs: "/two-factor/generate-backup-codes" },
  { path: "/second-factor/disable", post: "postDisableTwoFactor", limitAs: "/two-factor/disable" },
  { path: "/second-factor/forget-browser", post: "postForgetBrowser" },
  { path: "/passkeys", get: "showAccountPasskeys" },
  // The account page's sections (account-core): profile and email, password, sessions, delete; each form
  // posts where it counts as the API route whose service it runs.
  { path: "/profile", post: "postAccountProfile", limitAs: "/update-user" },
  { path: "/email", post: "postAccountEmail", limitAs: "/change-email" },
  { path: "/email/verify", post: "postAccountVerification", limitAs: "/send-verification-email" },
  // The profile's language (authd's own, not update-user's wire), limited as the user's other own changes.
  { path: "/language", post: "postAccountLanguage", limitAs: "/update-user" },
  { path: "/password", get: "showAccountPassword", post: "postAccountPassword", limitAs: "/change-password" },
  { path: "/password/set", post: "postAccountFirstPassword", limitAs: "/set-password" },
  { path: "/sessions", get: "showAccountSessions" },
  { path: "/sessions/revoke", post: "postRevokeSession", limitAs: "/revoke-session" },
  { path: "/sessions/revoke-others", post: "postRevokeOtherSessions", limitAs: "/revoke-other-sessions" },
  { path: "/sessions/revoke-all", post: "postRevokeAllSessions", limitAs: "/revoke-sessions" },
  { path: "/delete", get: "showAccountDelete", post: "postAccountDelete", limitAs: "/delete-user" },
  // Re-authentication: each way is rate limited as the sign-in it stands for.
  { path: "/reauthenticate", get: "showReauthenticate", post: "postReauthenticate", limitAs: "/sign-in/email" },
  { path: "/reauthenticate/second-factor", post: "postReauthenticateSecondFactor", limitAs: "/sign-in/email" },
  {
    path: "/reauthenticate/passkey",
    post: "postReauthenticatePasskey",
    limitAs: "/passkey/verify-authentication",
  },
  { path: "/reauthenticate/sign-in-again", post: "postSignInAgain", limitAs: "/sign-out" },
  // The code a verification mail carries beside its link (email codes on), typed instead of opening it.
  {
    path: "/verify-email/code",
    get: "showVerifyEmailCode",
    post: "postVerifyEmailCode",
    limitAs: "/email-otp/verify-email",
  },
  // The OpenID Provider's consent (consent-page.ts); answered only while AUTH_OIDC_PROVIDER is on.
  { path: "/consent", get: "showConsent", post: "postConsent", limitAs: "/oauth2/authorize" },
];

const FORM_LIMIT_BYTES = 64 * 1024;

export function mountPages(app: Hono, ctx: AuthContext): void {
  const base = ctx.config.pages.basePath;
  app.use(`${base}/*`, pageHeaders(ctx));
  app.use(base, pageHeaders(ctx));
  const limitBody = bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: () => {
      throw new AuthError("PAYLOAD_TOO_LARGE");
    },
  });
  const limitedPaths = new Map(
    PAGE_ROUTES.filter((r) => r.limitAs).map((r) => [`${base}${r.path}`, r.limitAs as string]),
  );
  const counted = rateLimitMiddleware(ctx, (c) =>
    c.req.method === "POST" ? (limitedPaths.get(c.req.path) ?? null) : null,
  );
  // Over the limit, a person sees a page saying so (with Retry-After), not the API's JSON.
  const rateLimit: MiddlewareHandler = async (c, next) => {
    try {
      await counted(c, next);
    } catch (error) {
      if (!(error instanceof AuthError) || error.status !== 429) throw error;
      c.res = await (await loadHandlers()).tooManyRequests(c, ctx, error);
    }
  };
  app.get(`${base}/assets/:name`, async (c) => (await loadHandlers()).serveAsset(c, ctx));
  app.get(base, async (c) => (await loadHandlers()).showAccountProfile(c, ctx));
  for (const route of PAGE_ROUTES) {
    const path = `${base}${route.path}`;
    const { get, post } = route;
    if (get) app.get(path, async (c) => (await loadHandlers())[get](c, ctx));
    if (post) app.post(path, limitBody, rateLimit, async (c) => (await loadHandlers())[post](c, ctx));
  }
  // The development outbox (docs/mail.md): mounted only while mails are kept for it (no SMTP, and loopback or
  // AUTH_DEV_OUTBOX=on); otherwise its paths are unknown ones, 404.
  if (ctx.outbox) {
    app.get(`${base}/dev/outbox`, async (c) => (await loadHandlers()).showDevOutbox(c, ctx));
    app.get(`${base}/dev/outbox/:id`, async (c) => (await loadHandlers()).showDevOutboxMail(c, ctx));
  }
}
