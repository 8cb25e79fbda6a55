import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url } from "../../crypto/hmac.ts";
import { constantTimeEqual } from "../../crypto/random.ts";
import { findOAuthConsent } from "../../db/repositories/oauth-grants.ts";
import { findClient, type OAuthClient } from "./clients.ts";
import { type Scope, SUPPORTED_SCOPES } from "./metadata.ts";
import { OAuthError } from "./oauth-error.ts";
import { matchesRedirectURI } from "./redirect-uris.ts";

// An authorization request (OpenID Connect Core §3.1.2.1) checked once, the same way by the authorize
// endpoint and the consent page, which carries the request's own parameters. Until the client and its
// redirect URI are known good nothing is sent back to the client (RFC 6749 §4.1.2.1: an unchecked URI
// would make authd an open redirector); after that every refusal goes back to it, with state and iss.

export type Prompt = "none" | "login" | "consent";

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectURI: string;
  scopes: Scope[];
  state: string | null;
  nonce: string | null;
  codeChallenge: string | null;
  prompt: Prompt[];
  maxAge: number | null;
  loginHint: string | null;
  /** The sign-in this flow asked for happened after this time (a signed marker of authd's own). */
  loginAfter: number | null;
}

/** The request's parameters as they arrived (the query of authorize, the hidden fields of the consent form). */
export type AuthorizationParams = Record<string, string | undefined>;

/** What cannot go back to the client: its id or redirect URI is not one authd knows. */
export class UnsafeAuthorizationRequest extends Error {}

export type ParsedRequest =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; error: OAuthError; redirectURI: string; state: string | null };

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_TEXT = 1024;
/** The parameters the consent page carries through its form (everything the request is built from). */
export const REQUEST_PARAMETERS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "prompt",
  "max_age",
  "login_hint",
  "authd_login",
] as const;

function text(params: AuthorizationParams, name: string): string | null {
  const value = params[name];
  return value === undefined || value === "" ? null : value;
}

/** Check an authorization request; throws UnsafeAuthorizationRequest when the answer cannot go to the client. */
export async function parseAuthorizationRequest(ctx: AuthContext, params: AuthorizationParams): Promise<ParsedRequest> {
  const client = await findClient(ctx, params.client_id ?? "");
  if (!client) throw new UnsafeAuthorizationRequest("unknown client_id");
  const redirectURI = params.redirect_uri ?? "";
  if (!matchesRedirectURI(redirectURI, client.redirectURIs, client.isPublic))
    throw new UnsafeAuthorizationRequest("redirect_uri is not one the client registered");
  const state = text(params, "state");
  const refuse = (error: OAuthError): ParsedRequest => ({ ok: false, error, redirectURI, state });
  try {
    return { ok: true, request: checkParameters(ctx, client, redirectURI, state, params) };
  } catch (error) {
    if (error instanceof OAuthError) return refuse(error);
    throw error;
  }
}

function checkParameters(
  ctx: AuthContext,
  client: OAuthClient,
  redirectURI: string,
  state: string | null,
  params: AuthorizationParams,
): AuthorizationRequest {
  const invalid = (description: string) => new OAuthError("invalid_request", description);
  if (params.request !== undefined) throw new OAuthError("request_not_supported", "request objects are not supported");
  if (params.request_uri !== undefined)
    throw new OAuthError("request_uri_not_supported", "request_uri is not supported");
  if (params.response_type !== "code")
    throw new OAuthError(
      "unsupported_response_type",
      "only the authorization code flow (response_type=code) is offered",
    );
  if (params.response_mode !== undefined && params.response_mode !== "query")
    throw invalid("only response_mode=query is offered");
  for (const name of ["state", "nonce", "login_hint"])
    if ((params[name] ?? "").length > MAX_TEXT) throw invalid(`${name} is longer than ${MAX_TEXT} characters`);
  const requested = (params.scope ?? "").split(" ").filter(Boolean);
  if (!requested.includes("openid")) throw new OAuthError("invalid_scope", "the scope must include openid");
  // Scopes authd does not know are left out, as OAuth allows (§3.3): the token answer names what was granted.
  const scopes = SUPPORTED_SCOPES.filter((scope) => requested.includes(scope));
  const codeChallenge = text(params, "code_challenge");
  if (codeChallenge !== null) {
    if (params.code_challenge_method !== "S256")
      throw invalid("code_challenge_method must be S256 (plain is not accepted)");
    if (!PKCE_CHALLENGE.test(codeChallenge)) throw invalid("code_challenge is not a base64url SHA-256 digest");
  } else if (client.isPublic) throw invalid("a public client must use PKCE (code_challenge with S256)");
  else if (params.code_challenge_method !== undefined) throw invalid("code_challenge_method without code_challenge");
  const prompt = (params.prompt ?? "").split(" ").filter(Boolean);
  if (prompt.some((value) => value !== "none" && value !== "login" && value !== "consent"))
    throw invalid("prompt may hold none, login and consent only");
  if (prompt.includes("none") && prompt.length > 1) throw invalid("prompt=none cannot be combined with another value");
  let maxAge: number | null = null;
  if (params.max_age !== undefined) {
    if (!/^\d{1,9}$/.test(params.max_age)) throw invalid("max_age must be a number of seconds");
    maxAge = Number(params.max_age);
  }
  return {
    client,
    redirectURI,
    scopes,
    state,
    nonce: text(params, "nonce"),
    codeChallenge,
    prompt: prompt as Prompt[],
    maxAge,
    loginHint: text(params, "login_hint"),
    loginAfter: openLoginMarker(ctx, params.authd_login),
  };
}

/** A signed "sign in again from now on" marker for the way back from the sign-in page. */
export function loginMarker(ctx: AuthContext): string {
  const time = String(ctx.now());
  return `${time}.${hmacSha256Base64Url(ctx.secret, `oidc-login:${time}`)}`;
}

function openLoginMarker(ctx: AuthContext, marker: string | undefined): number | null {
  const [time, signature] = (marker ?? "").split(".");
  if (!time || !signature || !/^\d{1,15}$/.test(time)) return null;
  const expected = hmacSha256Base64Url(ctx.secret, `oidc-login:${time}`);
  return constantTimeEqual(signature, expected) ? Number(time) : null;
}

/** The signed-in browser this request may be answered for. */
export interface BrowserSession {
  sessionId: string;
  userId: string;
  /** When the session's user signed in (epoch ms): auth_time. */
  authTime: number;
}

export type Decision = { next: "sign-in"; fresh: boolean } | { next: "consent" } | { next: "code" };

/** What the request needs next: a (fresh) sign-in, the user's consent, or nothing more. Throws what prompt=none refuses. */
export async function decide(
  ctx: AuthContext,
  request: AuthorizationRequest,
  session: BrowserSession | null,
): Promise<Decision> {
  const silent = request.prompt.includes("none");
  if (!session) {
    if (silent) throw new OAuthError("login_required", "the user is not signed in");
    return { next: "sign-in", fresh: false };
  }
  const signedInAgain = request.loginAfter !== null && session.authTime >= request.loginAfter;
  const tooOld = request.maxAge !== null && ctx.now() - session.authTime > request.maxAge * 1000;
  if ((request.prompt.includes("login") || tooOld) && !signedInAgain) {
    if (silent) throw new OAuthError("login_required", "the sign-in is older than max_age");
    return { next: "sign-in", fresh: true };
  }
  if (await needsConsent(ctx, request, session.userId)) {
    if (silent) throw new OAuthError("consent_required", "the user has not consented to this client");
    return { next: "consent" };
  }
  return { next: "code" };
}

async function needsConsent(ctx: AuthContext, request: AuthorizationRequest, userId: string): Promise<boolean> {
  if (request.client.skipConsent) return false;
  if (request.prompt.includes("consent")) return true;
  const consent = await findOAuthConsent(ctx.db, userId, request.client.id);
  const given = new Set((consent?.scope ?? "").split(" "));
  return !request.scopes.every((scope) => given.has(scope));
}

/** `uri` with the answer's parameters added to its query (RFC 6749 §4.1.2), keeping what it already had. */
export function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.append(name, value);
  return url.href;
}
