import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { verifyIdToken } from "../../crypto/jwt.ts";
import { generateRandomString, sha256Base64Url } from "../../crypto/random.ts";
import { consumeVerification, insertVerification } from "../../db/repositories/verifications.ts";
import { AuthError } from "../../errors.ts";
import { redirectURIFor, scopesFor } from "./providers.ts";
import type { ResolvedProvider } from "./types.ts";

// The browser leg of the flow: the state record (what to do when the provider sends the user back),
// PKCE, the authorization URL, and verification of ID tokens handed to us by clients.

const STATE_LENGTH = 32;
const CODE_VERIFIER_LENGTH = 128;
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

const StateSchema = z.object({
  /** The provider the flow was started for: a state presented on another provider's callback is refused. */
  providerId: z.string(),
  callbackURL: z.string().optional(),
  codeVerifier: z.string(),
  errorCallbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  link: z.object({ userId: z.string(), email: z.string() }).optional(),
  requestSignUp: z.boolean().optional(),
  expiresAt: z.number(),
});

export type OAuthState = z.infer<typeof StateSchema>;

/** Store a new state (a verification record keyed by the state itself) and return it with its PKCE verifier. */
export async function createState(
  ctx: AuthContext,
  data: Omit<OAuthState, "codeVerifier" | "expiresAt">,
): Promise<{ state: string; codeVerifier: string }> {
  const state = generateRandomString(STATE_LENGTH);
  const codeVerifier = generateRandomString(CODE_VERIFIER_LENGTH);
  const expiresAt = ctx.now() + STATE_LIFETIME_MS;
  const value: OAuthState = { ...data, codeVerifier, expiresAt };
  try {
    await insertVerification(ctx.db, state, JSON.stringify(value), expiresAt, ctx.now());
  } catch (error) {
    throw new AuthError("UNABLE_TO_CREATE_VERIFICATION", { cause: error });
  }
  return { state, codeVerifier };
}

/**
 * Take the state out of the store (deleted in the same statement, so a replayed callback finds
 * nothing). Null when unknown, expired or unreadable: the user has to start again.
 */
export async function consumeState(ctx: AuthContext, state: string): Promise<OAuthState | null> {
  const row = await consumeVerification(ctx.db, state);
  if (!row) return null;
  let parsed: OAuthState;
  try {
    parsed = StateSchema.parse(JSON.parse(row.value));
  } catch {
    return null;
  }
  if (parsed.expiresAt < ctx.now() || Number(row.expiresAt) < ctx.now()) return null;
  return parsed;
}

export function codeChallengeFor(codeVerifier: string): string {
  return sha256Base64Url(codeVerifier);
}

export interface AuthorizationRequest {
  state: string;
  codeVerifier: string;
  scopes?: string[];
  loginHint?: string;
}

export function buildAuthorizationURL(
  ctx: AuthContext,
  provider: ResolvedProvider,
  request: AuthorizationRequest,
): string {
  const { config, definition } = provider;
  const url = new URL(provider.endpoints.authorizationEndpoint);
  const params: Record<string, string | undefined> = {
    response_type: "code",
    client_id: config.clientId,
    redirect_uri: redirectURIFor(ctx, provider),
    scope: scopesFor(provider, request.scopes).join(" "),
    state: request.state,
    code_challenge: codeChallengeFor(request.codeVerifier),
    code_challenge_method: "S256",
    login_hint: request.loginHint,
    prompt: config.prompt,
    response_mode: config.responseMode ?? definition.responseMode,
    ...definition.authorizationParams?.(config),
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Verify an ID token a client obtained itself: signature through the provider's JWKS, issuer (when the
 * provider has a fixed one), audience = our client id, expiry, and the nonce when one was used.
 */
export async function verifyClientIdToken(
  ctx: AuthContext,
  provider: ResolvedProvider,
  token: string,
  nonce: string | undefined,
): Promise<Record<string, unknown> | null> {
  const { jwksURI, issuer } = provider.endpoints;
  if (!jwksURI) return null;
  const options = { jwksURI, issuer, audience: provider.config.clientId, timeoutMs: provider.config.timeoutMs };
  const claims = await verifyIdToken(token, options, ctx.providerCache.keySets);
  if (!claims) return null;
  if (nonce !== undefined && claims.nonce !== nonce) return null;
  return claims as Record<string, unknown>;
}
