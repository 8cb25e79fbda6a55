import { accountSecurityDe } from "./account-security.ts";
import { deAccountAccess } from "./de-account-access.ts";
import { deAccountSelf } from "./de-account-self.ts";
import { deActivity } from "./de-activity.ts";
import type { MessageKey } from "./en.ts";
import { impersonationDe } from "./impersonation.ts";
import { mailDe } from "./mail-de.ts";

// German: every key of the English catalogue (en.ts), translated.

export const de: Record<MessageKey, string> = {
  "page.title.signIn": "Anmelden",
  "page.title.signUp": "Konto erstellen",
  "page.title.signedOut": "Abgemeldet",
  "page.title.forgotPassword": "Passwort vergessen?",
  "page.title.resetPassword": "Neues Passwort wählen",
  "page.title.verifyEmail": "E-Mail-Adresse bestätigen",
  "page.title.checkMail": "Sehen Sie in Ihr Postfach",
  "page.title.signedIn": "Sie sind angemeldet",
  "page.title.error": "Etwas ist schiefgegangen",
  "page.title.deleteAccount": "Konto löschen",
  "page.subtitle.signIn": "um mit {appName} fortzufahren",
  "page.subtitle.signUp": "für {appName}",

  "field.email": "E-Mail-Adresse",
  "field.emailOrUsername": "E-Mail-Adresse oder Benutzername",
  "field.password": "Passwort",
  "field.newPassword": "Neues Passwort",
  "field.name": "Name",
  "field.username": "Benutzername",
  "field.rememberMe": "Auf diesem Gerät angemeldet bleiben",
  "field.passwordRules": "Zwischen {min} und {max} Zeichen.",
  "field.optional": "optional",

  "action.continue": "Weiter",
  "action.signIn": "Anmelden",
  "action.signUp": "Konto erstellen",
  "action.signOut": "Abmelden",
  "action.sendResetLink": "Link zum Zurücksetzen senden",
  "action.setPassword": "Neues Passwort speichern",
  "action.confirmEmail": "Adresse bestätigen",
  "action.backToSignIn": "Zurück zur Anmeldung",
  "action.backToApp": "Zurück zu {appName}",
  "action.deleteAccount": "Mein Konto löschen",

  "link.forgotPassword": "Passwort vergessen?",
  "link.signUp": "Noch kein Konto? Jetzt erstellen",
  "link.signIn": "Schon ein Konto? Anmelden",

  "notice.signedOut": "Sie wurden abgemeldet.",
  "notice.checkMailReset":
    "Falls es ein Konto für diese Adresse gibt, haben wir ihr einen Link gesendet, mit dem Sie ein neues Passwort wählen. Der Link gilt einmal und läuft bald ab.",
  "notice.checkMailVerify": "Wir haben Ihnen einen Link gesendet. Öffnen Sie ihn, um Ihre Adresse zu bestätigen.",
  "notice.passwordReset": "Ihr Passwort wurde geändert. Melden Sie sich mit dem neuen an.",
  "notice.verifyEmailContinue": "Drücken Sie die Schaltfläche, um zu bestätigen, dass diese Adresse Ihnen gehört.",
  "notice.emailVerified": "Ihre Adresse ist bestätigt.",
  "notice.signedInAs": "Angemeldet als {email}.",
  "notice.errorCode": "Fehlercode: {code}",
  "notice.javascriptOptional": "Diese Seite funktioniert auch ohne JavaScript.",
  "notice.emailChangeContinue": "Drücken Sie die Schaltfläche, um die neue E-Mail-Adresse Ihres Kontos zu bestätigen.",
  "notice.deleteAccountConfirm":
    "Damit werden das Konto {email} und alles darin gelöscht. Das lässt sich nicht rückgängig machen.",
  "notice.deleteAccountSignIn":
    "Melden Sie sich bei dem Konto an, an das dieser Link ging, und bestätigen Sie dann das Löschen.",
  "notice.accountDeleted": "Ihr Konto wurde gelöscht.",

  "error.generic": "Das hat nicht geklappt. Bitte versuchen Sie es erneut.",
  "error.INVALID_EMAIL_OR_PASSWORD": "E-Mail-Adresse oder Passwort sind nicht richtig.",
  "error.INVALID_USERNAME_OR_PASSWORD": "Benutzername oder Passwort sind nicht richtig.",
  "error.EMAIL_NOT_VERIFIED": "Bestätigen Sie zuerst Ihre E-Mail-Adresse: Wir haben Ihnen einen neuen Link gesendet.",
  "error.USER_ALREADY_EXISTS": "Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Melden Sie sich stattdessen an.",
  "error.INVALID_EMAIL": "Geben Sie eine gültige E-Mail-Adresse ein.",
  "error.PASSWORD_TOO_SHORT": "Das Passwort ist zu kurz.",
  "error.PASSWORD_TOO_LONG": "Das Passwort ist zu lang.",
  "error.USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER": "Dieser Benutzername ist vergeben. Wählen Sie einen anderen.",
  "error.USERNAME_IS_TOO_SHORT": "Der Benutzername ist zu kurz.",
  "error.USERNAME_IS_TOO_LONG": "Der Benutzername ist zu lang.",
  "error.USERNAME_IS_INVALID": "Ein Benutzername darf nur Buchstaben, Ziffern, Punkte und Unterstriche enthalten.",
  "error.INVALID_TOKEN": "Dieser Link ist nicht mehr gültig. Fordern Sie einen neuen an.",
  "error.invalid_token": "Dieser Link ist nicht mehr gültig. Fordern Sie einen neuen an.",
  "error.unable_to_link_account": "Dieses Konto konnte nicht verknüpft werden.",
  "error.account_already_linked_to_different_user": "Dieses Anbieterkonto gehört zu einem anderen Benutzer.",
  "error.email_mismatch": "Der Anbieter nannte eine andere E-Mail-Adresse als die dieses Kontos.",
  "error.link_failed": "Das Verknüpfen des Kontos ist fehlgeschlagen.",
  "error.state_not_found": "Die Anmeldung passt nicht zu diesem Browser. Bitte beginnen Sie neu.",
  "error.invalid_callback_request": "Der Anbieter antwortete unerwartet. Bitte beginnen Sie neu.",
  "error.token_expired": "Dieser Link ist abgelaufen. Fordern Sie einen neuen an.",
  "error.BANNED_USER": "Dieses Konto ist gesperrt. Wenden Sie sich an den Betreiber von {appName}.",
  "error.banned": "Dieses Konto ist gesperrt. Wenden Sie sich an den Betreiber von {appName}.",
  "error.TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER":
    "Zu viele Versuche. Warten Sie einen Moment und versuchen Sie es erneut.",
  "error.EMAIL_AND_PASSWORD_SIGN_UP_IS_NOT_ENABLED": "Hier können keine neuen Konten erstellt werden.",
  "error.EMAIL_AND_PASSWORD_IS_NOT_ENABLED": "Die Anmeldung mit Passwort ist abgeschaltet.",
  "error.CSRF": "Dieses Formular ist abgelaufen. Bitte senden Sie es erneut.",
  "error.ORIGIN": "Dieses Formular wurde von einer anderen Website gesendet und abgelehnt.",
  "error.SERVICE_UNAVAILABLE": "Der Dienst ist kurz nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
  "error.REQUIRED": "Dieses Feld ist erforderlich.",
  "error.state_mismatch":
    "Die Anmeldung begann in einem anderen Browser oder dauerte zu lange. Bitte beginnen Sie neu.",
  "error.please_restart_the_process": "Die Anmeldung dauerte zu lange. Bitte beginnen Sie neu.",
  "error.account_not_linked":
    "Dieses Konto konnte nicht verknüpft werden. Melden Sie sich so an, wie Sie es zuvor getan haben.",
  "error.unable_to_create_user": "Das Konto konnte nicht erstellt werden.",
  "error.signup_disabled": "Hier können keine neuen Konten erstellt werden.",
  "error.unknown": "Ein unerwarteter Fehler ist aufgetreten.",
  "error.user_not_found": "Das Konto dieses Links gibt es nicht mehr.",
  "error.unauthorized":
    "Melden Sie sich bei dem Konto an, an das dieser Link ging, und öffnen Sie den Link dann erneut.",
  "error.COULDNT_UPDATE_YOUR_EMAIL":
    "Die neue Adresse konnte nicht übernommen werden: Ein anderes Konto verwendet sie inzwischen.",
  "error.CONSOLE_REFUSED":
    "Die Konsole ist für Administratoren, und dieses Konto hat keine Administratorrechte. Wenden Sie sich an einen Administrator von {appName}, wenn Sie welche brauchen.",
  "error.CONSOLE_NOT_PERMITTED": "Ihre Administratorrolle erlaubt diesen Teil der Konsole nicht.",
  "error.NOT_FOUND": "Hier gibt es nichts.",

  // Die Einladungsseite
  "page.title.invitation": "Einer Organisation beitreten",
  "notice.invitation": "{inviter} hat Sie eingeladen, {organization} als {role} beizutreten.",
  "notice.invitationSignIn": "Melden Sie sich an oder erstellen Sie ein Konto, um diese Einladung zu beantworten.",
  "notice.invitationRejected": "Sie haben die Einladung abgelehnt.",
  "action.acceptInvitation": "Einladung annehmen",
  "action.rejectInvitation": "Ablehnen",
  "error.INVITATION_NOT_FOUND": "Diese Einladung gibt es nicht, sie ist abgelaufen oder wurde schon beantwortet.",
  "error.YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION":
    "Diese Einladung ging an eine andere E-Mail-Adresse. Melden Sie sich mit dem Konto dieser Adresse an.",
  "error.EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION":
    "Bestätigen Sie zuerst Ihre E-Mail-Adresse: Öffnen Sie den Link aus unserer E-Mail und kehren Sie dann zu dieser Einladung zurück.",
  "error.ORGANIZATION_MEMBERSHIP_LIMIT_REACHED":
    "Diese Organisation kann keine weiteren Mitglieder aufnehmen. Wenden Sie sich an die Person, die Sie eingeladen hat.",
  "error.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION": "Sie sind bereits Mitglied dieser Organisation.",
  "error.INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION":
    "Die Person, die Sie eingeladen hat, gehört der Organisation nicht mehr an; die Einladung kann nicht beantwortet werden.",
  "error.ORGANIZATION_NOT_FOUND": "Diese Organisation gibt es nicht mehr.",
  "error.TEAM_MEMBER_LIMIT_REACHED":
    "Ein Team dieser Einladung ist voll. Wenden Sie sich an die Person, die Sie eingeladen hat.",
  "action.signInWithPasskey": "Mit einem Passkey anmelden",
  "error.PASSKEY_CANCELLED":
    "Die Anmeldung mit dem Passkey wurde abgebrochen oder hat zu lange gedauert. Versuchen Sie es noch einmal oder verwenden Sie Ihr Passwort.",
  "error.PASSKEY_FAILED": "Dieser Browser konnte hier keinen Passkey verwenden. Melden Sie sich mit Ihrem Passwort an.",
  "error.PASSKEY_NOT_FOUND":
    "Dieser Passkey ist hier nicht bekannt; vielleicht wurde er entfernt. Melden Sie sich auf anderem Weg an.",
  "error.AUTHENTICATION_FAILED": "Der Passkey konnte nicht geprüft werden. Bitte versuchen Sie es noch einmal.",
  "error.CHALLENGE_NOT_FOUND":
    "Die Anmeldung mit dem Passkey hat zu lange gedauert. Bitte versuchen Sie es noch einmal.",
  // The second-factor page
  "page.title.twoFactor": "Bestätigung in zwei Schritten",
  "page.subtitle.twoFactor.totp": "Geben Sie den Code ein, den Ihre Authenticator-App für {appName} anzeigt.",
  "page.subtitle.twoFactor.mail": "Lassen Sie sich einen Code per E-Mail schicken, um die Anmeldung abzuschließen.",
  "page.subtitle.twoFactor.backup": "Geben Sie einen Ihrer gespeicherten Backup-Codes ein.",
  "field.authenticatorCode": "Code aus Ihrer Authenticator-App",
  "field.mailedCode": "Code aus der E-Mail",
  "field.backupCode": "Backup-Code",
  "field.trustDevice": "Diesem Browser vertrauen (hier eine Zeit lang kein Code nötig)",
  "hint.totpCode": "6 Ziffern. Alle 30 Sekunden erscheint ein neuer Code.",
  "hint.mailCode": "6 Ziffern, einige Minuten lang gültig.",
  "hint.backupCode": "In der Form abcde-12345. Jeder Backup-Code gilt nur einmal.",
  "action.verify": "Bestätigen",
  "action.sendCode": "Code per E-Mail senden",
  "action.sendNewCode": "Neuen Code senden",
  "notice.mailCodeExplain": "Wir senden einen 6-stelligen Code an die E-Mail-Adresse Ihres Kontos.",
  "notice.mailCodeSent": "Wir haben einen Code an die E-Mail-Adresse Ihres Kontos gesendet.",
  "link.useAuthenticator": "Stattdessen die Authenticator-App verwenden",
  "link.useMailedCode": "Stattdessen einen Code per E-Mail erhalten",
  "link.useBackupCode": "Stattdessen einen Backup-Code verwenden",
  "error.INVALID_CODE": "Dieser Code stimmt nicht. Prüfen Sie ihn und versuchen Sie es erneut.",
  "error.INVALID_BACKUP_CODE": "Dieser Backup-Code stimmt nicht oder wurde schon verwendet.",
  "error.INVALID_TWO_FACTOR_COOKIE":
    "Die Anmeldung hat zu lange gedauert oder ist bereits abgeschlossen. Bitte melden Sie sich erneut an.",
  "error.OTP_HAS_EXPIRED": "Dieser Code ist abgelaufen. Lassen Sie sich einen neuen schicken.",
  "error.TOO_MANY_ATTEMPTS_PLEASE_REQUEST_A_NEW_CODE":
    "Zu viele falsche Versuche mit diesem Code. Lassen Sie sich einen neuen schicken.",
  "error.TOTP_NOT_ENABLED": "Für dieses Konto ist keine Authenticator-App eingerichtet. Wählen Sie einen anderen Weg.",
  "error.OTP_NOT_ENABLED": "Codes per E-Mail sind für dieses Konto nicht verfügbar. Wählen Sie einen anderen Weg.",
  "error.BACKUP_CODES_ARENT_ENABLED": "Dieses Konto hat keine Backup-Codes. Wählen Sie einen anderen Weg.",
  "page.title.magicLink": "Mit Ihrem Link anmelden",
  "page.title.emailCode": "Code eingeben",
  "field.code": "Code aus der E-Mail",
  "action.emailSignInLink": "Anmeldelink per E-Mail senden",
  "action.emailSignInCode": "Code per E-Mail senden",
  "action.continueWith": "Weiter mit {provider}",
  "notice.orContinueWith": "oder",
  "notice.checkMailMagicLink":
    "Wenn mit dieser Adresse eine Anmeldung möglich ist, haben wir ihr einen Link geschickt. Öffnen Sie ihn auf diesem Gerät, um sich anzumelden; er funktioniert einmal und läuft nach wenigen Minuten ab.",
  "notice.magicLinkContinue": "Drücken Sie auf „Weiter“, um sich bei {appName} anzumelden.",
  "notice.codeSent":
    "Wir haben einen Code an {email} geschickt. Geben Sie ihn hier ein; er läuft nach wenigen Minuten ab.",
  "error.EXPIRED_TOKEN": "Dieser Link ist abgelaufen. Fordern Sie einen neuen an.",
  "error.new_user_signup_disabled":
    "Für diese Adresse gibt es kein Konto, und neue Konten können hier nicht erstellt werden.",
  "error.INVALID_OTP": "Dieser Code stimmt nicht. Prüfen Sie die E-Mail und versuchen Sie es erneut.",
  "error.OTP_EXPIRED": "Dieser Code ist abgelaufen. Fordern Sie einen neuen an.",
  "error.TOO_MANY_ATTEMPTS": "Zu viele falsche Codes. Fordern Sie einen neuen an.",
  "error.PROVIDER_NOT_FOUND": "Dieser Anmeldeanbieter ist hier nicht eingerichtet.",
  "error.THE_PROVIDER_COULD_NOT_BE_REACHED":
    "Der Anmeldeanbieter ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
  "error.no_code": "Der Anbieter hat Sie ohne Anmeldecode zurückgeschickt. Bitte beginnen Sie erneut.",
  "error.no_callback_url": "Die Anmeldung enthielt kein Ziel. Bitte beginnen Sie erneut in der App.",
  "error.oauth_provider_not_found": "Dieser Anmeldeanbieter ist hier nicht mehr eingerichtet.",
  "error.invalid_code": "Der Anbieter hat die Anmeldung nicht angenommen. Bitte beginnen Sie erneut.",
  "error.unable_to_get_user_info":
    "Der Anbieter hat uns nicht mitgeteilt, wer Sie sind. Bitte versuchen Sie es erneut.",
  "error.email_not_found":
    "Der Anbieter hat Ihre E-Mail-Adresse nicht weitergegeben, die für die Anmeldung nötig ist. Erlauben Sie dies dort und versuchen Sie es erneut.",
  "error.unable_to_create_session": "Sie konnten nicht angemeldet werden. Bitte versuchen Sie es erneut.",
  "error.internal_server_error": "Auf unserer Seite ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.",
  "error.access_denied": "Die Anmeldung wurde beim Anbieter abgebrochen.",
  "error.login_required": "Der Anbieter verlangt, dass Sie sich zuerst dort anmelden. Bitte beginnen Sie erneut.",
  "error.consent_required":
    "Der Anbieter benötigt zuerst Ihre Zustimmung. Bitte beginnen Sie erneut und erlauben Sie den Zugriff.",
  "error.interaction_required": "Der Anbieter braucht zuerst eine Bestätigung von Ihnen. Bitte beginnen Sie erneut.",
  "error.server_error": "Beim Anbieter ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.",
  "error.temporarily_unavailable": "Der Anbieter ist kurz nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
  "error.invalid_request":
    "Der Anbieter hat die Anmeldeanfrage abgelehnt. Wenden Sie sich an den Betreiber von {appName}.",
  "error.invalid_scope":
    "Der Anbieter hat den angefragten Zugriff abgelehnt. Wenden Sie sich an den Betreiber von {appName}.",
  "error.unauthorized_client":
    "Der Anbieter akzeptiert keine Anmeldungen von {appName}. Wenden Sie sich an den Betreiber.",
  "error.MAGIC_LINK_DISABLED": "Die Anmeldung per Link aus einer E-Mail ist ausgeschaltet.",
  "error.EMAIL_CODE_DISABLED": "Die Anmeldung per Code aus einer E-Mail ist ausgeschaltet.",
  "error.INVALID_CALLBACKURL":
    "Dieser Link würde Sie zu einer Adresse weiterleiten, der diese Seite nicht vertraut. Fordern Sie einen neuen an.",

  "account.nav": "Konto",
  "account.section.profile": "Ihr Konto",
  "account.section.password": "Passwort",
  "account.section.secondFactor": "Bestätigung in zwei Schritten",
  "account.section.passkeys": "Passkeys",
  "account.section.sessions": "Geräte und Sitzungen",
  "account.section.linkedAccounts": "Verknüpfte Konten",
  "account.section.apiKeys": "API-Schlüssel",
  "account.section.organizations": "Organisationen",
  "account.section.activity": "Sicherheitsaktivität",
  "account.section.delete": "Konto löschen",
  ...deAccountAccess,
  ...deActivity,
  ...accountSecurityDe,

  ...deAccountSelf,
  // The mails and the development outbox: their own file (mail-de.ts).
  ...mailDe,

  // The OpenID Provider's consent page (issue 30)
  "page.title.consent": "Zugriff erlauben",
  "consent.asks": "{client} möchte Sie mit Ihrem {appName}-Konto anmelden.",
  "consent.wants": "Die Anwendung kann dann:",
  "consent.scope.openid": "Wissen, wer Sie sind (die Kennung Ihres Kontos)",
  "consent.scope.profile": "Ihren Namen, Benutzernamen und Ihr Bild sehen",
  "consent.scope.email": "Ihre E-Mail-Adresse sehen",
  "consent.scope.offline_access": "Angemeldet bleiben, während Sie nicht da sind",
  "consent.scope.groups": "Ihre Organisationen und Rollen sehen",
  "consent.destination": "Anschließend geht es zurück zu {destination}.",
  "consent.allow": "Erlauben",
  "consent.deny": "Ablehnen",
  "error.invalid_logout_request":
    "Die Anwendung, die Sie zum Abmelden hierher geschickt hat, nannte eine Rücksprungadresse oder Anwendung, die {appName} nicht kennt. Sie sind weiterhin angemeldet.",
  "error.invalid_oauth_request":
    "Die Anwendung, von der Sie kommen, hat etwas verlangt, das {appName} nicht beantworten kann (eine unbekannte Anwendung oder Rücksprungadresse). Gehen Sie zurück und versuchen Sie es erneut, oder wenden Sie sich an ihren Betreiber.",
  // The banner while an administrator impersonates a user (issue 32): impersonation.ts.
  ...impersonationDe,
  "error.YOU_CANNOT_BAN_YOURSELF": "Sie können Ihr eigenes Konto nicht sperren.",
};
