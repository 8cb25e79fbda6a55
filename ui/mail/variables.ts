import type { MailKind, MailMessage } from "../../src/wire/mail.ts";
import type { Locale, Translate } from "../shared/messages/index.ts";

// The variables a mail's template fills in: the message's values as words in the mail's language (a
// lifetime as "15 minutes", a time as a date), plus the app's name. The built-in templates and an operator's
// own (template-format.ts) read the same ones; docs/mail.md lists them per mail.

export type MailVariables = Record<string, string | null>;

interface VariableRules {
  /** Every variable the mail has. */
  names: readonly string[];
  /** The ones a template must show: the link or the code the mail exists to carry. */
  required: readonly string[];
  /** The ones that may be missing from a message (a template shows them inside a `{{#name}}` section). */
  optional: readonly string[];
}

const COMMON = ["appName", "email"] as const;
const rules = (names: string[], required: string[], optional: string[] = []): VariableRules => ({
  names: [...COMMON, ...names],
  required,
  optional,
});

export const MAIL_VARIABLES: Record<MailKind, VariableRules> = {
  "verify-email": rules(["name", "link", "expiresIn", "code", "codeExpiresIn"], ["link"], ["code", "codeExpiresIn"]),
  "confirm-email-change": rules(["name", "newEmail", "link", "expiresIn"], ["link"]),
  "reset-password": rules(["name", "link", "expiresIn"], ["link"]),
  "delete-account": rules(["name", "link", "expiresIn"], ["link"]),
  "magic-link": rules(["link", "expiresIn", "code", "codeExpiresIn"], ["link"], ["code", "codeExpiresIn"]),
  "sign-in-code": rules(["code", "expiresIn"], ["code"]),
  "email-verification-code": rules(["code", "expiresIn"], ["code"]),
  "password-reset-code": rules(["code", "expiresIn"], ["code"]),
  "two-factor-code": rules(["name", "code", "expiresIn"], ["code"]),
  "two-factor-locked": rules(["name", "failures", "lockedFor", "lockedUntil"], []),
  invitation: rules(["inviterName", "inviterEmail", "organizationName", "role", "link", "expiresAt"], ["link"]),
};

/** A lifetime in words: whole days from two days up, whole hours, else minutes (at least one). */
export function describeDuration(seconds: number, t: Translate): string {
  if (seconds >= 172_800 && seconds % 86_400 === 0) return t("mail.duration.days", { count: seconds / 86_400 });
  if (seconds >= 3600 && seconds % 3600 === 0) {
    const hours = seconds / 3600;
    return hours === 1 ? t("mail.duration.hour") : t("mail.duration.hours", { count: hours });
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? t("mail.duration.minute") : t("mail.duration.minutes", { count: minutes });
}

/** A moment in the mail's language, in UTC (the mail cannot know the reader's time zone). */
export function describeMoment(ms: number, locale: Locale): string {
  const text = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(ms);
  return `${text} UTC`;
}

/** The variables of one message in one language. */
export function mailVariables(message: MailMessage, locale: Locale, t: Translate, appName: string): MailVariables {
  const common = { appName, email: message.values.email };
  switch (message.kind) {
    case "verify-email":
    case "magic-link":
      return { ...common, ...linkVariables(message.values, t), ...codeBesideLink(message.values, t) };
    case "confirm-email-change":
      return { ...common, ...linkVariables(message.values, t), newEmail: message.values.newEmail };
    case "reset-password":
    case "delete-account":
      return { ...common, ...linkVariables(message.values, t) };
    case "sign-in-code":
    case "email-verification-code":
    case "password-reset-code":
    case "two-factor-code": {
      const v = message.values;
      const name: MailVariables = "name" in v ? { name: v.name } : {};
      return { ...common, ...name, code: v.code, expiresIn: describeDuration(v.codeExpiresIn, t) };
    }
    case "two-factor-locked": {
      const v = message.values;
      return {
        ...common,
        name: v.name,
        failures: String(v.failures),
        lockedFor: describeDuration(v.lockedFor, t),
        lockedUntil: describeMoment(v.lockedUntil, locale),
      };
    }
    case "invitation": {
      const v = message.values;
      return {
        ...common,
        inviterName: v.inviterName,
        inviterEmail: v.inviterEmail,
        organizationName: v.organizationName,
        role: v.role,
        link: v.link,
        expiresAt: describeMoment(v.expiresAt, locale),
      };
    }
  }
}

function linkVariables(values: { name?: string; link: string; linkExpiresIn: number }, t: Translate): MailVariables {
  const name: MailVariables = values.name === undefined ? {} : { name: values.name };
  return { ...name, link: values.link, expiresIn: describeDuration(values.linkExpiresIn, t) };
}

/** The code a link's mail carries beside it (while email codes are on), or nulls. */
function codeBesideLink(values: { code: string | null; codeExpiresIn: number | null }, t: Translate): MailVariables {
  const { code, codeExpiresIn } = values;
  return { code, codeExpiresIn: code && codeExpiresIn !== null ? describeDuration(codeExpiresIn, t) : null };
}
