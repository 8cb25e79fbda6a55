import type { AuthContext } from "../../context.ts";
import { generateId } from "../../crypto/random.ts";
import type { ImportedUserTable } from "../../db/import-schema.ts";
import { CREDENTIAL_PROVIDER_ID } from "../../db/repositories/accounts.ts";
import { insertAccountRows, insertImportedUserRows, insertUserRows } from "../../db/repositories/import-batch.ts";
import type { Db, NewAccountRow, NewUserRow } from "../../db/schema.ts";
import { type ConflictPolicy, decide, lookUp, type Outcome } from "./classify.ts";
import type { PreparedRecord } from "./prepare.ts";
import { userRow, writeRecord } from "./write.ts";

// A batch of records at once (issue 33: a million users in minutes): one read each for what the batch's
// source ids, emails, usernames and ids meet in the database, the same decisions (classify.ts) as for one
// record, and the plain records' rows (a user, its password account, its source mapping) written
// in multi-row inserts. A record with more (linked accounts, memberships, a second factor) or a merge goes
// through writeRecord, after what came before it is written, so the batch behaves as records in order.

/** What would happen to each record of the batch (a dry run: nothing is written). */
export async function classifyBatch(
  db: Db,
  source: string,
  records: PreparedRecord[],
  policy: ConflictPolicy,
): Promise<Outcome[]> {
  const lookup = await lookUp(db, source, records);
  return records.map((record) => decide(lookup, record, policy));
}

/** Written in the batch's inserts: a user, its password account, its links; memberships and a second factor are not. */
const isPlain = (record: PreparedRecord) => record.user.organizations.length === 0 && !record.user.twoFactor?.enabled;

function accountRow(userId: string, providerId: string, accountId: string, password: string | null, now: number) {
  return {
    id: generateId(),
    accountId,
    providerId,
    userId,
    password,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt: now,
    updatedAt: now,
  } satisfies NewAccountRow;
}

/** Write the batch in the batch's transaction `db`; the outcomes in the records' order. */
export async function writeBatch(
  ctx: AuthContext,
  db: Db,
  source: string,
  records: PreparedRecord[],
  policy: ConflictPolicy,
): Promise<Outcome[]> {
  const lookup = await lookUp(db, source, records);
  const users: NewUserRow[] = [];
  const accounts: NewAccountRow[] = [];
  const mappings: ImportedUserTable[] = [];
  const flush = async () => {
    await insertUserRows(db, users.splice(0));
    await insertAccountRows(db, accounts.splice(0));
    await insertImportedUserRows(db, mappings.splice(0));
  };
  const outcomes: Outcome[] = [];
  for (const record of records) {
    let outcome = decide(lookup, record, policy);
    if (outcome.kind === "merged" || (outcome.kind === "imported" && !isPlain(record))) {
      await flush();
      outcome = await writeRecord(ctx, db, source, record, policy);
    } else if (outcome.kind === "imported") {
      // The source's id is kept when it is free, as writeRecord keeps it.
      const id = lookup.ids.has(record.user.id) ? generateId() : record.user.id;
      const now = ctx.now();
      users.push({ ...userRow(id, record), email: record.email.toLowerCase() });
      if (record.password) accounts.push(accountRow(id, CREDENTIAL_PROVIDER_ID, id, record.password.stored, now));
      // A provider account linked to someone else already is left alone, as writeRecord leaves it.
      for (const link of record.user.accounts) {
        const key = `${link.provider} ${link.accountId}`;
        if (lookup.links.has(key)) continue;
        lookup.links.add(key);
        accounts.push(accountRow(id, link.provider, link.accountId, null, now));
      }
      mappings.push({ source, sourceId: record.user.id, userId: id, importedAt: now });
      outcome = { kind: "imported", userId: id };
    }
    if (outcome.kind === "imported" || outcome.kind === "merged") {
      lookup.known.set(record.user.id, outcome.userId);
      lookup.ids.add(outcome.userId);
      if (outcome.kind === "imported")
        lookup.byEmail.set(record.email, { id: outcome.userId, emailVerified: record.user.emailVerified });
      if (record.user.username) lookup.usernames.add(record.user.username.toLowerCase());
      for (const link of record.user.accounts) lookup.links.add(`${link.provider} ${link.accountId}`);
    }
    outcomes.push(outcome);
  }
  await flush();
  return outcomes;
}
