import type { MailKind } from "../../src/wire/mail.ts";
import type { MessageKey, Translate } from "../shared/messages/index.ts";
import type { MailBlock, MailDocument } from "./document.ts";
import type { MailVariables } from "./variables.ts";

// authd's own templates: each mail's words from the message catalogue (ui/shared/messages, the `mail.*`
// keys), in the order the mail shows them. An operator's template file for a mail and language replaces
// the mail's document whole (template-format.ts).

type Words = (part: string) => string;

function greeting(v: MailVariables, t: Translate): MailBlock {
  return { type: "paragraph", text: v.name ? t("mail.greeting", { name: v.name }) : t("mail.greetingNoName") };
}

/** A mail whose action is a link: greeting, what it is about, the button, the small print. */
function linkMail(v: MailVariables, t: Translate, words: Words, extra: MailBlock[] = []): MailBlock[] {
  return [
    greeting(v, t),
    { type: "paragraph", text: words("intro") },
    { type: "button", label: words("button"), href: v.link ?? "" },
    ...extra,
    { type: "note", text: words("outro") },
  ];
}

/** A mail that carries a code: greeting, what it is for, the code, the small print. */
function codeMail(v: MailVariables, t: Translate, words: Words, outro: MessageKey = "mail.code.outro"): MailBlock[] {
  return [
    greeting(v, t),
    { type: "paragraph", text: words("intro") },
    { type: "code", code: v.code ?? "" },
    { type: "note", text: t(outro, fill(v)) },
  ];
}

/** The values as the translator takes them (a missing one stays as written, and none is ever missing here). */
const fill = (v: MailVariables): Record<string, string> =>
  Object.fromEntries(Object.entries(v).filter((entry): entry is [string, string] => entry[1] !== null));

const PREFIX: Record<MailKind, string> = {
  "verify-email": "mail.verifyEmail",
  "confirm-email-change": "mail.confirmEmailChange",
  "reset-password": "mail.resetPassword",
  "delete-account": "mail.deleteAccount",
  "magic-link": "mail.magicLink",
  "sign-in-code": "mail.signInCode",
  "email-verification-code": "mail.emailVerificationCode",
  "password-reset-code": "mail.passwordResetCode",
  "two-factor-code": "mail.twoFactorCode",
  "two-factor-locked": "mail.twoFactorLocked",
  invitation: "mail.invitation",
};

function blocksOf(kind: MailKind, v: MailVariables, t: Translate, words: Words): MailBlock[] {
  switch (kind) {
    case "verify-email":
    case "magic-link": {
      const code: MailBlock[] = v.code
        ? [
            { type: "paragraph", text: words("codeIntro") },
            { type: "code", code: v.code },
            { type: "paragraph", text: words("codeExpiry") },
          ]
        : [];
      return linkMail(v, t, words, code);
    }
    case "confirm-email-change":
    case "reset-password":
    case "delete-account":
    case "invitation":
      return linkMail(v, t, words);
    case "sign-in-code":
    case "email-verification-code":
    case "password-reset-code":
      return codeMail(v, t, words);
    case "two-factor-code":
      return codeMail(v, t, words, "mail.twoFactorCode.outro");
    case "two-factor-locked":
      return [greeting(v, t), { type: "paragraph", text: words("intro") }, { type: "paragraph", text: words("outro") }];
  }
}

export function builtInDocument(kind: MailKind, v: MailVariables, t: Translate): MailDocument {
  const values = fill(v);
  const words: Words = (part) => t(`${PREFIX[kind]}.${part}` as MessageKey, values);
  return { subject: words("subject"), blocks: blocksOf(kind, v, t, words) };
}
