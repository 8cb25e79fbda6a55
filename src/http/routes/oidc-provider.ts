import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { userClaims } from "../../services/oidc-provider/claims.ts";
import { introspectToken, revokeToken } from "../../services/oidc-provider/grants.ts";
import { OAuthError } from "../../services/oidc-provider/oauth-error.ts";
import { exchangeCode, refreshTokens, verifyAccessToken } from "../../services/oidc-provider/tokens.ts";
import { answerAuthorize } from "../oidc-authorize.ts";
import { type FormBody, field, oauthJSON, oauthRefusal, requireClient } from "../oidc-clients.ts";
import { discoveryAnswer } from "../oidc-discovery.ts";
import { answerEndSession } from "../oidc-logout.ts";
import { defineRoute } from "../route.ts";
import { requestOrigin } from "../security-log.ts";

// authd as an OpenID Provider (docs/oidc.md): discovery, and the endpoints under /oauth2/. The protocol's
// refusals are OAuth error answers ({error, error_description}, RFC 6749 §5.2), not authd's {code, message}:
// relying-party libraries read those.

const tags = ["OpenID Provider"];
const FormSchema = z.record(z.string(), z.unknown());

export const discoveryRoute = defineRoute({
  method: "GET",
  path: "/.well-known/openid-configuration",
  summary: "OpenID Provider discovery document",
  description: "The same document as {issuer}/.well-known/openid-configuration.",
  tags,
  handler: ({ ctx }) => discoveryAnswer(ctx),
});

export const authorizeRoute = defineRoute({
  method: "GET",
  path: "/oauth2/authorize",
  summary: "Authorization endpoint (code flow with PKCE)",
  description:
    "Sends the browser through sign-in and consent, then to the client's redirect URI with code, state and iss.",
  tags,
  handler: ({ c, ctx }) => answerAuthorize(c, ctx, c.req.query()),
});

/** Run an endpoint that answers OAuth refusals the protocol's way. */
async function protocol(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) return oauthRefusal(c, error);
    throw error;
  }
}

export const tokenRoute = defineRoute({
  method: "POST",
  path: "/oauth2/token",
  summary: "Token endpoint (authorization_code, refresh_token)",
  tags,
  acceptsForm: true,
  body: FormSchema,
  handler: ({ c, ctx, body }) =>
    protocol(c, async () => {
      const form = body as FormBody;
      const client = await requireClient(c, ctx, form, { allowPublic: true });
      const grantType = field(form, "grant_type");
      if (grantType === "authorization_code") {
        const input = {
          code: field(form, "code"),
          redirectURI: field(form, "redirect_uri"),
          codeVerifier: field(form, "code_verifier"),
        };
        return oauthJSON(await exchangeCode(ctx, client, input, requestOrigin(c, ctx)));
      }
      if (grantType === "refresh_token") {
        const input = { refreshToken: field(form, "refresh_token"), scope: field(form, "scope") };
        return oauthJSON(await refreshTokens(ctx, client, input, requestOrigin(c, ctx)));
      }
      throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
    }),
});

function bearerToken(c: Context): string | null {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
  return match ? match[1] : null;
}

async function userinfo(c: Context, ctx: AuthContext): Promise<Response> {
  const token = bearerToken(c);
  const challenge = token ? 'Bearer error="invalid_token"' : 'Bearer realm="authd"';
  const found = token ? await verifyAccessToken(ctx, token) : null;
  if (!found)
    return oauthJSON({ error: "invalid_token", error_description: "the access token is not valid" }, 401, {
      "www-authenticate": challenge,
    });
  return oauthJSON(await userClaims(ctx, found.user, found.scopes));
}

const userinfoDescription =
  "The signed-in user's claims for the scopes granted; an access token in Authorization: Bearer.";
export const userinfoGetRoute = defineRoute({
  method: "GET",
  path: "/oauth2/userinfo",
  summary: "UserInfo endpoint",
  description: userinfoDescription,
  tags,
  handler: ({ c, ctx }) => userinfo(c, ctx),
});
export const userinfoPostRoute = defineRoute({
  method: "POST",
  path: "/oauth2/userinfo",
  summary: "UserInfo endpoint (POST)",
  description: userinfoDescription,
  tags,
  acceptsForm: true,
  handler: ({ c, ctx }) => userinfo(c, ctx),
});

export const revokeRoute = defineRoute({
  method: "POST",
  path: "/oauth2/revoke",
  summary: "Token revocation (RFC 7009)",
  description: "A refresh token revokes its whole family; the answer is 200 whether or not the token was known.",
  tags,
  acceptsForm: true,
  body: FormSchema,
  handler: ({ c, ctx, body }) =>
    protocol(c, async () => {
      const form = body as FormBody;
      const client = await requireClient(c, ctx, form, { allowPublic: true });
      const token = field(form, "token");
      if (!token) throw new OAuthError("invalid_request", "token is required");
      await revokeToken(ctx, client, token, requestOrigin(c, ctx));
      return oauthJSON({});
    }),
});

export const introspectRoute = defineRoute({
  method: "POST",
  path: "/oauth2/introspect",
  summary: "Token introspection (RFC 7662)",
  description: "For resource servers registered as confidential clients.",
  tags,
  acceptsForm: true,
  body: FormSchema,
  handler: ({ c, ctx, body }) =>
    protocol(c, async () => {
      const form = body as FormBody;
      await requireClient(c, ctx, form, { allowPublic: false });
      const token = field(form, "token");
      if (!token) throw new OAuthError("invalid_request", "token is required");
      return oauthJSON(await introspectToken(ctx, token));
    }),
});

const endSessionDescription =
  "RP-initiated logout: id_token_hint, client_id, post_logout_redirect_uri (exactly as registered) and state.";
export const endSessionGetRoute = defineRoute({
  method: "GET",
  path: "/oauth2/end-session",
  summary: "End-session endpoint",
  description: endSessionDescription,
  tags,
  handler: ({ c, ctx }) => answerEndSession(c, ctx, c.req.query()),
});
export const endSessionPostRoute = defineRoute({
  method: "POST",
  path: "/oauth2/end-session",
  summary: "End-session endpoint (form post)",
  description: endSessionDescription,
  tags,
  acceptsForm: true,
  body: FormSchema,
  handler: ({ c, ctx, body }) =>
    answerEndSession(
      c,
      ctx,
      Object.fromEntries(
        Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      ),
    ),
});

export const oidcProviderRoutes = [
  endSessionGetRoute,
  endSessionPostRoute,
  discoveryRoute,
  authorizeRoute,
  tokenRoute,
  userinfoGetRoute,
  userinfoPostRoute,
  revokeRoute,
  introspectRoute,
];
