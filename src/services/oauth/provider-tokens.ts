import type { AuthContext } from "../../context.ts";
import type { AccountRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { iso } from "../../wire/common.ts";
import { refreshAccessToken } from "./http.ts";
import { requireProvider } from "./providers.ts";
import { findUserAccount, storeTokens } from "./social-users.ts";
import type { OAuthTokens, ResolvedProvider } from "./types.ts";

// The provider tokens stored on a user's accounts: read (refreshed when about to expire), refreshed on
// demand, and used to ask the provider who the user is.

const REFRESH_MARGIN_MS = 5_000;

/** The user's account for the provider; `accountId` may be the row id or the provider's account id. */
async function requireAccount(
  ctx: AuthContext,
  userId: string,
  providerId: string,
  accountId: string | undefined,
): Promise<AccountRow> {
  const matches = (a: AccountRow) =>
    a.providerId === providerId && (accountId === undefined || a.id === accountId || a.accountId === accountId);
  const account = await findUserAccount(ctx, userId, matches);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  return account;
}

async function refreshAccount(
  ctx: AuthContext,
  provider: ResolvedProvider,
  account: AccountRow,
): Promise<{ account: AccountRow; tokens: OAuthTokens }> {
  if (!account.refreshToken) throw new Error("no refresh token stored");
  const tokens = await refreshAccessToken(provider.endpoints, provider.config, {
    refreshToken: account.refreshToken,
    now: ctx.now(),
    extra: provider.definition.refreshParams?.(provider.config),
  });
  return { account: await storeTokens(ctx, account, tokens), tokens };
}

/** The account with an access token valid for at least 5 more seconds, refreshing it when needed and possible. */
async function withFreshAccessToken(
  ctx: AuthContext,
  provider: ResolvedProvider,
  account: AccountRow,
): Promise<AccountRow> {
  const expiring =
    account.accessTokenExpiresAt !== null && Number(account.accessTokenExpiresAt) - ctx.now() < REFRESH_MARGIN_MS;
  if (!expiring || !account.refreshToken) return account;
  try {
    return (await refreshAccount(ctx, provider, account)).account;
  } catch (error) {
    throw new AuthError("FAILED_TO_GET_ACCESS_TOKEN", { cause: error });
  }
}

export interface TokenRequest {
  userId: string;
  providerId: string;
  accountId?: string;
}

/** A valid access token of the user's account with the provider (get-access-token). */
export async function getAccessToken(ctx: AuthContext, request: TokenRequest) {
  const provider = await requireProvider(ctx, request.providerId);
  const account = await withFreshAccessToken(
    ctx,
    provider,
    await requireAccount(ctx, request.userId, request.providerId, request.accountId),
  );
  return {
    accessToken: account.accessToken ?? "",
    accessTokenExpiresAt: iso(account.accessTokenExpiresAt) ?? undefined,
    scopes: account.scope ? account.scope.split(",") : [],
    idToken: account.idToken ?? undefined,
  };
}

/** Refresh the tokens of the user's account with the provider now (refresh-token). */
export async function refreshTokens(ctx: AuthContext, request: TokenRequest) {
  const account = await requireAccount(ctx, request.userId, request.providerId, request.accountId);
  const provider = await requireProvider(ctx, request.providerId);
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
}

/** What the provider says about one of the user's linked accounts (account-info). */
export async function accountInfo(ctx: AuthContext, userId: string, accountId: string) {
  const account = await findUserAccount(ctx, userId, (a) => a.accountId === accountId || a.id === accountId);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  const provider = await requireProvider(ctx, account.providerId);
  const current = await withFreshAccessToken(ctx, provider, account);
  if (!current.accessToken && !current.idToken) throw new AuthError("ACCESS_TOKEN_NOT_FOUND");
  const tokens: OAuthTokens = {
    accessToken: current.accessToken ?? undefined,
    idToken: current.idToken ?? undefined,
    scopes: [],
  };
  const profile = await provider.definition
    .readProfile({ tokens, endpoints: provider.endpoints, config: provider.config })
    .catch(() => null);
  if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return {
    user: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      image: profile.image,
      emailVerified: profile.emailVerified,
    },
    data: profile.raw,
  };
}
