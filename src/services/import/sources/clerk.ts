import { base32Decode, binaryTotpKey } from "../../../crypto/totp.ts";
import type { V1UserInput } from "../format.ts";
import type { RecordStream, SourceRecord } from "../run.ts";
import { csvRows } from "./csv.ts";

// Clerk: the CSV of the dashboard's user export (id, first_name, last_name, username, primary_email_address,
// verified_email_addresses, unverified_email_addresses, totp_secret, password_digest, password_hasher, …).
// Carries over: id, the primary email and whether it is among the verified ones, the name, the username, a
// TOTP secret (6 digits, 30 s, SHA-1, as Clerk's authenticator apps use), and the password digest in the
// form its password_hasher names (Clerk's own is bcrypt; users Clerk imported keep theirs). Left behind:
// phone numbers, other addresses, social connections (not in the export), creation times (not in the export).

/** The password_hasher names Clerk writes, as authd reads their digests. */
function passwordOf(digest: string, hasher: string): string | null | { problem: string } {
  if (!digest) return null;
  switch (hasher) {
    case "bcrypt":
    case "argon2i":
    case "argon2id":
    case "phpass":
    case "pbkdf2_sha256_django":
    case "pbkdf2_sha1_django":
      // Written as their own systems write them: bcrypt's $2…$, PHC argon2, phpass's $P$, Django's.
      return digest;
    case "md5":
      return digest.startsWith("$") ? digest : `$md5$${digest}`;
    default:
      return { problem: `password_hasher "${hasher || "(none)"}" is not one authd verifies` };
  }
}

/** Clerk's totp_secret is base32 of a binary key, as an authenticator app reads it: kept as such (`base32:`). */
function totpSecretOf(cell: string): string | { problem: string } {
  if (!cell) return "";
  const bytes = base32Decode(cell);
  if (!bytes || bytes.length < 10) return { problem: "totp_secret: not a base32 key of at least 80 bits" };
  return binaryTotpKey(cell);
}

/** A cell listing several addresses (Clerk separates them with | or ;). */
const listOf = (cell: string | undefined): string[] =>
  (cell ?? "")
    .split(/[|;,]/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);

export function clerkRecord(row: Record<string, string>, now: string): V1UserInput | string {
  const email = (row.primary_email_address ?? "").trim();
  if (!email) return "no primary email address (phone-only users are not carried over)";
  const password = passwordOf((row.password_digest ?? "").trim(), (row.password_hasher ?? "").trim());
  if (password && typeof password === "object") return password.problem;
  const totpSecret = totpSecretOf((row.totp_secret ?? "").trim());
  if (typeof totpSecret === "object") return totpSecret.problem;
  return {
    id: row.id || email.toLowerCase(),
    email,
    emailVerified: listOf(row.verified_email_addresses).includes(email.toLowerCase()),
    name: [row.first_name, row.last_name]
      .map((part) => (part ?? "").trim())
      .filter(Boolean)
      .join(" "),
    username: (row.username ?? "").trim() || null,
    createdAt: now,
    updatedAt: now,
    password,
    twoFactor: totpSecret ? { enabled: true, totpSecret, backupCodes: [] } : null,
  };
}

export function openClerk(file: string): RecordStream {
  const now = new Date().toISOString();
  return {
    header: { hashConfigs: {} },
    async *records(): AsyncGenerator<SourceRecord> {
      let header: string[] | null = null;
      for await (const { line, cells } of csvRows(file)) {
        if (!header) {
          header = cells.map((name) => name.trim());
          continue;
        }
        const row: Record<string, string> = {};
        for (const [at, name] of header.entries()) row[name] = cells[at] ?? "";
        const record = clerkRecord(row, now);
        const position = `line ${line}`;
        yield typeof record === "string" ? { position, problem: record } : { position, record };
      }
    },
  };
}
