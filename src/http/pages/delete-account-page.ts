import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthContext } from "../../context.ts";
import { deleteUserWithToken } from "../../services/account-deletion.ts";
import { clearSessionCookies } from "../cookies.ts";
import { requestSource } from "../security-log.ts";
import { resolveSession } from "../session.ts";
import { guardForm } from "./guard.ts";
import { linkFailure, linkFields, linkReturnAddress } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// The landing of a delete-account link opened in a browser: GET {api}/delete-user/callback sends it here.
// The page asks the signed-in owner to confirm (or to sign in first, coming back here); only its button's
// post deletes, through the same service as the API route (deleteUserWithToken).

async function confirmationPage(
  c: Context,
  ctx: AuthContext,
  link: { token: string; callbackURL?: string; redirect?: string },
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const session = await resolveSession(c, ctx, { disableRefresh: true });
  const state = commonState(c, ctx, { redirect: link.redirect });
  const callbackURL = state.redirect ? null : linkReturnAddress(ctx, null, link.callbackURL);
  const here = pageURL(ctx, "/delete-account", state.redirect, {
    token: link.token,
    ...(callbackURL ? { callbackURL } : {}),
  });
  const signIn = session ? null : pageURL(ctx, "/sign-in", here);
  const email = session?.user.email ?? null;
  const page = { page: "delete-account" as const, token: link.token, callbackURL, email, signIn, done: false };
  return renderPage(c, ctx, { ...state, ...page }, status);
}

export function showDeleteAccount(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.deleteUser.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  if (c.req.query("done") === "1") {
    const done = {
      page: "delete-account",
      token: "",
      callbackURL: null,
      email: null,
      signIn: null,
      done: true,
    } as const;
    return renderPage(c, ctx, { ...commonState(c, ctx), ...done });
  }
  const link = linkFields(c.req.query());
  if (!link.token) return linkFailure(c, ctx, "INVALID_TOKEN");
  return confirmationPage(c, ctx, link);
}

export async function postDeleteAccount(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.deleteUser.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  const link = linkFields(guarded.fields);
  const { redirect } = commonState(c, ctx, { redirect: guarded.fields.redirect });
  const session = await resolveSession(c, ctx);
  // Signed out meanwhile: the page again, asking to sign in first (the API answers 404 for this).
  if (!session) return confirmationPage(c, ctx, { ...link, redirect: guarded.fields.redirect }, 401);
  try {
    await deleteUserWithToken(ctx, session.user, link.token, requestSource(c, ctx, "user", session.user.id));
  } catch (error) {
    const refusal = pageRefusal(error);
    return linkFailure(c, ctx, refusal.code, refusal.status);
  }
  clearSessionCookies(c, ctx);
  return seeOther(
    c,
    linkReturnAddress(ctx, redirect, link.callbackURL) ?? pageURL(ctx, "/delete-account", null, { done: "1" }),
  );
}
