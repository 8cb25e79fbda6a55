import { HashFormatError, type HashKind, type ImportedHash, INSECURE_KINDS } from "../../crypto/imported-hash.ts";
import { type HashFormat, normalizeHash } from "../../crypto/imported-hash-forms.ts";
import { parseEmail } from "../email-address.ts";
import { describeIssue, expandPassword, type V1Header, V1User } from "./format.ts";

// One record of any source, checked before anything is written: its shape (authd.v1's user line), its
// email, and its password hash (a kind authd verifies, within the bounds, not a weak one unless allowed).

/** authd's own hash (`saltHex:keyHex`), as `authd export --include-secrets` writes it. */
const NATIVE = /^[0-9a-f]{32}:[0-9a-f]{128}$/;

export interface PreparedRecord {
  /** Where the record is in its input ("line 12", "user 3"), for the report. */
  position: string;
  user: V1User;
  email: string;
  /** What goes into the password column, and its kind for the histogram; null without a password. */
  password: { stored: string; kind: HashKind | "authd" } | null;
  /** The parsed imported hash (null for authd's own or none): the slowest kind times unknown accounts. */
  imported: ImportedHash | null;
}

export interface PrepareOptions {
  /** Whether authd's own `saltHex:keyHex` is taken as authd's (an authd export) or as Better Auth's. */
  nativeHashes: boolean;
  allowInsecureHashes: boolean;
  hashFormat: HashFormat;
  header: Pick<V1Header, "hashConfigs">;
}

export type Prepared = { ok: true; record: PreparedRecord } | { ok: false; problem: string; email?: string };

function preparePassword(
  password: string,
  options: PrepareOptions,
): Pick<PreparedRecord, "password" | "imported"> | string {
  if (options.nativeHashes && NATIVE.test(password))
    return { password: { stored: password, kind: "authd" }, imported: null };
  let hash: ImportedHash;
  try {
    hash = normalizeHash(expandPassword(password, options.header), options.hashFormat);
  } catch (error) {
    if (error instanceof HashFormatError || error instanceof Error) return `password hash: ${error.message}`;
    throw error;
  }
  if (INSECURE_KINDS.has(hash.kind) && !options.allowInsecureHashes)
    return `password hash: ${hash.kind} is insecure; import it only with --allow-insecure-hashes`;
  return { password: { stored: hash.text, kind: hash.kind }, imported: hash };
}

/** Check one record; a problem is one line naming the field. */
export function prepareRecord(raw: unknown, position: string, options: PrepareOptions): Prepared {
  const parsed = V1User.safeParse(raw);
  const rawEmail = typeof raw === "object" && raw !== null ? (raw as { email?: unknown }).email : undefined;
  const shownEmail = typeof rawEmail === "string" ? rawEmail.slice(0, 320) : undefined;
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error), email: shownEmail };
  const user = parsed.data;
  const email = parseEmail(user.email);
  if (email === null) return { ok: false, problem: `email: not an address (${user.email})`, email: shownEmail };
  if (user.twoFactor?.totpSecret !== undefined && user.twoFactor.totpSecret.length < 16)
    return { ok: false, problem: "twoFactor.totpSecret: shorter than 16 characters", email };
  let password: PreparedRecord["password"] = null;
  let imported: ImportedHash | null = null;
  if (user.password) {
    const prepared = preparePassword(user.password, options);
    if (typeof prepared === "string") return { ok: false, problem: prepared, email };
    ({ password, imported } = prepared);
  }
  return { ok: true, record: { position, user, email, password, imported } };
}
