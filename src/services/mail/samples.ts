import { resolveBaseURL } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import type { MailKind, MailMessage } from "../../wire/mail.ts";

// Every mail with made-up values, for `authd mail preview`, `authd mail send-test` and the console's mail
// screen (through preview.ts): links of the shapes the real ones have, on this deployment's base URL, with
// a token that opens nothing.

const TOKEN = "SAMPLE-TOKEN-opens-nothing";
const CODE = "123456";
const PERSON = { name: "Alice Example", email: "alice@example.com" };

export function sampleMessage(kind: MailKind, config: Config, to = PERSON.email): MailMessage {
  const base = resolveBaseURL(config);
  const api = `${base}${config.basePath}`;
  const back = encodeURIComponent(config.appURL ?? base);
  const person = { ...PERSON, email: to };
  const verification = config.emailVerification.expiresIn;
  const code = { email: to, code: CODE, codeExpiresIn: config.emailOTP.expiresIn };
  switch (kind) {
    case "verify-email": {
      const emailCode = config.emailOTP.enabled;
      const link = `${api}/verify-email?token=${TOKEN}&callbackURL=${back}`;
      return {
        kind,
        to,
        values: {
          ...person,
          link,
          linkExpiresIn: verification,
          code: emailCode ? CODE : null,
          codeExpiresIn: emailCode ? config.emailOTP.expiresIn : null,
        },
      };
    }
    case "confirm-email-change": {
      const link = `${api}/verify-email?token=${TOKEN}&callbackURL=${back}`;
      return { kind, to, values: { ...person, newEmail: "alice@new.example", link, linkExpiresIn: verification } };
    }
    case "reset-password": {
      const link = `${api}/reset-password/${TOKEN}?callbackURL=${back}`;
      return {
        kind,
        to,
        values: { ...person, link, linkExpiresIn: config.emailAndPassword.resetPasswordTokenExpiresIn },
      };
    }
    case "delete-account": {
      const link = `${api}/delete-user/callback?token=${TOKEN}&callbackURL=${back}`;
      return { kind, to, values: { ...person, link, linkExpiresIn: config.deleteUser.deleteTokenExpiresIn } };
    }
    case "magic-link": {
      const link = `${api}/magic-link/verify?token=${TOKEN}&callbackURL=${back}`;
      const emailCode = config.emailOTP.enabled;
      const values = { email: to, link, linkExpiresIn: config.magicLink.expiresIn };
      return {
        kind,
        to,
        values: { ...values, code: emailCode ? CODE : null, codeExpiresIn: emailCode ? code.codeExpiresIn : null },
      };
    }
    case "sign-in-code":
    case "email-verification-code":
    case "password-reset-code":
      return { kind, to, values: code };
    case "two-factor-code":
      return { kind, to, values: { ...person, code: CODE, codeExpiresIn: config.twoFactor.otpExpiresIn } };
    case "two-factor-locked":
      return {
        kind,
        to,
        values: {
          ...person,
          failures: config.twoFactor.maxFailures,
          lockedFor: config.twoFactor.lockout,
          lockedUntil: Date.now(),
        },
      };
    case "invitation": {
      const link = `${base}${config.pages.basePath}/invitation/SAMPLE-INVITATION`;
      const expiresAt = Date.now() + config.organization.invitationExpiresIn * 1000;
      const organization = { organizationName: "Example Org", role: "member" };
      const inviter = { inviterName: "Bob Example", inviterEmail: "bob@example.com" };
      return { kind, to, values: { email: to, ...inviter, ...organization, link, expiresAt } };
    }
  }
}
