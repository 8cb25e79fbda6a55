import type { Hono } from "hono";
import type { AuthContext } from "../context.ts";
import { discoveryDocument, issuerDiscoveryPath } from "../services/oidc-provider/metadata.ts";

// The OpenID Provider's discovery document (docs/oidc.md): at /api/auth/.well-known/openid-configuration (a
// route of routes/oidc-provider.ts) and under the issuer, mounted at start. Apart from the provider's routes,
// which load on their first request (routes/index.ts), so that mounting it loads nothing else.

export function discoveryAnswer(ctx: AuthContext): Response {
  return Response.json(discoveryDocument(ctx), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}

/** Discovery under the issuer, which is the base URL itself unless AUTH_OIDC_ISSUER names another path. */
export function mountIssuerDiscovery(app: Hono, ctx: AuthContext): void {
  app.get(issuerDiscoveryPath(ctx), () => discoveryAnswer(ctx));
}
