import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem, SecondFactorForm } from "../../../ui/web/state.ts";
import { accountTwoFactorProblem } from "../../../ui/web/two-factor.ts";
import type { AuthContext } from "../../context.ts";
import { hasPassword } from "../../services/passwords.ts";
import type { SessionWithUser } from "../../services/sessions/sessions.ts";
import {
  countBackupCodes,
  type Enrollment,
  enableTwoFactor,
  pendingEnrolment,
  regenerateBackupCodes,
} from "../../services/two-factor/enrollment.ts";
import { forgetTrustedDevice, listTrustedDevices } from "../../services/two-factor/trusted-devices.ts";
import { verifyTotp } from "../../services/two-factor/verification.ts";
import { isoDate } from "../../wire/common.ts";
import { readSignedCookie, twoFactorCookieNames } from "../cookies.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";
import { disableCallersSecondFactor, verifySecondFactor } from "../two-factor.ts";
import {
  accountSession,
  accountState,
  backToSection,
  needsReauthentication,
  offeredAccountSections,
  reauthenticate,
} from "./account-frame.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, renderPage } from "./respond.ts";
import { offeredMethods } from "./two-factor-page.ts";

// The account page's second factor (/account/second-factor): turn on an authenticator app (its QR code
// drawn here, on the server), confirm it with a first code, new backup codes, turn it off, forget trusted
// browsers. Every form posts to a route of its own that calls the services the API's routes call (and
// counts in that route's rate limit, mount.ts); with JavaScript the page sends all but the first (which
// needs the server's drawing) and the last (no API route: Better Auth has none) to the API instead.

interface Shown {
  problem?: FormProblem;
  failedForm?: SecondFactorForm;
  enrolment?: Enrollment | null;
  newBackupCodes?: string[];
}

async function drawEnrolment(enrolment: Enrollment) {
  const { drawQRCode } = await import("../../../ui/web/server/qr-code.ts");
  const secret = new URL(enrolment.totpURI).searchParams.get("secret") ?? "";
  return { uri: enrolment.totpURI, qr: drawQRCode(enrolment.totpURI), secret, backupCodes: enrolment.backupCodes };
}

async function renderSection(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  shown: Shown = {},
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const { user } = session;
  const enabled = Boolean(user.twoFactorEnabled);
  const trustCookie = readSignedCookie(c, ctx, twoFactorCookieNames(ctx).trustDevice);
  const [password, left, browsers] = await Promise.all([
    hasPassword(ctx, user.id),
    enabled ? countBackupCodes(ctx, user.id) : null,
    enabled ? listTrustedDevices(ctx, user.id, trustCookie) : [],
  ]);
  const secondFactor = {
    enabled,
    hasPassword: password,
    mailedCodes: offeredMethods(ctx).mail,
    backupCodesLeft: left,
    trustedBrowsers: browsers.map((browser) => ({
      id: browser.id,
      lastSignInAt: isoDate(browser.lastSignInAt),
      expiresAt: isoDate(browser.expiresAt),
      current: browser.current,
    })),
    enrolment: shown.enrolment ? await drawEnrolment(shown.enrolment) : null,
    newBackupCodes: shown.newBackupCodes ?? null,
    failedForm: shown.failedForm ?? null,
  };
  const state = { ...accountState(c, ctx, session, shown.problem ?? null), page: "account-second-factor" as const };
  return renderPage(c, ctx, { ...state, secondFactor }, status);
}

const offered = (ctx: AuthContext) => offeredAccountSections(ctx).includes("second-factor");

const notFound = (c: Context, ctx: AuthContext) =>
  renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: "NOT_FOUND" }, 404);

export async function showAccountSecondFactor(c: Context, ctx: AuthContext): Promise<Response> {
  if (!offered(ctx)) return notFound(c, ctx);
  const signedIn = await accountSession(c, ctx, "second-factor");
  if ("answer" in signedIn) return signedIn.answer;
  return renderSection(c, ctx, signedIn.session);
}

type Step = (c: Context, ctx: AuthContext, session: ResolvedSession, fields: FormFields) => Promise<Response>;

/**
 * A form of the section: signed in (else through sign-in), then the guard (Origin and form token: 403 and
 * nothing run), then `step`. A sign-in older than account.freshAge goes through re-authentication and
 * back; another refusal shows in the section, tied to the form that was sent.
 */
function sectionForm(form: SecondFactorForm, step: Step) {
  return async (c: Context, ctx: AuthContext): Promise<Response> => {
    if (!offered(ctx)) return notFound(c, ctx);
    const signedIn = await accountSession(c, ctx, "second-factor");
    if ("answer" in signedIn) return signedIn.answer;
    const { session } = signedIn;
    const guarded = await guardForm(c, ctx);
    // Shown above the section: the form that was sent may not be on the page drawn now.
    if (!guarded.ok) return renderSection(c, ctx, session, { problem: { code: guarded.problem } }, 403);
    try {
      return await step(c, ctx, session, guarded.fields);
    } catch (error) {
      if (needsReauthentication(error)) return reauthenticate(c, ctx, "second-factor");
      const { code, status } = pageRefusal(error);
      const problem = accountTwoFactorProblem(code, status);
      const enrolment = form === "confirm" ? await enrolmentAgain(ctx, session) : null;
      return renderSection(c, ctx, session, { problem, failedForm: form, enrolment }, status);
    }
  };
}

/** After a mistyped first code: the enrolment again, to try once more without starting over (not to an old sign-in). */
async function enrolmentAgain(ctx: AuthContext, session: ResolvedSession): Promise<Enrollment | null> {
  try {
    return await pendingEnrolment(ctx, session);
  } catch (error) {
    if (needsReauthentication(error)) return null;
    throw error;
  }
}

const password = (fields: FormFields) => fields.password ?? "";
const source = (c: Context, ctx: AuthContext, session: SessionWithUser) =>
  requestSource(c, ctx, "user", session.user.id);

/** A new secret and backup codes, shown in this answer only (nothing secret goes into a URL). */
export const postEnableTwoFactor = sectionForm("enable", async (c, ctx, session, fields) => {
  // Already on: the page never offers this; a second enrolment would replace the working secret.
  if (session.user.twoFactorEnabled) return backToSection(c, ctx, "second-factor");
  const enrolment = await enableTwoFactor(ctx, session, { password: password(fields) }, source(c, ctx, session));
  return renderSection(c, ctx, session, { enrolment });
});

/** The first code turns two-factor on (and rotates the session, as the API's verify-totp does). */
export const postConfirmTwoFactor = sectionForm("confirm", async (c, ctx, session, fields) => {
  const code = (fields.code ?? "").trim();
  await verifySecondFactor(c, ctx, session, (context, request) => verifyTotp(ctx, context, code, request), false);
  return backToSection(c, ctx, "second-factor", "notice.account.twoFactorOn");
});

export const postNewBackupCodes = sectionForm("backup-codes", async (c, ctx, session, fields) => {
  const made = await regenerateBackupCodes(ctx, session, password(fields), source(c, ctx, session));
  return renderSection(c, ctx, session, { newBackupCodes: made.backupCodes });
});

export const postDisableTwoFactor = sectionForm("disable", async (c, ctx, session, fields) => {
  await disableCallersSecondFactor(c, ctx, session, password(fields));
  return backToSection(c, ctx, "second-factor", "notice.account.twoFactorOff");
});

/** No API route: Better Auth lists no trusted browsers. Another user's id (or a gone one) changes nothing. */
export const postForgetBrowser = sectionForm("forget-browser", async (c, ctx, session, fields) => {
  if (!(await forgetTrustedDevice(ctx, session.user.id, fields.id ?? "")))
    return renderSection(
      c,
      ctx,
      session,
      { problem: { code: "TRUSTED_BROWSER_NOT_FOUND" }, failedForm: "forget-browser" },
      404,
    );
  return backToSection(c, ctx, "second-factor", "notice.account.browserForgotten");
});
