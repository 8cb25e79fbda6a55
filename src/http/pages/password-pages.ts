import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { requestPasswordReset, resetPassword } from "../../services/password-reset.ts";
import { requestSource } from "../security-log.ts";
import { guardForm } from "./guard.ts";
import { commonState, passwordRules } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// Forgot password and reset password, as pages: the same services as POST /request-password-reset and
// /reset-password. The mailed link goes through GET {api}/reset-password/:token (which checks the token and
// consumes nothing) to the reset page, so a mail scanner opening it changes nothing.

export function showForgotPassword(c: Context, ctx: AuthContext, email = "", problem: FormProblem | null = null) {
  return renderPage(c, ctx, { ...commonState(c, ctx, { problem }), page: "forgot-password", email });
}

export async function postForgotPassword(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok)
    return renderPage(
      c,
      ctx,
      { ...commonState(c, ctx, { problem: { code: guarded.problem } }), page: "forgot-password", email: "" },
      403,
    );
  const { fields } = guarded;
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  try {
    const email = requireValidEmail(fields.email ?? "");
    const landing = new URL(pageURL(ctx, "/reset-password", redirect), ctx.baseURL).href;
    requestPasswordReset(ctx, email, landing);
  } catch (error) {
    const { code, status } = pageRefusal(error);
    const problem = code === "INVALID_EMAIL" ? { code, field: "email" } : { code };
    const state = { ...commonState(c, ctx, { redirect: fields.redirect, problem }), page: "forgot-password" as const };
    return renderPage(c, ctx, { ...state, email: fields.email ?? "" }, status);
  }
  return seeOther(c, pageURL(ctx, "/check-mail", redirect, { kind: "reset" }));
}

export function showCheckMail(c: Context, ctx: AuthContext): Promise<Response> {
  const asked = c.req.query("kind");
  const kind = asked === "reset" || asked === "magic-link" ? asked : "verify";
  // With email codes on, a verification or sign-in link's mail carries a code too: link to its page.
  const codeEntry = kind !== "reset" && ctx.config.emailOTP.enabled;
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "check-mail", kind, codeEntry });
}

export function showResetPassword(c: Context, ctx: AuthContext): Promise<Response> {
  const token = c.req.query("token") ?? "";
  const failed = c.req.query("error");
  if (failed || !token)
    return renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: failed ?? "INVALID_TOKEN" }, 400);
  return renderPage(c, ctx, {
    ...commonState(c, ctx),
    page: "reset-password",
    token,
    passwordRules: passwordRules(ctx),
  });
}

export async function postResetPassword(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  const token = guarded.ok ? (guarded.fields.token ?? "") : "";
  const again = (problem: FormProblem, status: ContentfulStatusCode, redirect?: string) =>
    renderPage(
      c,
      ctx,
      {
        ...commonState(c, ctx, { redirect, problem }),
        page: "reset-password",
        token,
        passwordRules: passwordRules(ctx),
      },
      status,
    );
  if (!guarded.ok) return again({ code: guarded.problem }, 403);
  const { fields } = guarded;
  try {
    await resetPassword(ctx, token, fields.password ?? "", requestSource(c, ctx));
  } catch (error) {
    const { code, status } = pageRefusal(error);
    const field = code.startsWith("PASSWORD_") ? { field: "password" } : {};
    return again({ code, ...field }, status, fields.redirect);
  }
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  return seeOther(c, pageURL(ctx, "/sign-in", redirect, { notice: "password-reset" }));
}
