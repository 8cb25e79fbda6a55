import type { Context } from "hono";
import { en } from "../../../ui/shared/messages/en.ts";
import {
  ACCOUNT_SECTIONS,
  type AccountFrame,
  type AccountSection,
  accountSectionPath,
  type FormProblem,
} from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { isAuthError } from "../../errors.ts";
import { passkeysWorkOnPages } from "../../services/passkeys/relying-party.ts";
import { type ResolvedSession, resolveSession } from "../session.ts";
import { type CommonState, commonState } from "./page-state.ts";
import { pageURL, seeOther } from "./respond.ts";
import { socialButtons } from "./social-form-targets.ts";

// What every section of the account page shares on the server: the signed-in session (or the way through
// sign-in and back), the frame around the section, and the way through re-authentication when a sensitive
// change finds the sign-in too old (account.freshAge).

/** The sections this deployment offers: a feature that is off shows no section. */
export function offeredAccountSections(ctx: AuthContext): AccountSection[] {
  const config = ctx.config;
  const offered: Record<AccountSection, boolean> = {
    profile: true,
    password: config.emailAndPassword.enabled,
    "second-factor": config.twoFactor.enabled,
    passkeys: passkeysWorkOnPages(ctx),
    sessions: true,
    "linked-accounts": socialButtons(ctx).length > 0,
    "api-keys": config.apiKey.enabled,
    organizations: config.organization.enabled,
    activity: true,
    delete: config.deleteUser.enabled,
  };
  return ACCOUNT_SECTIONS.filter((section) => offered[section]);
}

/**
 * The browser's own session (its cookie: an API key or a bearer token is not a browser), or, when there is
 * none, the answer that sends it through sign-in and back to `section`.
 */
export async function accountSession(
  c: Context,
  ctx: AuthContext,
  section: AccountSection,
): Promise<{ session: ResolvedSession } | { answer: Response }> {
  const session = await resolveSession(c, ctx);
  if (session?.source === "cookie") return { session };
  const here = `${ctx.config.pages.basePath}${accountSectionPath(section)}`;
  return { answer: c.redirect(pageURL(ctx, "/sign-in", here), 302) };
}

const isAccountNotice = (value: string | undefined): value is string =>
  value?.startsWith("notice.account.") === true && value in en;

/** The common state and frame of a section, for the signed-in `session`; `?notice=` shows what was just done. */
export function accountState(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  problem: FormProblem | null = null,
): CommonState & { account: AccountFrame } {
  const { user } = session;
  const notice = c.req.query("notice");
  return {
    ...commonState(c, ctx, { problem }),
    account: {
      user: { name: user.name, email: user.email, image: user.image ?? null },
      sections: offeredAccountSections(ctx),
      notice: isAccountNotice(notice) ? notice : null,
    },
  };
}

/** After a section's form: back to the section with what was done (`notice`, a notice.account.* key). */
export function backToSection(c: Context, ctx: AuthContext, section: AccountSection, notice?: string): Response {
  return seeOther(c, pageURL(ctx, accountSectionPath(section), null, notice ? { notice } : {}));
}

/** The sign-in is older than account.freshAge: the change waits until the user proves who they are again. */
export const needsReauthentication = (error: unknown): boolean =>
  isAuthError(error) && error.key === "SESSION_NOT_FRESH";

/** Through re-authentication (password, passkey or second factor), then back to `section`. */
export function reauthenticate(c: Context, ctx: AuthContext, section: AccountSection): Response {
  const back = `${ctx.config.pages.basePath}${accountSectionPath(section)}`;
  return seeOther(c, pageURL(ctx, "/reauthenticate", back));
}
