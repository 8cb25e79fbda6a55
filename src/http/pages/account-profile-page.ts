import type { Context } from "hono";
import { EMAIL_FIELDS } from "../../../ui/web/account.ts";
import { type FormProblem, isProfileImageURL } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { requestEmailChange } from "../../services/email-change.ts";
import { resendOwnVerificationEmail } from "../../services/email-verification.ts";
import { assertRecentSignIn } from "../../services/sessions/sessions.ts";
import { type ProfileInput, updateProfile } from "../../services/user-profile.ts";
import { setSessionDataCookie } from "../cookies.ts";
import type { ResolvedSession } from "../session.ts";
import { accountState, backToSection } from "./account-frame.ts";
import { type SectionPage, sectionForm, sectionPage, userSource } from "./account-section-forms.ts";
import type { FormFields } from "./guard.ts";

// The account page itself (/account): the profile (name, image URL, username when usernames are on,
// through update-user's service) and the email address (its state, a new verification link, a change
// through change-email's confirmation flow, which needs a fresh sign-in).

/** The profile section's state (its forms: the profile, the email address, the language). */
export const profilePage: SectionPage = async (c, ctx, session, problem) => {
  const { user } = session;
  const profile = {
    name: user.name,
    image: user.image ?? null,
    username: ctx.config.username.enabled ? (user.displayUsername ?? user.username ?? "") : null,
    email: user.email,
    emailVerified: Boolean(user.emailVerified),
    changeEmail: ctx.config.changeEmail.enabled,
    language: user.language ?? null,
  };
  return { ...accountState(c, ctx, session, problem), page: "account-profile", profile };
};

export const showAccountProfile = sectionPage("profile", profilePage);

/** Where the mailed links (verification, email change) end once followed: the account page. */
const accountPageURL = (ctx: AuthContext) => `${ctx.baseURL}${ctx.config.pages.basePath}`;

/** The profile form's changes: an empty image removes it; a username (while they are on) when one is typed. */
function profileInput(ctx: AuthContext, fields: FormFields): { input: ProfileInput } | { problem: FormProblem } {
  const name = (fields.name ?? "").trim();
  if (!name) return { problem: { code: "REQUIRED", field: "name" } };
  const image = (fields.image ?? "").trim();
  if (image && !isProfileImageURL(image)) return { problem: { code: "INVALID_IMAGE_URL", field: "image" } };
  const input: ProfileInput = { name, image: image || null };
  const username = (fields.username ?? "").trim();
  if (ctx.config.username.enabled && username) input.username = username;
  return { input };
}

/** The cached copy of the session's user (session.cookieCache) follows the change. */
const refreshCachedUser = (c: Context, ctx: AuthContext, session: ResolvedSession, user: ResolvedSession["user"]) =>
  setSessionDataCookie(c, ctx, { session: session.session, user });

export const postAccountProfile = sectionForm("profile", profilePage, async (c, ctx, session, fields) => {
  const read = profileInput(ctx, fields);
  if ("problem" in read) return read.problem;
  const updated = await updateProfile(ctx, session.user, read.input, userSource(c, ctx, session));
  refreshCachedUser(c, ctx, session, updated);
  return backToSection(c, ctx, "profile", "notice.account.profileSaved");
});

export const postAccountVerification = sectionForm("profile", profilePage, async (c, ctx, session) => {
  const { user } = session;
  await resendOwnVerificationEmail(ctx, user, user.email, accountPageURL(ctx));
  return backToSection(c, ctx, "profile", "notice.account.verificationSent");
});

export const postAccountEmail = sectionForm(
  "profile",
  profilePage,
  async (c, ctx, session, fields) => {
    assertRecentSignIn(ctx, session.session);
    const newEmail = requireValidEmail((fields.newEmail ?? "").trim());
    const source = userSource(c, ctx, session);
    const outcome = await requestEmailChange(ctx, session.user, newEmail, accountPageURL(ctx), source);
    if ("confirmationSent" in outcome) return backToSection(c, ctx, "profile", "notice.account.emailChangeConfirm");
    refreshCachedUser(c, ctx, session, outcome.changed);
    return backToSection(c, ctx, "profile", "notice.account.emailChanged");
  },
  EMAIL_FIELDS,
);
