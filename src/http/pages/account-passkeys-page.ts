import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { listPasskeyRows } from "../../services/passkeys/passkeys.ts";
import { iso } from "../../wire/common.ts";
import { accountSession, accountState, offeredAccountSections } from "./account-frame.ts";
import { commonState } from "./page-state.ts";
import { renderPage } from "./respond.ts";

// The account page's passkeys (/account/passkeys): the list is drawn here, with when each was added and
// last signed in; adding (a WebAuthn ceremony, a script API), renaming and removing go from the page's
// script through the API's /passkey routes, as an app's would.

export async function showAccountPasskeys(c: Context, ctx: AuthContext): Promise<Response> {
  if (!offeredAccountSections(ctx).includes("passkeys"))
    return renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: "NOT_FOUND" }, 404);
  const signedIn = await accountSession(c, ctx, "passkeys");
  if ("answer" in signedIn) return signedIn.answer;
  const rows = await listPasskeyRows(ctx, signedIn.session.user.id);
  const passkeys = rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: iso(row.createdAt),
    lastUsedAt: iso(row.lastUsedAt),
  }));
  return renderPage(c, ctx, { ...accountState(c, ctx, signedIn.session), page: "account-passkeys", passkeys });
}
