// The console's mail screen (/console/mail): every mail authd sends, with sample values, as `authd mail
// preview` shows it.

export const consoleMailEn = {
  "console.screen.mail": "Mail",
  "console.mail.explain":
    "Every mail authd sends, with sample values, as this deployment sends it: its templates, branding and language. The link carries a token that opens nothing. The same as {command} at the command line.",
  "console.mail.templates": "Your templates in {dir} replace authd's own for each mail and language they name.",
  "console.mail.noTemplates":
    "Every mail is authd's own: AUTH_MAIL_TEMPLATES is not set (docs/mail.md says how to write yours).",
  "console.mail.choose.mail": "Mail",
  "console.mail.choose.language": "Language",
  "console.mail.choose.show": "Show",
  "console.mail.language.en": "English",
  "console.mail.language.de": "German",
  "console.mail.subject": "Subject",
  "console.mail.language": "Language",
  "console.mail.source": "Template",
  "console.mail.source.own": "authd's own",
  "console.mail.link": "Link",
  "console.mail.code": "Code",
  "console.mail.textPart": "Plain-text part",
  "console.mail.htmlPart": "HTML part",
  "console.mail.htmlFrame": "The HTML part of “{subject}”, as a mail client draws it",
  "console.mail.sendTest": "To see it in a real mail client, send it through your SMTP server: {command}",
} as const;

export const consoleMailDe: Record<keyof typeof consoleMailEn, string> = {
  "console.screen.mail": "E-Mails",
  "console.mail.explain":
    "Jede E-Mail, die authd verschickt, mit Beispielwerten, so wie diese Installation sie verschickt: mit ihren Vorlagen, ihrem Erscheinungsbild und in ihrer Sprache. Der Link trägt ein Token, das nichts öffnet. Dasselbe wie {command} auf der Kommandozeile.",
  "console.mail.templates":
    "Ihre Vorlagen in {dir} ersetzen die von authd für jede E-Mail und Sprache, die sie nennen.",
  "console.mail.noTemplates":
    "Jede E-Mail ist die von authd: AUTH_MAIL_TEMPLATES ist nicht gesetzt (docs/mail.md beschreibt, wie Sie eigene schreiben).",
  "console.mail.choose.mail": "E-Mail",
  "console.mail.choose.language": "Sprache",
  "console.mail.choose.show": "Anzeigen",
  "console.mail.language.en": "Englisch",
  "console.mail.language.de": "Deutsch",
  "console.mail.subject": "Betreff",
  "console.mail.language": "Sprache",
  "console.mail.source": "Vorlage",
  "console.mail.source.own": "die von authd",
  "console.mail.link": "Link",
  "console.mail.code": "Code",
  "console.mail.textPart": "Textteil",
  "console.mail.htmlPart": "HTML-Teil",
  "console.mail.htmlFrame": "Der HTML-Teil von „{subject}“, wie ein E-Mail-Programm ihn zeigt",
  "console.mail.sendTest":
    "Um sie in einem echten E-Mail-Programm zu sehen, schicken Sie sie über Ihren SMTP-Server: {command}",
};
