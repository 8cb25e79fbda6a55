import type { MailMessage } from "../../src/wire/mail.ts";
import { type Locale, pickLocale, translator } from "../shared/messages/index.ts";
import { builtInDocument } from "./built-in.ts";
import type { MailBranding, MailDocument } from "./document.ts";
import { renderHtmlPart } from "./layout.tsx";
import { renderTextPart } from "./plain-text.ts";
import { loadMailTemplates, templateKey } from "./template-dir.ts";
import { fillTemplate } from "./template-format.ts";
import { mailVariables } from "./variables.ts";

// A mail message (src/wire/mail.ts) as it is sent: subject, plain text and HTML, in the recipient's
// language, from the operator's template for that mail and language when there is one, else authd's own.
// The daemon loads this module (and React's server renderer with it) with the first mail it sends.

export interface RenderOptions {
  /** The user's language, when authd knows one. */
  language?: string | null;
  /** The Accept-Language of the request that caused the mail, if it was the recipient's. */
  acceptLanguage?: string | null;
  /** AUTH_DEFAULT_LANGUAGE: when neither of the above names a language authd has. */
  defaultLanguage: Locale;
  branding: MailBranding;
  /** AUTH_MAIL_TEMPLATES. */
  templatesDir?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  locale: Locale;
}

export class MailTemplatesUnusable extends Error {
  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "MailTemplatesUnusable";
  }
}

function documentOf(message: MailMessage, locale: Locale, options: RenderOptions) {
  const t = translator(locale);
  const variables = mailVariables(message, locale, t, options.branding.appName);
  let document: MailDocument | undefined;
  if (options.templatesDir) {
    const { templates, problems } = loadMailTemplates(options.templatesDir);
    // `serve` refuses to start with these; a context opened otherwise (tests, a command) must not send
    // authd's own words instead of the operator's without a word either.
    if (problems.length > 0) throw new MailTemplatesUnusable(problems);
    const template = templates.get(templateKey(message.kind, locale));
    if (template) document = fillTemplate(template, variables);
  }
  return { t, variables, document: document ?? builtInDocument(message.kind, variables, t) };
}

export function renderMail(message: MailMessage, options: RenderOptions): RenderedMail {
  const locale = pickLocale(options.acceptLanguage, options.defaultLanguage, options.language);
  const { t, document } = documentOf(message, locale, options);
  // A subject is one line: a value with a line break in it (a name) must not start a new header.
  const subject = document.subject.replace(/[\r\n\t]+/g, " ").trim();
  const footer = t("mail.footer", { appName: options.branding.appName, email: message.to });
  const ready = { ...document, subject };
  return {
    subject,
    text: renderTextPart(ready, footer),
    html: renderHtmlPart({ document: ready, branding: options.branding, locale, t, footer }),
    locale,
  };
}
