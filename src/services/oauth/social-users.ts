import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import {
  findAccountByProvider,
  insertAccount,
  listAccountsByUserId,
  updateAccount,
} from "../../db/repositories/accounts.ts";
import type { AccountRow, Db, UserRow } from "../../db/schema.ts";
import { withTransaction } from "../../platform/transaction.ts";
import { claimAccount } from "../account-claim.ts";
import { sendVerificationEmail } from "../email-verification.ts";
import type { EventSource } from "../security-events.ts";
import { pickAdditionalFields } from "../user-fields.ts";
import { createUser, findUserByEmail, findUserById, markEmailVerified } from "../users.ts";
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
  return (
    Boolean(ctx.config.social[providerId]?.trusted) ||
    ctx.config.account.accountLinking.trustedProviders.includes(providerId)
  );
}

/** Linking an existing user is allowed when linking is on and the provider is trusted or vouches for the email. */
export function mayLinkAccount(ctx: AuthContext, providerId: string, profile: ProviderProfile): boolean {
  return ctx.config.account.accountLinking.enabled && (isTrustedProvider(ctx, providerId) || profile.emailVerified);
}

/** The account columns for a token set; undefined fields are left out so an update keeps what it had. */
export function tokenColumns(
  tokens: OAuthTokens,
): Partial<
  Pick<
    AccountRow,
    "accessToken" | "refreshToken" | "idToken" | "accessTokenExpiresAt" | "refreshTokenExpiresAt" | "scope"
  >
> {
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
  return {
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
  };
}

export async function linkAccountToUser(
  ctx: AuthContext,
  userId: string,
  providerId: string,
  accountId: string,
  tokens: OAuthTokens,
  db: Db = ctx.db,
): Promise<AccountRow> {
  const now = ctx.now();
  return insertAccount(db, {
    ...emptyTokenColumns(),
    ...tokenColumns(tokens),
    id: generateId(),
    userId,
    providerId,
    accountId,
    password: null,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Link a provider identity into a user whose email was never verified. Nobody proved they own that
 * address, so whoever signed up with it may be an attacker waiting for the real owner: in one transaction
 * the provider account is linked, the address is verified when the provider says so, and the account is
 * claimed (account-claim.ts): every credential made on it before goes, this link alone stays. This also
 * runs for a trusted provider that does not vouch for the address: the operator took its word for the link.
 */
function claimUnverifiedUser(
  ctx: AuthContext,
  user: UserRow,
  input: Pick<SocialSignInInput, "providerId" | "profile" | "tokens" | "source">,
): Promise<UserRow> {
  const { providerId, profile, tokens } = input;
  return withTransaction(ctx, async (tx) => {
    const linked = await linkAccountToUser(tx, user.id, providerId, profile.id, tokens, tx.db);
    // Another proof verified the address meanwhile (and claimed the account): this is a plain link now.
    if (profile.emailVerified && !(await markEmailVerified(tx, user.id)))
      return (await findUserById(tx, user.id)) ?? user;
    const proof = { method: "provider", provider: providerId, keepAccountId: linked.id, source: input.source } as const;
    return claimAccount(tx, user, proof);
  });
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
  /** Where the request came from: a new user's sign-up event is recorded with their creation. */
  source: EventSource;
}

export interface SocialUser {
  user: UserRow;
  isNewUser: boolean;
  /** The link made a never-verified email verified (the provider vouched for it). */
  verifiedEmail: boolean;
}

/** Sign-in through a provider: the linked user, or a newly linked existing user, or a new user. */
export async function resolveSocialUser(ctx: AuthContext, input: SocialSignInInput): Promise<SocialResult<SocialUser>> {
  const { providerId, profile, tokens } = input;
  const linked = await findAccountByProvider(ctx.db, providerId, profile.id);
  const linkedUser = linked ? await findUserById(ctx, linked.userId) : undefined;
  if (linked && linkedUser) {
    await storeTokens(ctx, linked, tokens);
    return { ok: true, value: { user: linkedUser, isNewUser: false, verifiedEmail: false } };
  }

  const existing = await findUserByEmail(ctx, profile.email);
  if (existing) {
    if (!mayLinkAccount(ctx, providerId, profile)) return { ok: false, error: "account_not_linked" };
    let user = existing;
    try {
      if (existing.emailVerified) await linkAccountToUser(ctx, existing.id, providerId, profile.id, tokens);
      else user = await claimUnverifiedUser(ctx, existing, input);
    } catch (error) {
      ctx.logger.error("unable to link a social account", { providerId, error });
      return { ok: false, error: "unable_to_link_account" };
    }
    return {
      ok: true,
      value: { user, isNewUser: false, verifiedEmail: !existing.emailVerified && Boolean(user.emailVerified) },
    };
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
      alongside: (trx, created) => linkAccountToUser(ctx, created.id, providerId, profile.id, tokens, trx),
      event: (created) => ({
        type: "sign_up",
        outcome: "success",
        method: "social",
        provider: providerId,
        userId: created.id,
        source: { ...input.source, actorType: "user", actorId: created.id },
      }),
    });
  } catch (error) {
    ctx.logger.error("unable to create a user from a social profile", { providerId, error });
    return { ok: false, error: "unable_to_create_user" };
  }
  if (!user.emailVerified && ctx.config.emailVerification.sendOnSignUp)
    await sendVerificationEmail(ctx, user, input.callbackURL);
  return { ok: true, value: { user, isNewUser: true, verifiedEmail: false } };
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
  if (!sameEmail && !ctx.config.account.accountLinking.allowDifferentEmails)
    return { ok: false, error: "email_mismatch" };
  try {
    return { ok: true, value: await linkAccountToUser(ctx, userId, providerId, profile.id, tokens) };
  } catch (error) {
    ctx.logger.error("unable to link a social account", { providerId, error });
    return { ok: false, error: "link_failed" };
  }
}

export async function findUserAccount(
  ctx: AuthContext,
  userId: string,
  match: (account: AccountRow) => boolean,
): Promise<AccountRow | undefined> {
  return (await listAccountsByUserId(ctx.db, userId)).find(match);
}
