import type { SocialButton } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { providerDefinition, resolveProvider } from "../../services/oauth/providers.ts";

// The sign-in page's social buttons post to a page route that answers 303 to the provider. Chromium holds
// that redirect to the submitting page's CSP form-action, so the page must name each provider's
// authorization origin. Providers configured by issuer learn it from discovery (cached per context); while
// discovery is slow or failing, the issuer's own origin stands in, and the page does not wait long for it.

const DISCOVERY_WAIT_MS = 1500;

const originOf = (url: string | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

async function authorizationOrigin(ctx: AuthContext, id: string): Promise<string | null> {
  const fallback = originOf(ctx.config.social[id]?.issuer);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DISCOVERY_WAIT_MS);
  });
  try {
    const provider = await Promise.race([resolveProvider(ctx, id), late]);
    return originOf(provider?.endpoints.authorizationEndpoint) ?? fallback;
  } catch {
    return fallback;
  } finally {
    clearTimeout(timer);
  }
}

/** The origins the sign-in page's form-action must allow besides its own: one per configured provider. */
export async function socialFormTargets(ctx: AuthContext): Promise<string[]> {
  const origins = await Promise.all(Object.keys(ctx.config.social).map((id) => authorizationOrigin(ctx, id)));
  return [...new Set(origins.filter((origin): origin is string => origin !== null))];
}

/** A button per configured provider, named as the provider calls itself (a generic OpenID one by its id). */
export function socialButtons(ctx: AuthContext): SocialButton[] {
  return Object.keys(ctx.config.social).map((id) => {
    const definition = providerDefinition(id);
    return { id, name: definition.endpoints || definition.endpointsFromIssuer ? definition.name : id };
  });
}
