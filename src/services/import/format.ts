import * as z from "zod";
import { LANGUAGES } from "../../config/pages-schema.ts";
import { fromFirebase } from "../../crypto/imported-hash-forms.ts";

// authd's interchange format, `authd.v1` (issue 33): JSON Lines, a header line and then one line per user.
// `authd export` writes it, `authd import authd` reads it, and every other source is read into the same
// user shape (V1User) before anything is written, so one path checks and writes them all. docs/import.md
// describes each field.

export const FORMAT = "authd.v1";

const FirebaseConfig = z.object({
  kind: z.literal("firebase-scrypt"),
  signerKey: z.string().max(2048),
  saltSeparator: z.string().max(2048),
  rounds: z.number().int(),
  memCost: z.number().int(),
});

export const V1Header = z.object({
  format: z.literal(FORMAT),
  exportedAt: z.string().optional(),
  source: z.string().optional(),
  /** How many user lines follow (progress and a check that the file is whole). */
  users: z.number().int().min(0),
  /** Whether the file holds password hashes, TOTP secrets and backup codes. */
  secrets: z.boolean().default(false),
  /**
   * Hash configurations stored once for many users: a password `$firebase-scrypt$config=NAME$salt$key`
   * takes its signer key, separator, rounds and memory cost from `hashConfigs.NAME`.
   */
  hashConfigs: z.record(z.string(), FirebaseConfig).default({}),
});
export type V1Header = z.infer<typeof V1Header>;

const text = (max: number) => z.string().max(max);
const isoDate = z.iso.datetime({ offset: true });

export const V1User = z.object({
  /** The user's id in the source (kept as authd's id when it is free). */
  id: text(255).min(1),
  email: text(320).min(3),
  emailVerified: z.boolean(),
  name: text(1024),
  image: text(4096).nullable().default(null),
  username: text(255).nullable().default(null),
  displayUsername: text(255).nullable().default(null),
  role: text(255).nullable().default(null),
  /** The language the user chose for authd's pages and mails (one authd has a catalogue for), or null. */
  language: z.enum(LANGUAGES).nullable().default(null),
  banned: z.boolean().default(false),
  banReason: text(1024).nullable().default(null),
  banExpires: isoDate.nullable().default(null),
  metadata: z.record(z.string(), z.unknown()).nullable().default(null),
  createdAt: isoDate,
  updatedAt: isoDate,
  /** A tagged hash (docs/import.md), authd's own `saltHex:keyHex`, or absent (no password, or not exported). */
  password: text(4096).nullable().optional(),
  /** Linked social accounts: the provider's id and the user's id there. */
  accounts: z.array(z.object({ provider: text(255).min(1), accountId: text(255).min(1) })).default([]),
  twoFactor: z
    .object({
      enabled: z.boolean(),
      totpSecret: text(512).optional(),
      backupCodes: z.array(text(128)).max(100).optional(),
    })
    .nullable()
    .default(null),
  organizations: z
    .array(z.object({ id: text(255).min(1), slug: text(255).min(1), name: text(1024), role: text(255).min(1) }))
    .default([]),
});
export type V1User = z.infer<typeof V1User>;
export type V1UserInput = z.input<typeof V1User>;

/** The first problem zod found, as one line naming the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.join(".") || "line";
  return `${path}: ${issue?.message ?? "invalid"}`;
}

/** Resolve a `config=NAME` Firebase password against the header's configurations. */
export function expandPassword(password: string, header: Pick<V1Header, "hashConfigs">): string {
  const match = /^\$firebase-scrypt\$config=([^$]+)\$([^$]*)\$([^$]*)$/.exec(password);
  if (!match) return password;
  const config = header.hashConfigs[match[1]];
  if (!config) throw new Error(`no hash configuration "${match[1]}" in the header`);
  return fromFirebase(config, match[2], match[3]);
}
