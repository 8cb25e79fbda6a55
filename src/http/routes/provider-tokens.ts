import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import type { AccountRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { refreshAccessToken } from "../../services/oauth/http.ts";
import { isProviderConfigured, requireProvider } from "../../services/oauth/providers.ts";
import { findUserAccount, storeTokens } from "../../services/oauth/social-users.ts";
import type { OAuthTokens, ResolvedProvider } from "../../services/oauth/types.ts";
import { iso } from "../../services/users.ts";
import type { ResolvedSession } from "../session.ts";
import { defineRoute } from "../route.ts";

// The provider tokens stored on a user's accounts: read (refreshed when about to expire), refreshed on
// demand, and used to ask the provider who the user is. A session sees only its own accounts; a
// server call may name the user.

const REFRESH_MARGIN_MS = 5_000;

const TokenBody = z.object({ providerId: z.string(), accountId: z.string().optional(), userId: z.string().optional() });

function targetUserId(session: ResolvedSession | null, isServer: boolean, userId: string | undefined): string {
  const resolved = session?.user.id ?? (isServer ? userId : undefined);
  if (!resolved) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  return resolved;
}

/** The user's account for the provider; `accountId` may be the row id or the provider's account id. */
async function requireAccount(ctx: AuthContext, userId: string, providerId: string, accountId: string | undefined): Promise<AccountRow> {
  const account = await findUserAccount(ctx, userId, (a) => a.providerId === providerId && (accountId === undefined || a.id === accountId || a.accountId === accountId));
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  return account;
}

async function refreshAccount(ctx: AuthContext, provider: ResolvedProvider, account: AccountRow): Promise<{ account: AccountRow; tokens: OAuthTokens }> {
  if (!account.refreshToken) throw new Error("no refresh token stored");
  const tokens = await refreshAccessToken(provider.endpoints, provider.config, {
    refreshToken: account.refreshToken,
    now: ctx.now(),
    extra: provider.definition.refreshParams?.(provider.config),
  });
  return { account: await storeTokens(ctx, account, tokens), tokens };
}

/** The account with an access token valid for at least 5 more seconds, refreshing it when needed and possible. */
async function withFreshAccessToken(ctx: AuthContext, provider: ResolvedProvider, account: AccountRow): Promise<AccountRow> {
  const expiring = account.accessTokenExpiresAt !== null && Number(account.accessTokenExpiresAt) - ctx.now() < REFRESH_MARGIN_MS;
  if (!expiring || !account.refreshToken) return account;
  try {
    return (await refreshAccount(ctx, provider, account)).account;
  } catch (error) {
    throw new AuthError("FAILED_TO_GET_ACCESS_TOKEN", { cause: error });
  }
}

export const getAccessToken = defineRoute({
  method: "POST",
  path: "/get-access-token",
  summary: "A valid access token of a linked provider account",
  description: "Refreshes the token first when it expires in under 5 seconds.",
  tags: ["Social"],
  auth: "session-or-server",
  body: TokenBody,
  handler: async ({ ctx, body, session, isServer }) => {
    const userId = targetUserId(session, isServer, body.userId);
    if (!isProviderConfigured(ctx, body.providerId)) throw new AuthError("PROVIDER_NOT_SUPPORTED", { message: `Provider ${body.providerId} is not supported.` });
    const provider = await requireProvider(ctx, body.providerId);
    const account = await withFreshAccessToken(ctx, provider, await requireAccount(ctx, userId, body.providerId, body.accountId));
    return {
      accessToken: account.accessToken ?? "",
      accessTokenExpiresAt: iso(account.accessTokenExpiresAt) ?? undefined,
      scopes: account.scope ? account.scope.split(",") : [],
      idToken: account.idToken ?? undefined,
    };
  },
});

export const refreshToken = defineRoute({
  method: "POST",
  path: "/refresh-token",
  summary: "Refresh the tokens of a linked provider account",
  tags: ["Social"],
  auth: "session-or-server",
  body: TokenBody,
  handler: async ({ ctx, body, session, isServer }) => {
    const userId = targetUserId(session, isServer, body.userId);
    const account = await requireAccount(ctx, userId, body.providerId, body.accountId);
    const provider = await requireProvider(ctx, body.providerId);
    try {
      const { account: updated, tokens } = await refreshAccount(ctx, provider, account);
      return {
        accessToken: updated.accessToken ?? undefined,
        refreshToken: updated.refreshToken ?? undefined,
        tokenType: tokens.tokenType,
        scopes: tokens.scopes,
        idToken: tokens.idToken,
        accessTokenExpiresAt: iso(updated.accessTokenExpiresAt) ?? undefined,
        refreshTokenExpiresAt: iso(updated.refreshTokenExpiresAt) ?? undefined,
      };
    } catch (error) {
      throw new AuthError("FAILED_TO_REFRESH_ACCESS_TOKEN", { cause: error });
    }
  },
});

export const accountInfo = defineRoute({
  method: "POST",
  path: "/account-info",
  summary: "What the provider says about a linked account",
  tags: ["Social"],
  auth: "session-or-server",
  body: z.object({ accountId: z.string(), userId: z.string().optional() }),
  response: z.object({ user: z.record(z.string(), z.unknown()), data: z.record(z.string(), z.unknown()) }),
  handler: async ({ ctx, body, session, isServer }) => {
    const userId = targetUserId(session, isServer, body.userId);
    const account = await findUserAccount(ctx, userId, (a) => a.accountId === body.accountId || a.id === body.accountId);
    if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
    const provider = await requireProvider(ctx, account.providerId);
    const current = await withFreshAccessToken(ctx, provider, account);
    if (!current.accessToken && !current.idToken) throw new AuthError("ACCESS_TOKEN_NOT_FOUND");
    const tokens: OAuthTokens = { accessToken: current.accessToken ?? undefined, idToken: current.idToken ?? undefined, scopes: [] };
    const profile = await provider.definition.readProfile({ tokens, endpoints: provider.endpoints, config: provider.config }).catch(() => null);
    if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
    return {
      user: { id: profile.id, name: profile.name, email: profile.email, image: profile.image, emailVerified: profile.emailVerified },
      data: profile.raw,
    };
  },
});

export const providerTokenRoutes = [getAccessToken, refreshToken, accountInfo];
