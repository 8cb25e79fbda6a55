import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import {
  findAccountByProvider,
  insertAccountWithoutTokens,
  insertCredentialAccount,
} from "../../db/repositories/accounts.ts";
import { insertImportedUser } from "../../db/repositories/imported-users.ts";
import {
  findMember,
  findOrganizationById,
  findOrganizationBySlug,
  insertMember,
  insertOrganization,
} from "../../db/repositories/organizations.ts";
import { findUserById } from "../../db/repositories/users.ts";
import type { Db, UserRow } from "../../db/schema.ts";
import { storeTwoFactor } from "../two-factor/store.ts";
import { insertImportedUserRow } from "../users.ts";
import { type ConflictPolicy, decide, lookUp, type Outcome } from "./classify.ts";
import type { V1User } from "./format.ts";
import type { PreparedRecord } from "./prepare.ts";

// What one checked record does to the database, inside the batch's transaction. A record already imported
// from the same source (same source id) changes nothing; an email that belongs to a user already is a
// conflict the operator decides (skip, merge, fail). Merging never touches the existing user's password,
// second factor or profile: it adds the source id, linked accounts and memberships, and only when both
// sides have proven the address (else whoever controls the import file could take over the account).

export type { ConflictPolicy, Outcome } from "./classify.ts";

/** What would happen to `record` (nothing is written). */
export async function classifyRecord(
  db: Db,
  source: string,
  record: PreparedRecord,
  policy: ConflictPolicy,
): Promise<Outcome> {
  return decide(await lookUp(db, source, [record]), record, policy);
}

const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));

export function userRow(id: string, record: PreparedRecord): UserRow {
  const { user } = record;
  return {
    id,
    name: user.name,
    email: record.email,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt: Date.parse(user.createdAt),
    updatedAt: Date.parse(user.updatedAt),
    username: user.username?.toLowerCase() ?? null,
    displayUsername: user.username ? (user.displayUsername ?? user.username) : null,
    role: user.role,
    banned: user.banned,
    banReason: user.banReason,
    banExpires: time(user.banExpires),
    additionalFields: user.metadata && Object.keys(user.metadata).length > 0 ? JSON.stringify(user.metadata) : null,
    twoFactorEnabled: user.twoFactor?.enabled && user.twoFactor.totpSecret ? true : null,
    language: user.language,
  };
}

/** Linked accounts and memberships; a provider account linked to someone else already is left alone. */
async function addLinks(ctx: AuthContext, db: Db, userId: string, user: V1User): Promise<void> {
  const now = ctx.now();
  for (const link of user.accounts) {
    if (await findAccountByProvider(db, link.provider, link.accountId)) continue;
    await insertAccountWithoutTokens(db, {
      id: generateId(),
      userId,
      providerId: link.provider,
      accountId: link.accountId,
      password: null,
      now,
    });
  }
  for (const membership of user.organizations) {
    let organization =
      (await findOrganizationById(db, membership.id)) ?? (await findOrganizationBySlug(db, membership.slug));
    organization ??= await insertOrganization(db, {
      id: membership.id,
      name: membership.name,
      slug: membership.slug,
      logo: null,
      metadata: null,
      createdAt: now,
    });
    if (await findMember(db, organization.id, userId)) continue;
    await insertMember(db, {
      id: generateId(),
      organizationId: organization.id,
      userId,
      role: membership.role,
      teamId: null,
      createdAt: now,
    });
  }
}

/** Write one record in the batch's transaction (`db`), as classifyRecord found it there. */
export async function writeRecord(
  ctx: AuthContext,
  db: Db,
  source: string,
  record: PreparedRecord,
  policy: ConflictPolicy,
): Promise<Outcome> {
  const outcome = await classifyRecord(db, source, record, policy);
  const mapping = (userId: string) =>
    insertImportedUser(db, { source, sourceId: record.user.id, userId, importedAt: ctx.now() });
  if (outcome.kind === "merged") {
    await addLinks(ctx, db, outcome.userId, record.user);
    await mapping(outcome.userId);
  }
  if (outcome.kind !== "imported") return outcome;
  // The source's id is kept when it is free, so the applications' own references to users stay valid.
  const id = (await findUserById(db, record.user.id)) ? generateId() : record.user.id;
  await insertImportedUserRow(db, userRow(id, record));
  if (record.password)
    await insertCredentialAccount(db, {
      id: generateId(),
      userId: id,
      password: record.password.stored,
      now: ctx.now(),
    });
  const twoFactor = record.user.twoFactor;
  if (twoFactor?.enabled && twoFactor.totpSecret)
    await storeTwoFactor(ctx, db, id, twoFactor.totpSecret, twoFactor.backupCodes ?? []);
  await addLinks(ctx, db, id, record.user);
  await mapping(id);
  return { kind: "imported", userId: id };
}
