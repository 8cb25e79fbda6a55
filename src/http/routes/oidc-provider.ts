import type { Hono } from "hono";
import type { AuthContext } from "../../context.ts";
import { discoveryDocument, issuerDiscoveryPath } from "../../services/oidc-provider/metadata.ts";
import { defineRoute } from "../route.ts";

// authd as an OpenID Provider (docs/oidc.md): discovery, and the endpoints under /oauth2/. The protocol's
// refusals are OAuth error answers ({error, error_description}, RFC 6749 §5.2), not authd's {code, message}:
// relying-party libraries read those.

const tags = ["OpenID Provider"];

export const discoveryRoute = defineRoute({
  method: "GET",
  path: "/.well-known/openid-configuration",
  summary: "OpenID Provider discovery document",
  description: "The same document as {issuer}/.well-known/openid-configuration.",
  tags,
  handler: ({ ctx }) => discoveryAnswer(ctx),
});

function discoveryAnswer(ctx: AuthContext): Response {
  return Response.json(discoveryDocument(ctx), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}

/** Discovery under the issuer, which is the base URL itself unless AUTH_OIDC_ISSUER names another path. */
export function mountIssuerDiscovery(app: Hono, ctx: AuthContext): void {
  app.get(issuerDiscoveryPath(ctx), () => discoveryAnswer(ctx));
}

export const oidcProviderRoutes = [discoveryRoute];
