import {
  findImportedUserIds,
  findLinkedAccountKeys,
  findTakenUserIds,
  findTakenUsernames,
  findUsersByEmails,
} from "../../db/repositories/import-batch.ts";
import type { Db } from "../../db/schema.ts";
import type { PreparedRecord } from "./prepare.ts";

// What a record does to the database, decided before anything is written: already imported from this
// source (unchanged), its email taken (a conflict, or a merge when the policy and both sides allow), its
// username taken (refused), or new. One read per question for a whole batch (lookUp), then `decide` per
// record; write.ts and write-batch.ts both decide here.

export type ConflictPolicy = "skip" | "merge" | "fail";

export type Outcome =
  | { kind: "imported"; userId: string }
  | { kind: "unchanged"; userId: string }
  | { kind: "merged"; userId: string }
  | { kind: "conflict"; problem: string }
  | { kind: "refused"; problem: string };

export interface Lookup {
  known: Map<string, string>;
  byEmail: Map<string, { id: string; emailVerified: boolean }>;
  usernames: Set<string>;
  ids: Set<string>;
  /** Provider accounts (`provider accountId`) linked to a user already: a link to one is left alone. */
  links: Set<string>;
}

export async function lookUp(db: Db, source: string, records: PreparedRecord[]): Promise<Lookup> {
  const usernames = records.map((r) => r.user.username?.toLowerCase()).filter((u): u is string => Boolean(u));
  const links = records.flatMap((r) => r.user.accounts);
  const [known, existing, takenUsernames, ids, linked] = await Promise.all([
    findImportedUserIds(
      db,
      source,
      records.map((r) => r.user.id),
    ),
    findUsersByEmails(
      db,
      records.map((r) => r.email),
    ),
    findTakenUsernames(db, usernames),
    findTakenUserIds(
      db,
      records.map((r) => r.user.id),
    ),
    findLinkedAccountKeys(db, links),
  ]);
  const byEmail = new Map(
    existing.map((row) => [row.email, { id: row.id, emailVerified: Boolean(row.emailVerified) }]),
  );
  return { known, byEmail, usernames: takenUsernames, ids, links: linked };
}

/** The decision for `record`, from what the lookup found (and what the batch added to it). */
export function decide(lookup: Lookup, record: PreparedRecord, policy: ConflictPolicy): Outcome {
  const known = lookup.known.get(record.user.id);
  if (known) return { kind: "unchanged", userId: known };
  const existing = lookup.byEmail.get(record.email);
  if (existing) {
    if (policy !== "merge") return { kind: "conflict", problem: "email belongs to an existing user" };
    if (!existing.emailVerified || !record.user.emailVerified)
      return { kind: "refused", problem: "email belongs to an existing user; merge needs both sides verified" };
    return { kind: "merged", userId: existing.id };
  }
  if (record.user.username && lookup.usernames.has(record.user.username.toLowerCase()))
    return { kind: "refused", problem: "username belongs to an existing user" };
  return { kind: "imported", userId: "" };
}
