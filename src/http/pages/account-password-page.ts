import { PASSWORD_FIELDS } from "../../../ui/web/account.ts";
import type { AuthContext } from "../../context.ts";
import { addFirstPassword, changeOwnPassword } from "../../services/password-change.ts";
import { hasPassword } from "../../services/passwords.ts";
import { assertRecentSignIn } from "../../services/sessions/sessions.ts";
import { rememberedChoice, startUserSession } from "../sign-in.ts";
import { accountState, backToSection } from "./account-frame.ts";
import { type SectionPage, sectionForm, sectionPage, userSource } from "./account-section-forms.ts";
import { passwordRules } from "./page-state.ts";

// The password section (/account/password): change the password (the current one, a new one, and whether
// every other session ends), or, for an account without one (social or passwordless sign-up), set a first
// one. The same services as change-password and set-password; both need a fresh sign-in.

const passwordPage: SectionPage = async (c, ctx, session, problem) => ({
  ...accountState(c, ctx, session, problem),
  page: "account-password",
  hasPassword: await hasPassword(ctx, session.user.id),
  passwordRules: passwordRules(ctx),
});

export const showAccountPassword = sectionPage("password", passwordPage);

export const postAccountPassword = sectionForm(
  "password",
  passwordPage,
  async (c, ctx: AuthContext, session, fields) => {
    assertRecentSignIn(ctx, session.session);
    const revokeOtherSessions = fields.revokeOtherSessions === "on";
    const change = {
      currentPassword: fields.currentPassword ?? "",
      newPassword: fields.newPassword ?? "",
      revokeOtherSessions,
    };
    await changeOwnPassword(ctx, session.user, change, userSource(c, ctx, session));
    if (!revokeOtherSessions) return backToSection(c, ctx, "password", "notice.account.passwordChanged");
    // Every session ended, this browser's too: it goes on in a new one, as change-password's caller does.
    await startUserSession(c, ctx, session.user, rememberedChoice(c, ctx));
    return backToSection(c, ctx, "password", "notice.account.passwordChangedSignedOut");
  },
  PASSWORD_FIELDS,
);

export const postAccountFirstPassword = sectionForm(
  "password",
  passwordPage,
  async (c, ctx, session, fields) => {
    assertRecentSignIn(ctx, session.session);
    await addFirstPassword(ctx, session.user.id, fields.newPassword ?? "", userSource(c, ctx, session));
    return backToSection(c, ctx, "password", "notice.account.passwordSet");
  },
  PASSWORD_FIELDS,
);
