import type { MailKind } from "../../../src/wire/mail.ts";
import type { Locale } from "../../shared/messages/index.ts";
import type { ConsoleFrame } from "./frame-state.ts";

// The mail screen (/console/mail): one mail with sample values in one language, as the deployment sends it
// (the preview `authd mail preview` shows), its HTML part drawn in a frame of its own.

export interface ConsoleMailPreview {
  subject: string;
  locale: string;
  text: string;
  /** The sample link (a token that opens nothing), or null for a mail without one. */
  link: string | null;
  code: string | null;
  /** The operator's template file this mail comes from, or null: authd's own. */
  template: string | null;
  /** Where the HTML part is drawn on its own (/console/mail/html?…), for the frame. */
  htmlPath: string;
}

export interface ConsoleMailState {
  page: "console-mail";
  console: ConsoleFrame;
  /** Every mail authd sends, in the order docs/mail.md lists them. */
  mails: MailKind[];
  query: { mail: MailKind; lang: Locale };
  preview: ConsoleMailPreview;
  /** AUTH_MAIL_TEMPLATES, or null when unset. */
  templatesDir: string | null;
}
