import type { Locale } from "../shared/messages/index.ts";
import type {
  AccountFrame,
  AccountProfile,
  AccountSessionRow,
  ActivityEntry,
  ApiKeyRules,
  ApiKeyView,
  InvitationView,
  LinkedAccountView,
  MembershipView,
  PasskeyItem,
  ReauthenticationMethods,
  SecondFactorSection,
} from "./account-state.ts";
import type { ConsoleStates } from "./console-state.ts";
import type { ImpersonationBanner } from "./impersonation-state.ts";

export * from "./account-state.ts";
export * from "./console-state.ts";
export type { ImpersonationBanner } from "./impersonation-state.ts";

// What the server hands a page, once: rendered into the HTML on the server, and read again by the browser
// bundle to hydrate the same markup. Plain JSON only (no functions, no dates), since it crosses the wire.

export interface Branding {
  appName: string;
  logoURL: string | null;
  colorScheme: "auto" | "light" | "dark";
}

export interface PagePaths {
  /** Where the pages are served, e.g. /account. */
  pages: string;
  /** Where the JSON API is served, e.g. /api/auth. */
  api: string;
}

/**
 * The code the rate limit's refusal (the catalogue's TOO_MANY_REQUESTS) carries on the wire, derived from its
 * message: what the pages' script names a 429 by when it has only the status. The browser's code cannot import
 * the catalogue; test/unit/refusal-words-by-wire-code.test.ts holds the two equal.
 */
export const RATE_LIMITED_CODE = "TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER";

/**
 * A problem to show: the code a refusal carries on the wire (the pages' catalogue files its words under that
 * code, `error.<code>`), or a page's own code (REQUIRED, CSRF, …); and the field it belongs to when it has one.
 */
export interface FormProblem {
  code: string;
  field?: string;
}

interface Common {
  locale: Locale;
  branding: Branding;
  paths: PagePaths;
  /** The form's anti-forgery token (also in a cookie): every POST to a page route carries it. */
  csrf: string;
  /** The trusted URL to return to after the flow, when one was given (carried through every form). */
  redirect: string | null;
  /** Where a finished flow goes when no redirect was given: AUTH_APP_URL, else the account page. */
  home: string;
  problem: FormProblem | null;
  /** The browser's session is an administrator's impersonation: every page shows a banner (with how to stop). */
  impersonating?: ImpersonationBanner | null;
}

export interface SignInMethods {
  password: boolean;
  username: boolean;
  signUp: boolean;
  /** Passkeys are on and work from the pages' origin: with JavaScript, the page offers them. */
  passkey: boolean;
  /** "Email me a sign-in link" (magicLink.enabled). */
  magicLink: boolean;
  /** "Email me a code" (emailOTP.enabled). */
  emailCode: boolean;
  /** One button per configured social provider. */
  social: SocialButton[];
}

export interface SocialButton {
  id: string;
  name: string;
}

export type PageState = Common &
  (
    | { page: "sign-in"; methods: SignInMethods; identifier: string; notice: "password-reset" | null }
    | {
        page: "sign-up";
        username: boolean;
        passwordRules: { min: number; max: number };
        values: { name: string; email: string; username: string };
      }
    | { page: "signed-out" }
    | { page: "signed-in"; email: string; returnTo: string }
    | { page: "forgot-password"; email: string }
    | {
        page: "check-mail";
        kind: "reset" | "verify" | "magic-link";
        /** The verification or sign-in link's mail carries a code too (email codes on): link to its page. */
        codeEntry?: boolean;
      }
    | { page: "reset-password"; token: string; passwordRules: { min: number; max: number } }
    | {
        page: "verify-email";
        token: string;
        /** The link confirms an email change (from the current address) rather than verifying an address. */
        change: boolean;
        /** The link's callbackURL when it is not the return address but the API would follow it. */
        callbackURL: string | null;
        done: boolean;
      }
    | {
        page: "delete-account";
        token: string;
        callbackURL: string | null;
        /** The signed-in user's address, or null when the browser must sign in first (at `signIn`). */
        email: string | null;
        signIn: string | null;
        done: boolean;
      }
    | { page: "error"; code: string }
    | {
        page: "invitation";
        invitationId: string;
        /** What get-invitation answers the invitee; null while signed out, refused, or once answered. */
        invitation: { organizationName: string; inviterEmail: string; role: string } | null;
        /** The signed-in user's address, or null when the browser must sign in or sign up first. */
        email: string | null;
        /** Sign-in and sign-up pages that come back to this invitation afterwards. */
        signIn: string;
        signUp: string;
        /** This page's own URL (with its return address), where signing out comes back to. */
        here: string;
        done: "rejected" | null;
      }
    | {
        page: "two-factor";
        /** The way of proving the second factor the page shows now. */
        method: TwoFactorMethod;
        /** The ways the configuration offers (a route in disabledPaths is not offered). */
        methods: Record<TwoFactorMethod, boolean>;
        /** A code was mailed for this challenge: the mail form shows the field for it. */
        mailSent: boolean;
      }
    | {
        page: "magic-link";
        token: string;
        /** The link's own targets when they are not the return address but the API would follow them. */
        callbackURL: string | null;
        newUserCallbackURL: string | null;
        errorCallbackURL: string | null;
      }
    | {
        page: "email-code";
        /** The address the code was mailed to, as typed (codes are kept per address as sent). */
        email: string;
        /** Where the browser goes once signed in. */
        returnTo: string;
      }
    | { page: "account-profile"; account: AccountFrame; profile: AccountProfile }
    // The account page's own sections (account-core): password, sessions, delete, and re-authentication.
    | {
        page: "account-password";
        account: AccountFrame;
        /** The user has a password to change; otherwise the section offers to set one. */
        hasPassword: boolean;
        passwordRules: { min: number; max: number };
      }
    | { page: "account-sessions"; account: AccountFrame; sessions: AccountSessionRow[] }
    | {
        page: "account-delete";
        account: AccountFrame;
        hasPassword: boolean;
        /** deleteUser.requireVerification: the request mails a link that confirms the deletion. */
        mailsConfirmation: boolean;
      }
    | { page: "account-reauthenticate"; email: string; methods: ReauthenticationMethods }
    // The account page's linked accounts, API keys, organizations and security activity.
    | { page: "account-linked-accounts"; account: AccountFrame; linked: LinkedAccountView[]; linkable: SocialButton[] }
    | {
        page: "account-api-keys";
        account: AccountFrame;
        keys: ApiKeyView[];
        rules: ApiKeyRules;
        /** The key just created, shown this once (the daemon keeps only its hash). */
        created: { name: string | null; key: string } | null;
      }
    | {
        page: "account-organizations";
        account: AccountFrame;
        memberships: MembershipView[];
        invitations: InvitationView[];
      }
    | {
        page: "account-activity";
        account: AccountFrame;
        events: ActivityEntry[];
        offset: number;
        limit: number;
        total: number;
      }
    | { page: "account-second-factor"; account: AccountFrame; secondFactor: SecondFactorSection }
    | { page: "account-passkeys"; account: AccountFrame; passkeys: PasskeyItem[] }
    // The development outbox (docs/mail.md), and the page that takes a mailed verification code
    | { page: "dev-outbox"; mails: OutboxEntry[] }
    | {
        page: "verify-email-code";
        /** The address the code was mailed to, when this browser signed up a moment ago; else typed. */
        email: string;
      }
    | {
        page: "consent";
        /** The OpenID client asking, as its operator named it. */
        clientName: string;
        /** The scopes it asks for (openid, profile, email, offline_access, groups). */
        scopes: string[];
        /** The signed-in user's address. */
        email: string;
        /** Where the answer goes: the client's origin. */
        destination: string;
        /** The authorization request's parameters, carried through the form. */
        request: Record<string, string>;
      }
    | ConsoleStates
  );

/** A mail in the development outbox, as its page lists it. */
export interface OutboxEntry {
  id: string;
  kind: string;
  to: string;
  subject: string;
  locale: string;
  /** ISO time. */
  sentAt: string;
  link: string | null;
  code: string | null;
  text: string;
  /** Where the HTML part is drawn on its own (shown in a sandboxed frame). */
  htmlPath: string;
}

/** The second factor's ways: an authenticator app's code, a code by mail, a backup code. */
export type TwoFactorMethod = "totp" | "mail" | "backup";

export type PageName = PageState["page"];
export type StateOf<P extends PageName> = Extract<PageState, { page: P }>;

/**
 * Which field a refusal concerns, so a page shows it beside that field; others go above the form. Keyed by
 * the code a refusal carries (the wire's, derived from its message), which is what the pages receive.
 */
export const PROBLEM_FIELDS: Readonly<Record<string, string>> = {
  INVALID_EMAIL: "email",
  USER_ALREADY_EXISTS: "email",
  PASSWORD_TOO_SHORT: "password",
  PASSWORD_TOO_LONG: "password",
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "username",
  USERNAME_IS_TOO_SHORT: "username",
  USERNAME_IS_TOO_LONG: "username",
  USERNAME_IS_INVALID: "username",
  INVALID_OTP: "otp",
  OTP_EXPIRED: "otp",
};

/**
 * A refusal's code as a problem of the form, tied to its field when it has one (`fields`: the form's own
 * code-to-field names, where they differ from the common ones).
 */
export function problemFor(code: string, fields: Readonly<Record<string, string>> = PROBLEM_FIELDS): FormProblem {
  const field = fields[code];
  return field ? { code, field } : { code };
}
