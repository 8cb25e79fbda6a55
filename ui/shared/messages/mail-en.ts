// The English words of authd's mails (ui/mail/), the development outbox and the page that takes a mailed
// verification code: part of the source catalogue (en.ts spreads them in), kept apart because the mails are a
// front end of their own. `{name}` values are the mails' variables (docs/mail.md).

export const mailEn = {
  "mail.greeting": "Hello {name},",
  "mail.greetingNoName": "Hello,",
  "mail.footer": "This mail was sent to {email} by {appName}.",
  "mail.buttonFallback": "If the button does not work, open this address in your browser:",
  "mail.duration.minute": "1 minute",
  "mail.duration.minutes": "{count} minutes",
  "mail.duration.hour": "1 hour",
  "mail.duration.hours": "{count} hours",
  "mail.duration.day": "1 day",
  "mail.duration.days": "{count} days",
  "mail.verifyEmail.subject": "Confirm your email address for {appName}",
  "mail.verifyEmail.intro": "Please confirm that {email} is your address.",
  "mail.verifyEmail.button": "Confirm my address",
  "mail.verifyEmail.codeIntro": "Or type this code where {appName} asks for it:",
  "mail.verifyEmail.codeExpiry": "The code expires in {codeExpiresIn}.",
  "mail.verifyEmail.outro": "The link expires in {expiresIn}. If you did not sign up for {appName}, ignore this mail.",
  "mail.confirmEmailChange.subject": "Approve the new email address of your {appName} account",
  "mail.confirmEmailChange.intro":
    "Someone asked to change the email address of your account from {email} to {newEmail}. To approve the change, open the link while signed in.",
  "mail.confirmEmailChange.button": "Approve the new address",
  "mail.confirmEmailChange.outro":
    "The link expires in {expiresIn}. If you did not ask for this, ignore this mail; your address stays as it is.",
  "mail.resetPassword.subject": "Reset your {appName} password",
  "mail.resetPassword.intro":
    "Someone asked to reset the password of your account. To choose a new one, open the link.",
  "mail.resetPassword.button": "Choose a new password",
  "mail.resetPassword.outro":
    "The link expires in {expiresIn} and works once. If you did not ask for this, ignore this mail; your password stays as it is.",
  "mail.deleteAccount.subject": "Confirm the deletion of your {appName} account",
  "mail.deleteAccount.intro":
    "Someone asked to delete your account and everything in it. To confirm, open the link while signed in.",
  "mail.deleteAccount.button": "Delete my account",
  "mail.deleteAccount.outro":
    "The link expires in {expiresIn}. If you did not ask for this, ignore this mail and consider changing your password.",
  "mail.magicLink.subject": "Your sign-in link for {appName}",
  "mail.magicLink.intro": "Open the link to sign in to {appName}.",
  "mail.magicLink.button": "Sign in",
  "mail.magicLink.codeIntro": "Or type this code where you asked for the link, on any device:",
  "mail.magicLink.codeExpiry": "The code expires in {codeExpiresIn}.",
  "mail.magicLink.outro":
    "The link expires in {expiresIn} and works once. If you did not ask for it, ignore this mail.",
  "mail.signInCode.subject": "Your sign-in code for {appName}",
  "mail.signInCode.intro": "Type this code to sign in to {appName}:",
  "mail.emailVerificationCode.subject": "Your confirmation code for {appName}",
  "mail.emailVerificationCode.intro": "Type this code to confirm your email address:",
  "mail.passwordResetCode.subject": "Your password reset code for {appName}",
  "mail.passwordResetCode.intro": "Type this code to choose a new password:",
  "mail.code.outro": "The code expires in {expiresIn}. If you did not ask for it, ignore this mail.",
  "mail.twoFactorCode.subject": "Your {appName} two-factor code",
  "mail.twoFactorCode.intro": "Your two-factor code for signing in to {appName}:",
  "mail.twoFactorCode.outro":
    "The code expires in {expiresIn}. If you did not try to sign in, someone knows your password: change it.",
  "mail.twoFactorLocked.subject": "{appName}: sign-in to your account is locked for {lockedFor}",
  "mail.twoFactorLocked.intro":
    "Someone signed in to {appName} with your password, then entered {failures} wrong second-factor codes in a row. To protect your account, the second step of sign-in is locked for {lockedFor} (until {lockedUntil}).",
  "mail.twoFactorLocked.outro":
    "If this was you, wait and try again. If it was not, whoever tried knows your password: change it now. An administrator can lift the lock sooner.",
  "mail.invitation.subject": "You are invited to join {organizationName} on {appName}",
  "mail.invitation.intro": "{inviterName} ({inviterEmail}) invited you to join {organizationName} as {role}.",
  "mail.invitation.button": "View the invitation",
  "mail.invitation.outro": "The invitation expires on {expiresAt}. If you did not expect it, ignore this mail.",

  // The development outbox (/account/dev/outbox) and the page that takes a mailed verification code
  "page.title.devOutbox": "Development outbox",
  "outbox.explain":
    "Mails this daemon would have sent, newest first (the last 100, kept in memory only). Shown because no SMTP server is configured and the daemon listens on loopback or AUTH_DEV_OUTBOX is on.",
  "outbox.empty": "No mail yet. Sign up or ask for a link, then reload this page.",
  "outbox.to": "To",
  "outbox.sentAt": "Sent",
  "outbox.language": "Language",
  "outbox.link": "Link",
  "outbox.code": "Code",
  "outbox.textPart": "Plain text",
  "outbox.htmlPart": "The HTML part of “{subject}”",
  "page.title.verifyEmailCode": "Enter your confirmation code",
  "notice.verifyEmailCode": "Type the code from the mail we sent you to confirm your address.",
  "link.verifyEmailCode": "Have a code from the mail? Type it here",
  "action.confirmWithCode": "Confirm my address",
} as const;
