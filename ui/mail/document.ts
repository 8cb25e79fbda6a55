// A mail's content before it is drawn: a subject and a few blocks. The built-in templates (built-in.ts) and
// an operator's template files (template-format.ts) both produce one; the HTML part (layout.tsx) and the
// plain-text part (plain-text.ts) are both drawn from it, so the two parts always say the same thing. Every
// string here is plain text with the values already filled in: it is escaped when drawn as HTML.

export type MailBlock =
  /** Text; a "\n" inside is a line break. */
  | { type: "paragraph"; text: string }
  /** The mail's action: a button in HTML, the label and the address on lines of their own in plain text. */
  | { type: "button"; label: string; href: string }
  /** A one-time code, large in HTML, alone on its line in plain text. */
  | { type: "code"; code: string }
  /** Small print under the rest. */
  | { type: "note"; text: string };

export interface MailDocument {
  subject: string;
  blocks: MailBlock[];
}

/** Branding the pages and the mails share (pages.* in the configuration). */
export interface MailBranding {
  appName: string;
  logoURL: string | null;
  primaryColor: string;
}
