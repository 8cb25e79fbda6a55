import { decodeClaims } from "../../crypto/jwt.ts";
import { hasControlCharacters, withoutControlCharacters } from "../control-characters.ts";
import { fetchWithAccessToken } from "./http.ts";
import type { ProfileInput, ProviderProfile } from "./types.ts";

// Turning what a provider returns into one profile shape. A profile without a stable id is no
// profile: the caller treats null as "unable to get user info" and never links or signs anyone in.

type Claims = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value : typeof value === "number" ? String(value) : null;

/** Providers spell booleans as booleans or as "true" (Apple). */
const truthy = (value: unknown): boolean => value === true || value === "true";

/** Provider text is stored: an id, address or URL holding a control character is none; a name loses them. */
const clean = (value: string | null): string | null => (value !== null && hasControlCharacters(value) ? null : value);

function profile(
  id: unknown,
  fields: { email: unknown; emailVerified: boolean; name: unknown; image?: unknown },
  raw: Claims,
): ProviderProfile | null {
  const stableId = clean(text(id));
  if (!stableId) return null;
  const email = clean(text(fields.email))?.toLowerCase() ?? null;
  const name = withoutControlCharacters(text(fields.name) ?? email ?? "");
  return {
    id: stableId,
    email,
    emailVerified: email !== null && fields.emailVerified,
    name,
    image: clean(text(fields.image)),
    raw,
  };
}

/** OpenID Connect claims (from an ID token, a user-info answer or both) as a profile. */
export function profileFromClaims(claims: Claims): ProviderProfile | null {
  return profile(
    claims.sub,
    {
      email: claims.email,
      emailVerified: truthy(claims.email_verified),
      name: claims.name ?? claims.preferred_username,
      image: claims.picture,
    },
    claims,
  );
}

/**
 * The ID token from the token endpoint (received directly over TLS, so its claims are read as they are),
 * completed by the user-info endpoint when the token lacks the email. The two must name the same subject.
 */
export async function readOpenIdClaims({ tokens, endpoints, config }: ProfileInput): Promise<Claims | null> {
  const fromToken = tokens.idToken ? (decodeClaims(tokens.idToken) as Claims | null) : null;
  if (fromToken?.sub && fromToken.email) return fromToken;
  if (!endpoints.userInfoEndpoint || !tokens.accessToken) return fromToken;
  const fromUserInfo = await fetchWithAccessToken<Claims>(
    endpoints.userInfoEndpoint,
    tokens.accessToken,
    config.timeoutMs,
  );
  if (fromToken?.sub && fromUserInfo.sub !== fromToken.sub) return null;
  return { ...fromToken, ...fromUserInfo };
}

export async function readOpenIdProfile(input: ProfileInput): Promise<ProviderProfile | null> {
  const claims = await readOpenIdClaims(input);
  return claims ? profileFromClaims(claims) : null;
}

/** Microsoft's email claim is not verified by default (nOAuth): trust it only when Entra says the domain is owned. */
export async function readMicrosoftProfile(input: ProfileInput): Promise<ProviderProfile | null> {
  const claims = await readOpenIdClaims(input);
  if (!claims) return null;
  // preferred_username is a sign-in name, not an address anyone checked: never verified.
  const verified = text(claims.email) !== null && (truthy(claims.email_verified) || truthy(claims.xms_edov));
  return profile(
    claims.sub,
    {
      email: claims.email ?? claims.preferred_username,
      emailVerified: verified,
      name: claims.name,
      image: claims.picture,
    },
    claims,
  );
}

/** Apple: the ID token carries sub and email; the name comes once, as the `user` form field of the first sign-in. */
export async function readAppleProfile(input: ProfileInput): Promise<ProviderProfile | null> {
  const claims = await readOpenIdClaims(input);
  if (!claims) return null;
  let name: unknown = claims.name;
  if (input.formUser) {
    try {
      const posted = JSON.parse(input.formUser) as { name?: { firstName?: string; lastName?: string } };
      name = [posted.name?.firstName, posted.name?.lastName].filter(Boolean).join(" ") || name;
    } catch {
      // A malformed name is not worth failing the sign-in for.
    }
  }
  return profile(claims.sub, { email: claims.email, emailVerified: truthy(claims.email_verified), name }, claims);
}

interface GitHubEmail {
  email: string;
  primary?: boolean;
  verified?: boolean;
}

/** GitHub: /user, plus /user/emails for the primary address and whether it is verified. */
export async function readGitHubProfile({ tokens, endpoints, config }: ProfileInput): Promise<ProviderProfile | null> {
  if (!tokens.accessToken || !endpoints.userInfoEndpoint) return null;
  const user = await fetchWithAccessToken<Claims>(endpoints.userInfoEndpoint, tokens.accessToken, config.timeoutMs);
  let emails: GitHubEmail[] = [];
  if (endpoints.emailsEndpoint) {
    const listed = await fetchWithAccessToken<unknown>(
      endpoints.emailsEndpoint,
      tokens.accessToken,
      config.timeoutMs,
    ).catch(() => []);
    if (Array.isArray(listed)) emails = listed.filter((e): e is GitHubEmail => typeof e?.email === "string");
  }
  const email = text(user.email) ?? (emails.find((e) => e.primary) ?? emails[0])?.email ?? null;
  const verified = emails.some((e) => e.email.toLowerCase() === email?.toLowerCase() && e.verified === true);
  return profile(
    user.id,
    { email, emailVerified: verified, name: user.name ?? user.login, image: user.avatar_url },
    user,
  );
}

/** Discord: /users/@me; the avatar URL is built from the hash. */
export async function readDiscordProfile({ tokens, endpoints, config }: ProfileInput): Promise<ProviderProfile | null> {
  if (!tokens.accessToken || !endpoints.userInfoEndpoint) return null;
  const user = await fetchWithAccessToken<Claims>(endpoints.userInfoEndpoint, tokens.accessToken, config.timeoutMs);
  const id = text(user.id);
  const avatar = text(user.avatar);
  const image =
    id && avatar
      ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}`
      : null;
  return profile(
    user.id,
    { email: user.email, emailVerified: truthy(user.verified), name: user.global_name ?? user.username, image },
    user,
  );
}

/** GitLab: /api/v4/user; blocked or locked users are refused. */
export async function readGitLabProfile({ tokens, endpoints, config }: ProfileInput): Promise<ProviderProfile | null> {
  if (!tokens.accessToken || !endpoints.userInfoEndpoint) return null;
  const user = await fetchWithAccessToken<Claims>(endpoints.userInfoEndpoint, tokens.accessToken, config.timeoutMs);
  if ((user.state !== undefined && user.state !== "active") || user.locked === true) return null;
  // GitLab only lets confirmed addresses be primary; confirmed_at, when present, says so explicitly.
  const verified = user.confirmed_at === undefined ? true : user.confirmed_at !== null;
  return profile(
    user.id,
    { email: user.email, emailVerified: verified, name: user.name ?? user.username, image: user.avatar_url },
    user,
  );
}
