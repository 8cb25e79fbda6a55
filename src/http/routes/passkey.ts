import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { authenticationOptions } from "../../services/passkeys/authentication.ts";
import { registrationOptions, verifyRegistration } from "../../services/passkeys/registration.ts";
import { passkeyStrategy } from "../../services/passkeys/sign-in.ts";
import { assertRecentSignIn, isSessionFresh, toSessionWire } from "../../services/sessions/sessions.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { PasskeySchema } from "../../wire/passkey.ts";
import { SessionSchema } from "../../wire/session.ts";
import { jsonObject, singleLine } from "../fields.ts";
import { readChallengeCookie, setChallengeCookie, withChallengeSpent } from "../passkey-cookie.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";
import { rememberedChoice, setSignInCookies, signInRequestOf } from "../sign-in.ts";

// Better Auth's passkey ceremonies (spec: plugins.md §7): registration for a signed-in user, sign-in
// with a passkey. The WebAuthn options are the library's JSON, passed through unchanged.

const tags = ["Passkeys"];

const AnyObject = z.record(z.string(), z.unknown());
/** A WebAuthn response JSON (base64url strings and a few names): no control characters anywhere. */
const WebAuthnResponse = jsonObject();

/**
 * Adding a passkey adds a way to sign in for good, so it takes a fresh session that a person signed in
 * with: not an API key's stand-in session (always "fresh"), and not an administrator's impersonation; and
 * a recent sign-in (account.freshAge), as every sensitive account change.
 */
function assertMayAddPasskey(ctx: AuthContext, session: ResolvedSession): void {
  if (session.source !== "cookie" || !isSessionFresh(ctx, session.session)) throw new AuthError("SESSION_NOT_FRESH");
  assertRecentSignIn(ctx, session.session);
  if (session.session.impersonatedBy) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
}

export const generateRegisterOptionsRoute = defineRoute({
  method: "GET",
  path: "/passkey/generate-register-options",
  summary: "WebAuthn creation options for a new passkey of the caller",
  description:
    "Needs a fresh session and a sign-in within account.freshAge. Sets the challenge cookie (better-auth-passkey) for verify-registration.",
  tags,
  auth: "session",
  query: z.object({ authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional() }),
  response: AnyObject,
  handler: async ({ c, ctx, query, session }) => {
    assertMayAddPasskey(ctx, session);
    const { options, handle } = await registrationOptions(ctx, session.user, query.authenticatorAttachment);
    setChallengeCookie(c, ctx, handle);
    return { ...options };
  },
});

export const verifyRegistrationRoute = defineRoute({
  method: "POST",
  path: "/passkey/verify-registration",
  summary: "Store the passkey the authenticator created",
  description:
    "Needs a fresh session, a sign-in within account.freshAge, and the challenge cookie, which this call uses up whatever its answer.",
  tags,
  auth: "session",
  body: z.object({ response: WebAuthnResponse, name: singleLine().max(256).optional() }),
  response: PasskeySchema,
  handler: ({ c, ctx, body, session }) =>
    withChallengeSpent(c, ctx, () => {
      assertMayAddPasskey(ctx, session);
      const source = requestSource(c, ctx, "user", session.user.id);
      return verifyRegistration(ctx, session.user, readChallengeCookie(c, ctx), body, source);
    }),
});

export const generateAuthenticateOptionsRoute = defineRoute({
  method: "POST",
  path: "/passkey/generate-authenticate-options",
  summary: "WebAuthn request options for signing in with a passkey",
  description:
    "Signed in: the caller's passkeys are listed and only they can answer. Otherwise any discoverable passkey for the rp id. Sets the challenge cookie.",
  tags,
  auth: "optional-session",
  body: z.object({ email: singleLine().optional() }).optional(),
  response: AnyObject,
  handler: async ({ c, ctx, session }) => {
    const userId = session?.source === "cookie" ? session.user.id : null;
    const { options, handle } = await authenticationOptions(ctx, userId);
    setChallengeCookie(c, ctx, handle);
    return { ...options };
  },
});

export const verifyAuthenticationRoute = defineRoute({
  method: "POST",
  path: "/passkey/verify-authentication",
  summary: "Sign in with a passkey",
  description:
    "Checks the assertion against the challenge cookie (used up whatever the answer), then starts a session and sets its cookie. A passkey is a strong factor: no second factor is asked.",
  tags,
  startsSession: true,
  body: z.object({ response: WebAuthnResponse }),
  response: z.object({ session: SessionSchema }),
  handler: ({ c, ctx, body }) =>
    withChallengeSpent(c, ctx, async () => {
      const assertion = { handle: readChallengeCookie(c, ctx), response: body.response };
      const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
      const signedIn = await signIn(ctx, passkeyStrategy, assertion, request);
      // A passkey is a strong factor: the gate never challenges it.
      if (signedIn.kind !== "session") throw new Error("a passkey sign-in was challenged for a second factor");
      setSignInCookies(c, ctx, signedIn, request);
      const { session } = signedIn;
      return { session: toSessionWire(ctx, session) };
    }),
});

export const passkeyCeremonyRoutes = [
  generateRegisterOptionsRoute,
  verifyRegistrationRoute,
  generateAuthenticateOptionsRoute,
  verifyAuthenticationRoute,
];
