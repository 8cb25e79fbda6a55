import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { ERRORS, isAuthError } from "../../errors.ts";
import { switchBackFromImpersonation, switchToImpersonation } from "../impersonation.ts";
import { guardForm } from "../pages/guard.ts";
import { linkFailure } from "../pages/mailed-links.ts";
import { seeOther } from "../pages/respond.ts";
import { resolveSession } from "../session.ts";
import { ConsoleFormProblem } from "./form-problems.ts";
import { backTo } from "./frame.ts";
import { userAction } from "./user-actions.ts";
import { line, userIdOf, userPath } from "./user-forms.ts";
import { impersonationDurations } from "./user-page.ts";

// Impersonating from the console: a reason and a time limit are required (the API takes neither), the
// browser switches to the user's session and lands on their account page, where (as on every page) a banner
// names the user and the end and offers to stop. Stopping posts here from that banner, in the user's
// session, and brings the administrator's own session back (the API's stop-impersonating, the same rules).

export const IMPERSONATION_HANDLERS = {
  impersonateUser: userAction({ user: ["impersonate"] }, async (c, ctx, access, fields) => {
    const reason = line(fields, "reason", "impersonate", 500);
    if (reason === "") throw new ConsoleFormProblem("impersonate", "console.user.problem.reason");
    const duration = Number(fields.duration);
    if (!impersonationDurations(access.data.impersonationLimit()).includes(duration))
      throw new ConsoleFormProblem("impersonate", "console.user.problem.number");
    const impersonation = await access.data.impersonate(userIdOf(c), { reason, expiresInSeconds: duration });
    switchToImpersonation(c, ctx, access.session, impersonation);
    return seeOther(c, ctx.config.pages.basePath);
  }),
  stopImpersonating: async (c: Context, ctx: AuthContext): Promise<Response> => {
    const guarded = await guardForm(c, ctx);
    if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
    const session = await resolveSession(c, ctx, { disableRefresh: true });
    if (session?.source !== "cookie" || !session.session.impersonatedBy)
      return linkFailure(c, ctx, ERRORS.NOT_IMPERSONATING.code, 400);
    try {
      await switchBackFromImpersonation(c, ctx, session);
    } catch (error) {
      if (!isAuthError(error) || error.status >= 500) throw error;
      return linkFailure(c, ctx, error.code, error.status === 403 ? 403 : 400);
    }
    return backTo(c, userPath(session.user.id), "console.user.notice.impersonationStopped");
  },
};
