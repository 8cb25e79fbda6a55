import { Command } from "commander";
import * as z from "zod";
import { maskURLPassword } from "../../config/masking.ts";
import { LANGUAGES } from "../../config/pages-schema.ts";
import type { Config } from "../../config/schema.ts";
import { dependencyError } from "../../dependencies.ts";
import { registerFeatures } from "../../features.ts";
import { createLogger } from "../../logger.ts";
import { createMailer, DeliveryFailed } from "../../mailer.ts";
import { isValidEmail } from "../../services/email-address.ts";
import { type MailPreview, previewMail } from "../../services/mail/preview.ts";
import { MAIL_KINDS, type MailKind, mailHeaders } from "../../wire/mail.ts";
import { assertMailTemplates, createCommand, loadCommandConfig, parseFlags, printJSON, UserError } from "../shared.ts";

// `authd mail`: see a mail as a user would get it, with made-up values (preview), or send one through the
// configured SMTP server to check the settings and the look in a real mail client (send-test). Neither opens
// the database. Both use the operator's templates when AUTH_MAIL_TEMPLATES is set, refusing broken ones as
// `serve` would.

const Kind = z.enum(MAIL_KINDS as [MailKind, ...MailKind[]], {
  error: `expected one of ${MAIL_KINDS.join(", ")}`,
});
const Language = z.enum(LANGUAGES, { error: `expected one of ${LANGUAGES.join(", ")}` }).optional();

/**
 * A mail with sample values, in `language` (else AUTH_DEFAULT_LANGUAGE), as it would be sent: the operator's
 * templates checked first, as `serve` checks them, since no daemon did here.
 */
async function checkedPreview(config: Config, kind: MailKind, language?: string, to?: string) {
  await assertMailTemplates(config);
  registerFeatures();
  return previewMail(config, kind, language, to);
}

/** A positional argument, checked as a flag is: bad usage (exit 2) names it. */
function argument<T extends z.ZodType>(name: string, schema: T, value: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UserError(`<${name}>: ${parsed.error.issues[0]?.message}`, 2);
  return parsed.data;
}

const PreviewFlags = z
  .object({
    lang: Language,
    html: z.boolean().optional(),
    text: z.boolean().optional(),
    json: z.boolean().optional(),
    config: z.string().optional(),
  })
  .refine((flags) => !(flags.html && flags.text), { message: "choose --html or --text, not both", path: ["html"] });

function printPreview(kind: MailKind, mail: MailPreview, flags: z.infer<typeof PreviewFlags>): void {
  if (flags.json) printJSON({ mail: kind, language: mail.locale, ...mail });
  else if (flags.html) process.stdout.write(`${mail.html}\n`);
  else if (flags.text) process.stdout.write(mail.text);
  else process.stdout.write(`Subject: ${mail.subject}\nLanguage: ${mail.locale}\n\n${mail.text}`);
}

const preview = createCommand("preview", "show a mail with sample values: subject and plain text, or one part")
  .argument("<mail>", `the mail: ${MAIL_KINDS.join(", ")}`)
  .option("--lang <language>", `language (${LANGUAGES.join(", ")}); default AUTH_DEFAULT_LANGUAGE`)
  .option("--html", "print only the HTML part")
  .option("--text", "print only the plain-text part")
  .option("--json", "print subject, text and HTML as JSON")
  .action(async (name: string, raw) => {
    const mail = argument("mail", Kind, name);
    const flags = parseFlags(PreviewFlags, raw);
    const config = loadCommandConfig(flags);
    printPreview(mail, await checkedPreview(config, mail, flags.lang), flags);
  });

const Address = z.string().refine(isValidEmail, "expected an email address");

const SendTestFlags = z.object({
  mail: Kind.default("verify-email"),
  lang: Language,
  json: z.boolean().optional(),
  config: z.string().optional(),
});

/** Send one sample mail through the configured SMTP server, or say why it was not taken. */
export async function sendTestMail(config: Config, address: string, flags: z.infer<typeof SendTestFlags>) {
  if (!config.smtpURL)
    throw new UserError("AUTH_SMTP_URL is not set: without it mails only go to the log; set it to send a test mail");
  const { link: _link, code: _code, ...rendered } = await checkedPreview(config, flags.mail, flags.lang, address);
  const logger = createLogger({ level: "warn", format: config.logFormat });
  const mailer = createMailer({
    smtpURL: config.smtpURL,
    from: config.mailFrom,
    timeoutMs: config.smtpTimeoutMs,
    logger,
  });
  try {
    await mailer.verify().catch((error: unknown) => {
      throw dependencyError(config.smtpURL ?? "", error);
    });
    await mailer.deliver({ to: address, ...rendered, kind: flags.mail, headers: mailHeaders(flags.mail) });
  } catch (error) {
    if (error instanceof DeliveryFailed) throw new UserError(`the SMTP server did not take the mail: ${error.message}`);
    throw error;
  } finally {
    mailer.close();
  }
  return {
    sent: true,
    mail: flags.mail,
    language: rendered.locale,
    to: address,
    via: maskURLPassword(config.smtpURL),
  };
}

const sendTest = createCommand("send-test", "send a mail with sample values through the configured SMTP server")
  .argument("<address>", "where to send it")
  .option("--mail <mail>", `which mail (${MAIL_KINDS.join(", ")})`, "verify-email")
  .option("--lang <language>", `language (${LANGUAGES.join(", ")}); default AUTH_DEFAULT_LANGUAGE`)
  .option("--json", "print only JSON")
  .action(async (to: string, raw) => {
    const address = argument("address", Address, to);
    const flags = parseFlags(SendTestFlags, raw);
    const sent = await sendTestMail(loadCommandConfig(flags), address, flags);
    if (flags.json) return printJSON(sent);
    process.stdout.write(`sent ${sent.mail} (${sent.language}) to ${sent.to} via ${sent.via}\n`);
  });

export const mailCommand = new Command("mail")
  .description("preview the mails authd sends, and test the SMTP settings")
  .addCommand(preview)
  .addCommand(sendTest);
