import type { AuthContext } from "../context.ts";
import { parseAuthorizationRequest, UnsafeAuthorizationRequest } from "../services/oidc-provider/authorization.ts";
import { endpoints } from "../services/oidc-provider/metadata.ts";

/**
 * Where a page's form may end up when its return address is an authorization request: the client's
 * redirect URI (a sign-in without JavaScript posts, is sent on to authorize, and from there to the client;
 * browsers check every hop of that against the page's form-action). Only a registered, matching URI counts.
 */
export async function authorizationFormTargets(ctx: AuthContext, redirect: string | null): Promise<string[]> {
  const endpoint = endpoints(ctx).authorization_endpoint;
  if (!ctx.config.oidcProvider.enabled || !redirect?.startsWith(`${endpoint}?`)) return [];
  const params = Object.fromEntries(new URL(redirect).searchParams);
  try {
    const parsed = await parseAuthorizationRequest(ctx, params);
    const url = new URL(parsed.ok ? parsed.request.redirectURI : parsed.redirectURI);
    return [url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol];
  } catch (error) {
    if (error instanceof UnsafeAuthorizationRequest) return [];
    throw error;
  }
}
