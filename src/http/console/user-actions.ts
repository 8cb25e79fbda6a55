import type { Context } from "hono";
import type { PermissionRequest } from "../../services/access-control.ts";
import { ConsoleFormProblem, type FormAct, formAction } from "./form-problems.ts";
import { issueKeyOptions, keyChanges, line, requireConfirmation, userIdOf, userPath } from "./user-forms.ts";
import { offeredRoles, showIssuedKey, userScreen } from "./user-page.ts";

// The forms of a user's screen (/console/users/:id/…): each asks for the admin permission the matching /admin
// route asks for, acts through AdminData as the signed-in admin (so its event names them), and goes back to
// the user's screen with a notice. Destructive forms need their "I am sure" box; deleting needs the address.

/** A form of the user screen: a problem of the form itself is drawn beside it, a refusal as the console's. */
export function userAction(permission: PermissionRequest, act: FormAct) {
  return formAction(permission, userScreen.draw, () => "", {}, act);
}

const back = (c: Context, notice: string) => ({ to: userPath(userIdOf(c)), notice });

/** Ban lengths the form offers, in seconds; "" bans until unbanned. */
export const BAN_LENGTHS = ["3600", "86400", "604800", "2592000", ""];

export const USER_ACTION_HANDLERS = {
  verifyUserEmail: userAction({ user: ["update"] }, async (c, _ctx, access) => {
    const verified = await access.data.verifyEmail(userIdOf(c));
    return back(c, verified ? "console.user.notice.verified" : "console.user.notice.alreadyVerified");
  }),
  sendUserPasswordReset: userAction({ user: ["set-password"] }, async (c, _ctx, access) => {
    await access.data.sendPasswordReset(userIdOf(c));
    return back(c, "console.user.notice.resetSent");
  }),
  setUserPassword: userAction({ user: ["set-password"] }, async (c, _ctx, access, fields) => {
    await access.data.setPassword(userIdOf(c), fields.password ?? "");
    return back(c, "console.user.notice.passwordSet");
  }),
  setUserRole: userAction({ user: ["set-role"] }, async (c, ctx, access, fields) => {
    const role = fields.role ?? "";
    if (!offeredRoles(ctx).includes(role)) throw new ConsoleFormProblem("role", "console.user.problem.role");
    await access.data.setRole(userIdOf(c), role);
    return back(c, "console.user.notice.roleSet");
  }),
  banUser: userAction({ user: ["ban"] }, async (c, _ctx, access, fields) => {
    requireConfirmation(fields, "ban");
    const length = fields.expires ?? "";
    if (!BAN_LENGTHS.includes(length)) throw new ConsoleFormProblem("ban", "console.user.problem.number");
    const reason = line(fields, "reason", "ban", 500);
    await access.data.banUser(userIdOf(c), reason, length === "" ? undefined : Number(length));
    return back(c, "console.user.notice.banned");
  }),
  unbanUser: userAction({ user: ["ban"] }, async (c, _ctx, access) => {
    await access.data.unbanUser(userIdOf(c));
    return back(c, "console.user.notice.unbanned");
  }),
  resetUserSecondFactor: userAction({ user: ["reset-two-factor"] }, async (c, _ctx, access, fields) => {
    requireConfirmation(fields, "second-factor");
    await access.data.resetTwoFactor(userIdOf(c));
    return back(c, "console.user.notice.secondFactorReset");
  }),
  removeUserPasskey: userAction({ user: ["set-password"] }, async (c, _ctx, access, fields) => {
    requireConfirmation(fields, `passkey-${fields.passkeyId ?? ""}`);
    await access.data.removePasskey(userIdOf(c), fields.passkeyId ?? "");
    return back(c, "console.user.notice.passkeyRemoved");
  }),
  revokeUserSession: userAction({ session: ["revoke"] }, async (c, _ctx, access, fields) => {
    const revoked = await access.data.revokeUserSession(userIdOf(c), fields.sessionId ?? "");
    return back(c, revoked > 0 ? "console.user.notice.sessionRevoked" : "console.user.notice.sessionGone");
  }),
  revokeUserSessions: userAction({ session: ["revoke"] }, async (c, _ctx, access, fields) => {
    requireConfirmation(fields, "sessions");
    await access.data.revokeAllSessions(userIdOf(c));
    return back(c, "console.user.notice.sessionsRevoked");
  }),
  issueUserApiKey: userAction({ apiKey: ["create"] }, async (c, ctx, access, fields) => {
    const issued = await access.data.issueApiKey(userIdOf(c), issueKeyOptions(fields));
    // The key is shown this once, on the screen this answer draws (no redirect: it would have to carry it).
    showIssuedKey(c, { id: issued.id, key: issued.key });
    return userScreen.draw(c, ctx, access);
  }),
  updateUserApiKey: userAction({ apiKey: ["update"] }, async (c, _ctx, access, fields) => {
    await access.data.updateApiKey(userIdOf(c), fields.keyId ?? "", keyChanges(fields));
    return back(c, "console.user.notice.keyUpdated");
  }),
  revokeUserApiKey: userAction({ apiKey: ["revoke"] }, async (c, _ctx, access, fields) => {
    requireConfirmation(fields, `revoke-key-${fields.keyId ?? ""}`);
    await access.data.revokeUserApiKey(userIdOf(c), fields.keyId ?? "");
    return back(c, "console.user.notice.keyRevoked");
  }),
  deleteUser: userAction({ user: ["delete"] }, async (c, _ctx, access, fields) => {
    const overview = await access.data.describeUser(userIdOf(c));
    if (!overview || overview.user.id !== userIdOf(c)) return { to: "/users", notice: "console.user.notice.gone" };
    const typed = (fields.email ?? "").trim().toLowerCase();
    if (typed !== overview.user.email.toLowerCase())
      throw new ConsoleFormProblem("delete", "console.user.problem.email");
    await access.data.deleteUser(overview.user.id);
    return { to: "/users", notice: "console.user.notice.deleted" };
  }),
};
