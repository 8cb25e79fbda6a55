import { PASSWORD_PROOF_FIELDS } from "../../../ui/web/account.ts";
import { deleteOwnAccount } from "../../services/account-deletion.ts";
import { hasPassword } from "../../services/passwords.ts";
import { clearSessionCookies } from "../cookies.ts";
import { accountState, backToSection } from "./account-frame.ts";
import { type SectionPage, sectionForm, sectionPage, userSource } from "./account-section-forms.ts";
import { pageURL, seeOther } from "./respond.ts";

// The delete section (/account/delete, when deleteUser.enabled): the same service as delete-user. With
// deleteUser.requireVerification (the default) it mails a link, whose landing (/account/delete-account)
// asks once more and deletes; otherwise it deletes at once, proven by the password or, for an account
// without one, a sign-in within session.freshAge (older: through re-authentication first).

const deletePage: SectionPage = async (c, ctx, session, problem) => ({
  ...accountState(c, ctx, session, problem),
  page: "account-delete",
  hasPassword: await hasPassword(ctx, session.user.id),
  mailsConfirmation: ctx.config.deleteUser.requireVerification,
});

export const showAccountDelete = sectionPage("delete", deletePage);

export const postAccountDelete = sectionForm(
  "delete",
  deletePage,
  async (c, ctx, session, fields) => {
    if (fields.confirm !== "on") return { code: "CONFIRM_DELETION", field: "confirm" };
    const password = fields.password ?? "";
    if (!password && (await hasPassword(ctx, session.user.id))) return { code: "REQUIRED", field: "password" };
    const done = pageURL(ctx, "/delete-account", null, { done: "1" });
    const proof = { password: password || undefined, session: session.session };
    const outcome = await deleteOwnAccount(
      ctx,
      session.user,
      proof,
      `${ctx.baseURL}${done}`,
      userSource(c, ctx, session),
    );
    if (outcome === "mailed") return backToSection(c, ctx, "delete", "notice.account.deletionMailed");
    clearSessionCookies(c, ctx);
    return seeOther(c, done);
  },
  PASSWORD_PROOF_FIELDS,
);
