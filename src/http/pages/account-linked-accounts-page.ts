import type { Context } from "hono";
import type { FormProblem } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { listAccounts, unlinkAccount } from "../../services/accounts.ts";
import { requireProvider } from "../../services/oauth/providers.ts";
import { startAuthorization } from "../oauth-state-cookie.ts";
import type { ResolvedSession } from "../session.ts";
import { type DrawSection, showAccountSection, takeAccountForm } from "./account-forms.ts";
import { accountState } from "./account-frame.ts";
import { pageURL, renderPage, seeOther } from "./respond.ts";
import { socialButtons } from "./social-form-targets.ts";

// The account page's linked accounts ({pages}/linked-accounts): the accounts list-accounts shows, a button
// per configured provider not linked yet, and Unlink for each provider's account. Link starts the flow of
// POST /link-social (the state bound to this browser and to the user) and answers 303 to the provider,
// which sends the browser back here, with ?error=<code> when linking failed. Unlink runs the service of
// POST /unlink-account, which keeps the last way in (FAILED_TO_UNLINK_LAST_ACCOUNT) and wants a fresh session.

const SECTION = "linked-accounts";

/** A code the link's failure came back with (?error=), shown in words; anything else is ignored. */
function callbackProblem(c: Context): FormProblem | null {
  const code = c.req.query("error");
  return code && /^[A-Za-z_]{1,64}$/.test(code) ? { code } : null;
}

const drawLinkedAccounts =
  (c: Context, ctx: AuthContext): DrawSection =>
  async (session, problem = null, status = 200) => {
    const accounts = await listAccounts(ctx, session.user.id);
    const providers = socialButtons(ctx);
    const nameOf = (id: string) => providers.find((provider) => provider.id === id)?.name ?? id;
    const linked = accounts.map((account) => ({
      providerId: account.provider,
      accountId: account.accountId,
      name: nameOf(account.provider),
      createdAt: account.createdAt,
    }));
    const linkable = providers.filter((provider) => !accounts.some((account) => account.provider === provider.id));
    const page = "account-linked-accounts" as const;
    return renderPage(c, ctx, { ...accountState(c, ctx, session, problem), page, linked, linkable }, status);
  };

export const showLinkedAccounts = (c: Context, ctx: AuthContext) =>
  showAccountSection(c, ctx, SECTION, (session) => drawLinkedAccounts(c, ctx)(session, callbackProblem(c)));

/** Link: off to the provider, back to this section (with a notice, or the failure's code). */
export const postLinkAccount = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawLinkedAccounts(c, ctx), async (session: ResolvedSession, fields) => {
    const provider = await requireProvider(ctx, fields.provider ?? "");
    const here = `${ctx.baseURL}${pageURL(ctx, `/${SECTION}`, null)}`;
    const { user } = session;
    const url = await startAuthorization(
      c,
      ctx,
      provider,
      { callbackURL: `${here}?notice=notice.account.accountLinked`, errorCallbackURL: here },
      { userId: user.id, email: user.email },
    );
    return seeOther(c, url);
  });

export const postUnlinkAccount = (c: Context, ctx: AuthContext) =>
  takeAccountForm(c, ctx, SECTION, drawLinkedAccounts(c, ctx), async (session, fields) => {
    await unlinkAccount(ctx, session.session, fields.providerId ?? "", fields.accountId || undefined);
    return "notice.account.accountUnlinked";
  });
