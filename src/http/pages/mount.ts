import type { Context, Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { rateLimitMiddleware } from "../middleware/rate-limit.ts";
import { serveAsset } from "./assets.ts";
import { postDeleteAccount, showDeleteAccount } from "./delete-account-page.ts";
import { postEmailCode, postSendEmailCode, showEmailCode } from "./email-code-pages.ts";
import { pageHeaders } from "./headers.ts";
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

// authd's own pages under pages.basePath (default /account): GET draws a page, POST takes its form. Each
// form post is rate limited as the API route it stands for, so a page is no way around a limit.

type Handler = (c: Context, ctx: AuthContext) => Promise<Response>;

interface PageRoute {
  path: string;
  get?: Handler;
  post?: Handler;
  /** The API path whose rate-limit rule and counter a form post shares. */
  limitAs?: string;
}

const PAGE_ROUTES: readonly PageRoute[] = [
  { path: "/sign-in", get: showSignIn, post: postSignIn, limitAs: "/sign-in/email" },
  { path: "/sign-up", get: showSignUp, post: postSignUp, limitAs: "/sign-up/email" },
  { path: "/sign-out", post: postSignOut, limitAs: "/sign-out" },
  { path: "/signed-out", get: showSignedOut },
  {
    path: "/forgot-password",
    get: (c, ctx) => showForgotPassword(c, ctx),
    post: postForgotPassword,
    limitAs: "/request-password-reset",
  },
  { path: "/check-mail", get: showCheckMail },
  { path: "/reset-password", get: showResetPassword, post: postResetPassword, limitAs: "/reset-password" },
  // The landings of mailed links whose GET would consume a token (mailed-links.ts): only the post does.
  { path: "/verify-email", get: showVerifyEmail, post: postVerifyEmail, limitAs: "/verify-email" },
  {
    path: "/delete-account",
    get: showDeleteAccount,
    post: postDeleteAccount,
    limitAs: "/delete-user/callback",
  },
  { path: "/error", get: showError },
  // An organization invitation (its mail links to /invitation/<id>), answered by its signed-in recipient.
  { path: "/invitation", get: showInvitation },
  { path: "/invitation/:id", get: showInvitation },
  { path: "/invitation/accept", post: postAcceptInvitation, limitAs: "/organization/accept-invitation" },
  { path: "/invitation/reject", post: postRejectInvitation, limitAs: "/organization/reject-invitation" },
  // The second factor: each form posts where it counts as its API route (per-path limits, as the API's).
  { path: "/two-factor", get: showTwoFactor, post: postTotp, limitAs: "/two-factor/verify-totp" },
  { path: "/two-factor/send-code", post: postSendCode, limitAs: "/two-factor/send-otp" },
  { path: "/two-factor/mailed-code", post: postMailedCode, limitAs: "/two-factor/verify-otp" },
  { path: "/two-factor/backup-code", post: postBackupCode, limitAs: "/two-factor/verify-backup-code" },
  // Passwordless and social sign-in from the sign-in page (magic-link-pages.ts, email-code-pages.ts, social-page.ts).
  { path: "/magic-link", post: postSendMagicLink, limitAs: "/sign-in/magic-link" },
  { path: "/magic-link/verify", get: showMagicLink, post: postMagicLink, limitAs: "/magic-link/verify" },
  { path: "/email-code/send", post: postSendEmailCode, limitAs: "/email-otp/send-verification-otp" },
  { path: "/email-code", get: showEmailCode, post: postEmailCode, limitAs: "/sign-in/email-otp" },
  { path: "/social", post: postSocial, limitAs: "/sign-in/social" },
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
      const state = { ...commonState(c, ctx), page: "error" as const, code: "TOO_MANY_REQUESTS" };
      const answer = await renderPage(c, ctx, state, 429);
      for (const [name, value] of Object.entries(error.headers ?? {})) answer.headers.set(name, value);
      // The API's X-Retry-After (Better Auth's name), and the standard header browsers and proxies read.
      const retryAfter = error.headers?.["X-Retry-After"];
      if (retryAfter) answer.headers.set("retry-after", retryAfter);
      c.res = answer;
    }
  };
  app.get(`${base}/assets/:name`, (c) => serveAsset(c, ctx));
  app.get(base, (c) => c.redirect(`${base}/sign-in`, 302));
  for (const route of PAGE_ROUTES) {
    const path = `${base}${route.path}`;
    if (route.get) app.get(path, (c) => (route.get as Handler)(c, ctx));
    if (route.post) {
      const post = route.post;
      app.post(path, limitBody, rateLimit, (c) => post(c, ctx));
    }
  }
}
