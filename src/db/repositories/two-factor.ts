import type { Db, TwoFactorRow } from "../schema.ts";

export function findTwoFactor(db: Db, userId: string): Promise<TwoFactorRow | undefined> {
  return db.selectFrom("twoFactor").selectAll().where("userId", "=", userId).executeTakeFirst();
}

/** Replace the user's row (enable again: new secret, new codes). Run inside a transaction. */
export async function replaceTwoFactor(db: Db, row: TwoFactorRow): Promise<void> {
  await db.deleteFrom("twoFactor").where("userId", "=", row.userId).execute();
  await db.insertInto("twoFactor").values(row).execute();
}

export async function deleteTwoFactor(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("twoFactor").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Swap the stored backup codes, only if they are still `expected`: of two concurrent uses, one wins. */
export async function replaceBackupCodesIf(
  db: Db,
  userId: string,
  expected: string,
  replacement: string,
): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ backupCodes: replacement })
    .where("userId", "=", userId)
    .where("backupCodes", "=", expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Record `step` as used, only if no step as new or newer was: of two uses of one code, one wins. */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ lastUsedStep: step })
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("lastUsedStep", "is", null), eb("lastUsedStep", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setBackupCodes(db: Db, userId: string, backupCodes: string): Promise<boolean> {
  const result = await db.updateTable("twoFactor").set({ backupCodes }).where("userId", "=", userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The sealed columns of up to `limit` rows after `afterUserId` (by user id): a rotation walks them in pages. */
export function listSealedTwoFactors(
  db: Db,
  afterUserId: string,
  limit: number,
): Promise<Pick<TwoFactorRow, "userId" | "secret" | "backupCodes">[]> {
  return db
    .selectFrom("twoFactor")
    .select(["userId", "secret", "backupCodes"])
    .where("userId", ">", afterUserId)
    .orderBy("userId")
    .limit(limit)
    .execute();
}

/** Swap both sealed columns, only if neither changed since they were read (a use or a re-enrolment wins). */
export async function replaceSealedTwoFactorIf(
  db: Db,
  userId: string,
  expected: { secret: string; backupCodes: string },
  replacement: { secret: string; backupCodes: string },
): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set(replacement)
    .where("userId", "=", userId)
    .where("secret", "=", expected.secret)
    .where("backupCodes", "=", expected.backupCodes)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
