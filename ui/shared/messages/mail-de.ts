import type { mailEn } from "./mail-en.ts";

// German: every key of the English mail catalogue (mail-en.ts), translated.

export const mailDe: Record<keyof typeof mailEn, string> = {
  "mail.greeting": "Hallo {name},",
  "mail.greetingNoName": "Hallo,",
  "mail.footer": "Diese E-Mail wurde von {appName} an {email} gesendet.",
  "mail.buttonFallback": "Falls die Schaltfläche nicht funktioniert, öffnen Sie diese Adresse in Ihrem Browser:",
  "mail.duration.minute": "1 Minute",
  "mail.duration.minutes": "{count} Minuten",
  "mail.duration.hour": "1 Stunde",
  "mail.duration.hours": "{count} Stunden",
  "mail.duration.day": "1 Tag",
  "mail.duration.days": "{count} Tagen",
  "mail.verifyEmail.subject": "Bestätigen Sie Ihre E-Mail-Adresse für {appName}",
  "mail.verifyEmail.intro": "Bitte bestätigen Sie, dass {email} Ihre Adresse ist.",
  "mail.verifyEmail.button": "Adresse bestätigen",
  "mail.verifyEmail.codeIntro": "Oder geben Sie diesen Code ein, wo {appName} danach fragt:",
  "mail.verifyEmail.codeExpiry": "Der Code läuft in {codeExpiresIn} ab.",
  "mail.verifyEmail.outro":
    "Der Link läuft in {expiresIn} ab. Falls Sie sich nicht bei {appName} registriert haben, ignorieren Sie diese E-Mail.",
  "mail.confirmEmailChange.subject": "Bestätigen Sie die neue E-Mail-Adresse Ihres Kontos bei {appName}",
  "mail.confirmEmailChange.intro":
    "Jemand möchte die E-Mail-Adresse Ihres Kontos von {email} zu {newEmail} ändern. Um die Änderung zu bestätigen, öffnen Sie den Link, während Sie angemeldet sind.",
  "mail.confirmEmailChange.button": "Neue Adresse bestätigen",
  "mail.confirmEmailChange.outro":
    "Der Link läuft in {expiresIn} ab. Falls Sie das nicht veranlasst haben, ignorieren Sie diese E-Mail; Ihre Adresse bleibt, wie sie ist.",
  "mail.resetPassword.subject": "Setzen Sie Ihr Passwort für {appName} zurück",
  "mail.resetPassword.intro":
    "Jemand möchte das Passwort Ihres Kontos zurücksetzen. Um ein neues zu wählen, öffnen Sie den Link.",
  "mail.resetPassword.button": "Neues Passwort wählen",
  "mail.resetPassword.outro":
    "Der Link läuft in {expiresIn} ab und funktioniert einmal. Falls Sie das nicht veranlasst haben, ignorieren Sie diese E-Mail; Ihr Passwort bleibt, wie es ist.",
  "mail.deleteAccount.subject": "Bestätigen Sie die Löschung Ihres Kontos bei {appName}",
  "mail.deleteAccount.intro":
    "Jemand möchte Ihr Konto mit allem, was dazugehört, löschen. Um das zu bestätigen, öffnen Sie den Link, während Sie angemeldet sind.",
  "mail.deleteAccount.button": "Mein Konto löschen",
  "mail.deleteAccount.outro":
    "Der Link läuft in {expiresIn} ab. Falls Sie das nicht veranlasst haben, ignorieren Sie diese E-Mail und ändern Sie am besten Ihr Passwort.",
  "mail.magicLink.subject": "Ihr Anmeldelink für {appName}",
  "mail.magicLink.intro": "Öffnen Sie den Link, um sich bei {appName} anzumelden.",
  "mail.magicLink.button": "Anmelden",
  "mail.magicLink.codeIntro":
    "Oder geben Sie diesen Code dort ein, wo Sie den Link angefordert haben, auf jedem Gerät:",
  "mail.magicLink.codeExpiry": "Der Code läuft in {codeExpiresIn} ab.",
  "mail.magicLink.outro":
    "Der Link läuft in {expiresIn} ab und funktioniert einmal. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.",
  "mail.signInCode.subject": "Ihr Anmeldecode für {appName}",
  "mail.signInCode.intro": "Geben Sie diesen Code ein, um sich bei {appName} anzumelden:",
  "mail.emailVerificationCode.subject": "Ihr Bestätigungscode für {appName}",
  "mail.emailVerificationCode.intro": "Geben Sie diesen Code ein, um Ihre E-Mail-Adresse zu bestätigen:",
  "mail.passwordResetCode.subject": "Ihr Code zum Zurücksetzen des Passworts für {appName}",
  "mail.passwordResetCode.intro": "Geben Sie diesen Code ein, um ein neues Passwort zu wählen:",
  "mail.code.outro":
    "Der Code läuft in {expiresIn} ab. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.",
  "mail.twoFactorCode.subject": "Ihr Code für die Anmeldung in zwei Schritten bei {appName}",
  "mail.twoFactorCode.intro": "Ihr Code für den zweiten Schritt der Anmeldung bei {appName}:",
  "mail.twoFactorCode.outro":
    "Der Code läuft in {expiresIn} ab. Falls Sie nicht versucht haben, sich anzumelden, kennt jemand Ihr Passwort: Ändern Sie es.",
  "mail.twoFactorLocked.subject": "{appName}: Die Anmeldung bei Ihrem Konto ist für {lockedFor} gesperrt",
  "mail.twoFactorLocked.intro":
    "Jemand hat sich mit Ihrem Passwort bei {appName} angemeldet und dann {failures} falsche Codes für den zweiten Schritt nacheinander eingegeben. Zum Schutz Ihres Kontos ist der zweite Schritt der Anmeldung für {lockedFor} gesperrt (bis {lockedUntil}).",
  "mail.twoFactorLocked.outro":
    "Falls Sie das waren, warten Sie und versuchen Sie es erneut. Falls nicht, kennt die Person Ihr Passwort: Ändern Sie es sofort. Ein Administrator kann die Sperre früher aufheben.",
  "mail.invitation.subject": "Sie sind eingeladen, {organizationName} bei {appName} beizutreten",
  "mail.invitation.intro":
    "{inviterName} ({inviterEmail}) hat Sie eingeladen, {organizationName} als {role} beizutreten.",
  "mail.invitation.button": "Einladung ansehen",
  "mail.invitation.outro":
    "Die Einladung läuft am {expiresAt} ab. Falls Sie sie nicht erwartet haben, ignorieren Sie diese E-Mail.",

  // The development outbox (/account/dev/outbox) and the page that takes a mailed verification code
  "page.title.devOutbox": "Postausgang (Entwicklung)",
  "outbox.explain":
    "E-Mails, die dieser Dienst gesendet hätte, die neuesten zuerst (die letzten 100, nur im Speicher). Sichtbar, weil kein SMTP-Server eingerichtet ist und der Dienst auf Loopback lauscht oder AUTH_DEV_OUTBOX eingeschaltet ist.",
  "outbox.empty":
    "Noch keine E-Mail. Registrieren Sie sich oder fordern Sie einen Link an und laden Sie die Seite neu.",
  "outbox.to": "An",
  "outbox.sentAt": "Gesendet",
  "outbox.language": "Sprache",
  "outbox.link": "Link",
  "outbox.code": "Code",
  "outbox.textPart": "Nur-Text",
  "outbox.htmlPart": "Der HTML-Teil von „{subject}“",
  "page.title.verifyEmailCode": "Bestätigungscode eingeben",
  "notice.verifyEmailCode": "Geben Sie den Code aus unserer E-Mail ein, um Ihre Adresse zu bestätigen.",
  "link.verifyEmailCode": "Haben Sie einen Code aus der E-Mail? Hier eingeben",
  "action.confirmWithCode": "Adresse bestätigen",
};
