import { isIP } from "node:net";
import type { AuthContext } from "../../context.ts";

// Who the passkeys belong to, from configuration only. Better Auth 1.3.4 takes the expected origin from
// the request's Origin header and may fix the rp id from the first request's forwarded host; here both
// come from the configuration (AUTH_PASSKEY_RP_ID, AUTH_PASSKEY_ORIGIN), defaulting from the base URL, so
// no request can widen what a signature is accepted for.

export interface RelyingParty {
  /** The WebAuthn rp id: a registrable domain the ceremony's origins lie in. */
  id: string;
  name: string;
  /** The origins a clientDataJSON may name (compared exactly). */
  origins: string[];
}

/** The relying party of this daemon's passkeys. */
export function relyingParty(ctx: AuthContext): RelyingParty {
  const base = new URL(ctx.baseURL);
  const config = ctx.config.passkey;
  return {
    id: config.rpID ?? base.hostname,
    name: config.rpName,
    origins: config.origin && config.origin.length > 0 ? config.origin.map(withoutSlash) : [base.origin],
  };
}

const withoutSlash = (origin: string) => origin.replace(/\/+$/, "");

/**
 * Why passkeys cannot work with this configuration, or null: browsers refuse an IP address as an rp id,
 * which is what a base URL such as http://127.0.0.1:3000 gives unless AUTH_PASSKEY_RP_ID is set.
 */
export function relyingPartyProblem(ctx: AuthContext): string | null {
  const rp = relyingParty(ctx);
  const host = rp.id.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) return null;
  return `passkeys: the rp id "${rp.id}" (from the base URL) is an IP address, which browsers refuse; set AUTH_PASSKEY_RP_ID to a domain (and AUTH_PASSKEY_ORIGIN to the app's origin)`;
}

/**
 * Whether a passkey ceremony can run on authd's own pages: passkeys are on, the rp id is a domain, the
 * pages' origin (the base URL's) is one the ceremony is accepted from, and its host lies in the rp id.
 * An operator who set AUTH_PASSKEY_ORIGIN to the app's origin alone keeps passkeys off the pages.
 */
export function passkeysWorkOnPages(ctx: AuthContext): boolean {
  if (!ctx.config.passkey.enabled || relyingPartyProblem(ctx) !== null) return false;
  const rp = relyingParty(ctx);
  const base = new URL(ctx.baseURL);
  const host = base.hostname.toLowerCase();
  const rpID = rp.id.toLowerCase();
  return rp.origins.includes(base.origin) && (host === rpID || host.endsWith(`.${rpID}`));
}
