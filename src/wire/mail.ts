import * as z from "zod";

// The mails authd sends, as data: which mail, to whom, and the values its template fills in. The services
// make them; the mail renderer (ui/mail/) turns one into a subject, a plain-text part and an HTML part in
// the recipient's language; the development outbox and `authd mail preview` show them. Nothing travels here
// that the mail does not show: no secret but the one link or code the mail exists to carry.

const text = z.string();
/** A lifetime in seconds, written out in words by the renderer ("15 minutes", "1 Stunde"). */
const seconds = z.number().int().nonnegative();

const recipient = { name: text, email: text };

export const MAIL_VALUES = {
  /** Confirm an address: after sign-up, on request, after an email change, and when a sign-in needs it. */
  "verify-email": z.object({
    ...recipient,
    link: text,
    linkExpiresIn: seconds,
    /** An email-verification code to type instead of opening the link (only while email codes are on). */
    code: text.nullable(),
    codeExpiresIn: seconds.nullable(),
  }),
  /** Approve a new address, mailed to the current one. */
  "confirm-email-change": z.object({ ...recipient, newEmail: text, link: text, linkExpiresIn: seconds }),
  "reset-password": z.object({ ...recipient, link: text, linkExpiresIn: seconds }),
  "delete-account": z.object({ ...recipient, link: text, linkExpiresIn: seconds }),
  "magic-link": z.object({
    email: text,
    link: text,
    linkExpiresIn: seconds,
    /** A sign-in code to type instead of opening the link (only while email codes are on). */
    code: text.nullable(),
    codeExpiresIn: seconds.nullable(),
  }),
  "sign-in-code": z.object({ email: text, code: text, codeExpiresIn: seconds }),
  "email-verification-code": z.object({ email: text, code: text, codeExpiresIn: seconds }),
  "password-reset-code": z.object({ email: text, code: text, codeExpiresIn: seconds }),
  "two-factor-code": z.object({ ...recipient, code: text, codeExpiresIn: seconds }),
  /** A security notice: the second factor was locked after too many wrong codes. */
  "two-factor-locked": z.object({
    ...recipient,
    failures: z.number().int(),
    lockedFor: seconds,
    /** Epoch milliseconds. */
    lockedUntil: z.number(),
  }),
  invitation: z.object({
    email: text,
    inviterName: text,
    inviterEmail: text,
    organizationName: text,
    role: text,
    link: text,
    /** Epoch milliseconds. */
    expiresAt: z.number(),
  }),
} as const;

export type MailKind = keyof typeof MAIL_VALUES;
export const MAIL_KINDS = Object.keys(MAIL_VALUES) as MailKind[];
export const isMailKind = (value: unknown): value is MailKind => typeof value === "string" && value in MAIL_VALUES;

export type MailValues<K extends MailKind = MailKind> = z.output<(typeof MAIL_VALUES)[K]>;

/** One mail to send: its kind, the address it goes to, and its values. */
export type MailMessage = { [K in MailKind]: { kind: K; to: string; values: MailValues<K> } }[MailKind];

/**
 * Mails about what someone else did (an invitation, a lock set by whoever typed wrong codes): the request
 * that caused them is not the recipient's, so its Accept-Language does not choose their language.
 */
export const MAILS_ABOUT_OTHERS: ReadonlySet<MailKind> = new Set(["invitation", "two-factor-locked"]);

/** The email-code mails by the `type` the API names their codes with (POST /email-otp/send-verification-otp). */
export const OTP_TYPE_OF_MAIL: Partial<Record<MailKind, string>> = {
  "sign-in-code": "sign-in",
  "email-verification-code": "email-verification",
  "password-reset-code": "forget-password",
};

/**
 * Headers that say which mail it is, for filters and tests that look for one kind of mail in any language:
 * X-Authd-Mail (the mail), and on an email code's mail X-Authd-Otp-Type (its type as the API names it).
 */
export function mailHeaders(kind: MailKind): Record<string, string> {
  const otpType = OTP_TYPE_OF_MAIL[kind];
  return { "X-Authd-Mail": kind, ...(otpType ? { "X-Authd-Otp-Type": otpType } : {}) };
}

/** The link a mail carries, if it is one that carries a link. */
export function linkOf(message: MailMessage): string | null {
  return "link" in message.values ? message.values.link : null;
}

/** The code a mail carries, if any (the verification and magic-link mails' only while email codes are on). */
export function codeOf(message: MailMessage): string | null {
  return "code" in message.values ? message.values.code : null;
}

/** A mail as the development outbox keeps it: rendered, with its link and code picked out. */
export const OutboxMailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  locale: z.string(),
  /** Epoch milliseconds. */
  sentAt: z.number(),
  link: z.string().nullable(),
  code: z.string().nullable(),
  text: z.string(),
  html: z.string(),
});
export type OutboxMail = z.output<typeof OutboxMailSchema>;
