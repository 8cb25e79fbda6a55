import type { Context } from "hono";
import { pickLocale } from "../../../ui/shared/messages/index.ts";
import { CONSOLE_PATH, type FormProblem, type ImpersonationBanner, type PageState } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { chosenLanguageOf } from "../chosen-language.ts";
import { impersonationOf } from "../security-log.ts";
import { formToken } from "./csrf.ts";
import { trustedReturnAddress } from "./return-address.ts";

// The part of every page's state that comes from the request and the configuration: language (the
// signed-in user's choice, else Accept-Language, else AUTH_DEFAULT_LANGUAGE), branding, paths, the form
// token and the return address.

/** Where a finished flow goes without a return address: AUTH_APP_URL, else the account page. */
export const homeOf = (ctx: AuthContext): string =>
  ctx.config.appURL ? ctx.appURL : `${ctx.baseURL}${ctx.config.pages.basePath}`;

export type CommonState = Pick<
  PageState,
  "locale" | "branding" | "paths" | "csrf" | "redirect" | "home" | "problem" | "impersonating"
>;

export function commonState(
  c: Context,
  ctx: AuthContext,
  options: { redirect?: string | null; problem?: FormProblem | null } = {},
): CommonState {
  const pages = ctx.config.pages;
  const redirect = trustedReturnAddress(ctx, options.redirect ?? c.req.query("redirect"));
  return {
    // The signed-in user's own choice first (noted when the page resolved the session), then the browser's.
    locale: pickLocale(c.req.header("accept-language"), pages.defaultLanguage, chosenLanguageOf(c)),
    branding: { appName: ctx.config.appName, logoURL: pages.logoURL ?? null, colorScheme: pages.colorScheme },
    paths: { pages: pages.basePath, api: ctx.config.basePath },
    csrf: formToken(c, ctx),
    redirect,
    home: homeOf(ctx),
    problem: options.problem ?? null,
    impersonating: impersonationBanner(c, ctx),
  };
}

/** The banner of an impersonation session (src/http/session.ts notes it when it resolves the session). */
function impersonationBanner(c: Context, ctx: AuthContext): ImpersonationBanner | null {
  const note = impersonationOf(c);
  if (!note) return null;
  const stopAction = ctx.config.console.enabled ? `${CONSOLE_PATH}/stop-impersonating` : null;
  return { name: note.userName, email: note.userEmail, endsAt: new Date(note.expiresAt).toISOString(), stopAction };
}

/** The password's length rule, shown on the forms that set one before they are sent. */
export const passwordRules = (ctx: AuthContext) => ({
  min: ctx.config.emailAndPassword.minPasswordLength,
  max: ctx.config.emailAndPassword.maxPasswordLength,
});
