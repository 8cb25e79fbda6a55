import type { Context } from "hono";
import { type FormProblem, problemFor } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { signUpWithPassword } from "../../services/sign-up.ts";
import { setSessionCookies } from "../cookies.ts";
import { signInRequestOf } from "../sign-in.ts";
import { rememberCodeAddress } from "./code-address.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState, passwordRules } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// Sign up, as a page: the same service as POST /sign-up/email (signUpWithPassword), its refusals drawn
// beside the field they concern.

function signUpState(c: Context, ctx: AuthContext, fields: FormFields, problem: FormProblem | null) {
  const { username } = ctx.config;
  return {
    ...commonState(c, ctx, { redirect: fields.redirect, problem }),
    page: "sign-up" as const,
    username: username.enabled,
    passwordRules: passwordRules(ctx),
    values: { name: fields.name ?? "", email: fields.email ?? "", username: fields.username ?? "" },
  };
}

export function showSignUp(c: Context, ctx: AuthContext): Promise<Response> {
  return renderPage(c, ctx, signUpState(c, ctx, {}, null));
}

export async function postSignUp(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, signUpState(c, ctx, {}, { code: guarded.problem }), 403);
  const { fields } = guarded;
  const { redirect, home } = commonState(c, ctx, { redirect: fields.redirect });
  const request = signInRequestOf(c, ctx, true);
  try {
    const name = fields.name ?? "";
    const input = {
      email: fields.email ?? "",
      password: fields.password ?? "",
      name,
      ...(ctx.config.username.enabled && fields.username ? { username: fields.username } : {}),
      callbackURL: redirect ?? home,
      fields: {},
    };
    const { user, session } = await signUpWithPassword(ctx, input, request);
    if (!session) {
      // With email codes on, the verification mail carries a code too: its page knows the address.
      if (ctx.config.emailOTP.enabled) rememberCodeAddress(c, ctx, user.email);
      return seeOther(c, pageURL(ctx, "/check-mail", redirect, { kind: "verify" }));
    }
    setSessionCookies(c, ctx, { session, user }, { dontRemember: false });
    return seeOther(c, redirect ?? home);
  } catch (error) {
    const refusal = pageRefusal(error);
    return renderPage(c, ctx, signUpState(c, ctx, fields, problemFor(refusal.code)), refusal.status);
  }
}
