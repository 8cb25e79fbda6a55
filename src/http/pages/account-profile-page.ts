import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { accountSession, accountState } from "./account-frame.ts";
import { renderPage } from "./respond.ts";

// The account page itself (/account): the signed-in user's profile.

export async function showAccountProfile(c: Context, ctx: AuthContext): Promise<Response> {
  const signedIn = await accountSession(c, ctx, "profile");
  if ("answer" in signedIn) return signedIn.answer;
  return renderPage(c, ctx, { ...accountState(c, ctx, signedIn.session), page: "account-profile" });
}
