import * as z from "zod";
import { AuthError, type ErrorKey } from "../../errors.ts";
import { profileFromClientIdToken } from "../../services/oauth/client-id-token.ts";
import { requireProvider } from "../../services/oauth/providers.ts";
import { idTokenStrategy } from "../../services/oauth/sign-in.ts";
import { linkSocialAccount, type SocialFailure } from "../../services/oauth/social-users.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { toPublicUserWire } from "../../services/users.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { startAuthorization } from "../oauth-state-cookie.ts";
import { defineRoute } from "../route.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";

// Starting social sign-in and linking: either an authorization URL for the browser, or (with an ID
// token the client already holds) a direct sign-in or link after verifying that token.

const IdTokenSchema = z.object({
  token: singleLine(),
  nonce: singleLine().optional(),
  accessToken: singleLine().optional(),
  refreshToken: singleLine().optional(),
  expiresAt: z.number().optional(),
  scopes: z.array(singleLine()).optional(),
});

const SignInSocialBody = z.object({
  provider: singleLine(),
  callbackURL: singleLine().optional(),
  newUserCallbackURL: singleLine().optional(),
  errorCallbackURL: singleLine().optional(),
  disableRedirect: z.boolean().optional(),
  idToken: IdTokenSchema.optional(),
  scopes: z.array(singleLine()).optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: singleLine().optional(),
});

const LinkSocialBody = SignInSocialBody.omit({ newUserCallbackURL: true, loginHint: true });

const LINK_FAILURES: Partial<Record<SocialFailure, ErrorKey>> = {
  unable_to_link_account: "LINKING_NOT_ALLOWED",
  email_mismatch: "LINKING_DIFFERENT_EMAILS",
};

export const signInSocial = defineRoute({
  method: "POST",
  path: "/sign-in/social",
  startsSession: true,
  summary: "Sign in with a social provider",
  description: "Returns the provider's authorization URL, or with an idToken signs in directly after verifying it.",
  tags: ["Social"],
  body: SignInSocialBody,
  response: z.union([
    z.object({
      url: z.string().optional(),
      redirect: z.boolean(),
      token: z.string().optional(),
      user: PublicUserSchema.optional(),
    }),
    TwoFactorRedirectSchema,
  ]),
  handler: async ({ c, ctx, body }) => {
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(c, ctx, provider, body);
      return { url, redirect: !body.disableRedirect };
    }
    const request = signInRequestOf(c, ctx, undefined);
    const input = { provider, idToken: body.idToken, requestSignUp: body.requestSignUp, callbackURL: body.callbackURL };
    const signedIn = await signIn(ctx, idTokenStrategy, input, request);
    if (signedIn.kind === "refused") throw new AuthError(signedIn.refusal);
    setSignInCookies(c, ctx, signedIn, request);
    if (signedIn.kind === "challenge") return { twoFactorRedirect: true as const };
    return {
      redirect: false,
      token: signedIn.session.token,
      url: undefined,
      user: toPublicUserWire(signedIn.user),
    };
  },
});

export const linkSocial = defineRoute({
  method: "POST",
  path: "/link-social",
  summary: "Link a social account to the signed-in user",
  tags: ["Social"],
  auth: "session",
  body: LinkSocialBody,
  response: z.object({ url: z.string(), redirect: z.boolean(), status: z.boolean().optional() }),
  handler: async ({ c, ctx, body, session }) => {
    const user = session.user;
    const provider = await requireProvider(ctx, body.provider);
    if (!body.idToken) {
      const url = await startAuthorization(c, ctx, provider, body, { userId: user.id, email: user.email });
      return { url, redirect: !body.disableRedirect };
    }
    const { profile, tokens } = await profileFromClientIdToken(ctx, provider, body.idToken);
    const result = await linkSocialAccount(ctx, {
      userId: user.id,
      userEmail: user.email,
      providerId: provider.id,
      profile,
      tokens,
    });
    if (!result.ok) throw new AuthError(LINK_FAILURES[result.error] ?? "LINKING_FAILED");
    return { redirect: false, url: "", status: true };
  },
});
