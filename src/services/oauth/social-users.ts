import type { AuthContext } from "../../context.ts";
import { findAccountByProvider, insertAccount, listAccountsByUserId, updateAccount } from "../../db/repositories/accounts.ts";
import { findUserByEmail, findUserById } from "../../db/repositories/users.ts";
import type { AccountRow, UserRow } from "../../db/schema.ts";
import { generateId } from "../../crypto/random.ts";
import { sendVerificationEmail } from "../email-verification.ts";
import { createUser, pickAdditionalFields } from "../users.ts";
import type { OAuthTokens, ProviderProfile } from "./types.ts";

// Who a provider profile is in authd: the user already linked to it, an existing user it may be
// linked to (§4's rules), or a new user. Failures are values carrying the spec's callback codes.

export type SocialFailure =
  | "account_not_linked"
  | "signup_disabled"
  | "unable_to_create_user"
  | "unable_to_link_account"
  | "account_already_linked_to_different_user"
  /** link-social only: the provider's email is not the user's (and different emails are not allowed). */
  | "email_mismatch"
  /** link-social only: storing the account failed. */
  | "link_failed";

export type SocialResult<T> = { ok: true; value: T } | { ok: false; error: SocialFailure };

/** The provider is trusted for linking by its own flag or by account.accountLinking.trustedProviders. */
export function isTrustedProvider(ctx: AuthContext, providerId: string): boolean {
  return Boolean(ctx.config.social[providerId]?.trusted) || ctx.config.account.accountLinking.trustedProviders.includes(providerId);
}

/** Linking an existing user is allowed when linking is on and the provider is trusted or vouches for the email. */
export function mayLinkAccount(ctx: AuthContext, providerId: string, profile: ProviderProfile): boolean {
  return ctx.config.account.accountLinking.enabled && (isTrustedProvider(ctx, providerId) || profile.emailVerified);
}

/** The account columns for a token set; undefined fields are left out so an update keeps what it had. */
export function tokenColumns(tokens: OAuthTokens): Partial<Pick<AccountRow, "accessToken" | "refreshToken" | "idToken" | "accessTokenExpiresAt" | "refreshTokenExpiresAt" | "scope">> {
  const columns = {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    scope: tokens.scopes.length > 0 ? tokens.scopes.join(",") : undefined,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

function emptyTokenColumns() {
  return { accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null };
}

export async function linkAccountToUser(ctx: AuthContext, userId: string, providerId: string, accountId: string, tokens: OAuthTokens): Promise<AccountRow> {
  const now = ctx.now();
  return insertAccount(ctx.db, { ...emptyTokenColumns(), ...tokenColumns(tokens), id: generateId(), userId, providerId, accountId, password: null, createdAt: now, updatedAt: now });
}

export async function storeTokens(ctx: AuthContext, account: AccountRow, tokens: OAuthTokens): Promise<AccountRow> {
  const columns = tokenColumns(tokens);
  if (Object.keys(columns).length === 0) return account;
  return (await updateAccount(ctx.db, account.id, { ...columns, updatedAt: ctx.now() })) ?? account;
}

export interface SocialSignInInput {
  providerId: string;
  /** The profile, with an email (callers refuse profiles without one first). */
  profile: ProviderProfile & { email: string };
  tokens: OAuthTokens;
  disableSignUp: boolean;
  callbackURL?: string;
}

/** Sign-in through a provider: the linked user, or a newly linked existing user, or a new user. */
export async function resolveSocialUser(ctx: AuthContext, input: SocialSignInInput): Promise<SocialResult<{ user: UserRow; isNewUser: boolean }>> {
  const { providerId, profile, tokens } = input;
  const linked = await findAccountByProvider(ctx.db, providerId, profile.id);
  const linkedUser = linked ? await findUserById(ctx.db, linked.userId) : undefined;
  if (linked && linkedUser) {
    await storeTokens(ctx, linked, tokens);
    return { ok: true, value: { user: linkedUser, isNewUser: false } };
  }

  const existing = await findUserByEmail(ctx.db, profile.email);
  if (existing) {
    if (!mayLinkAccount(ctx, providerId, profile)) return { ok: false, error: "account_not_linked" };
    try {
      await linkAccountToUser(ctx, existing.id, providerId, profile.id, tokens);
    } catch (error) {
      ctx.logger.error("unable to link a social account", { providerId, error });
      return { ok: false, error: "unable_to_link_account" };
    }
    return { ok: true, value: { user: existing, isNewUser: false } };
  }

  if (input.disableSignUp) return { ok: false, error: "signup_disabled" };
  let user: UserRow;
  try {
    user = await createUser(ctx, {
      email: profile.email,
      name: profile.name || profile.email,
      image: profile.image,
      emailVerified: profile.emailVerified,
      additional: pickAdditionalFields(ctx, {}, "create"),
      linkedAccount: { ...emptyTokenColumns(), ...tokenColumns(tokens), providerId, accountId: profile.id },
    });
  } catch (error) {
    ctx.logger.error("unable to create a user from a social profile", { providerId, error });
    return { ok: false, error: "unable_to_create_user" };
  }
  if (!user.emailVerified && ctx.config.emailVerification.sendOnSignUp) await sendVerificationEmail(ctx, user, input.callbackURL);
  return { ok: true, value: { user, isNewUser: true } };
}

/**
 * Attach a provider account to a signed-in user (link-social). An account already linked to the same
 * user just gets fresh tokens; one linked to someone else is refused.
 */
export async function linkSocialAccount(
  ctx: AuthContext,
  input: { userId: string; userEmail: string; providerId: string; profile: ProviderProfile; tokens: OAuthTokens },
): Promise<SocialResult<AccountRow>> {
  const { userId, providerId, profile, tokens } = input;
  const existing = await findAccountByProvider(ctx.db, providerId, profile.id);
  if (existing) {
    if (existing.userId !== userId) return { ok: false, error: "account_already_linked_to_different_user" };
    return { ok: true, value: await storeTokens(ctx, existing, tokens) };
  }
  if (!mayLinkAccount(ctx, providerId, profile)) return { ok: false, error: "unable_to_link_account" };
  const sameEmail = profile.email !== null && profile.email === input.userEmail.toLowerCase();
  if (!sameEmail && !ctx.config.account.accountLinking.allowDifferentEmails) return { ok: false, error: "email_mismatch" };
  try {
    return { ok: true, value: await linkAccountToUser(ctx, userId, providerId, profile.id, tokens) };
  } catch (error) {
    ctx.logger.error("unable to link a social account", { providerId, error });
    return { ok: false, error: "link_failed" };
  }
}

export async function findUserAccount(ctx: AuthContext, userId: string, match: (account: AccountRow) => boolean): Promise<AccountRow | undefined> {
  return (await listAccountsByUserId(ctx.db, userId)).find(match);
}
