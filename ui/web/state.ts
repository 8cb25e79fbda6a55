import type { Locale } from "../shared/messages/index.ts";

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

/** A problem to show: a catalogue error code, and the field it belongs to when it has one. */
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
  /** Where a finished flow goes when no redirect was given: the app's URL. */
  home: string;
  problem: FormProblem | null;
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

/** The account page's sections, in the order its navigation lists them; each is a page of its own. */
export const ACCOUNT_SECTIONS = [
  "profile",
  "password",
  "second-factor",
  "passkeys",
  "sessions",
  "linked-accounts",
  "api-keys",
  "organizations",
  "activity",
  "delete",
] as const;
export type AccountSection = (typeof ACCOUNT_SECTIONS)[number];

/** A section's path under the pages' base path: the profile is the account page itself (`/account`). */
export const accountSectionPath = (section: AccountSection): string => (section === "profile" ? "" : `/${section}`);

/** What every section of the account page shows around its content: who is signed in, and where to go. */
export interface AccountFrame {
  user: { name: string; email: string; image: string | null };
  /** The sections this deployment offers (a feature that is off has none), in navigation order. */
  sections: AccountSection[];
  /** What the last action did, as a catalogue key (shown once, after the 303 that followed it). */
  notice: string | null;
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
    | { page: "check-mail"; kind: "reset" | "verify" | "magic-link" }
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
    | { page: "account-profile"; account: AccountFrame }
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
  );

/** The second factor's ways: an authenticator app's code, a code by mail, a backup code. */
export type TwoFactorMethod = "totp" | "mail" | "backup";

export type PageName = PageState["page"];
export type StateOf<P extends PageName> = Extract<PageState, { page: P }>;

/** Which field a refusal concerns, so a page shows it beside that field; others go above the form. */
export const PROBLEM_FIELDS: Readonly<Record<string, string>> = {
  INVALID_EMAIL: "email",
  USER_ALREADY_EXISTS: "email",
  PASSWORD_TOO_SHORT: "password",
  PASSWORD_TOO_LONG: "password",
  USERNAME_IS_ALREADY_TAKEN: "username",
  USERNAME_TOO_SHORT: "username",
  USERNAME_TOO_LONG: "username",
  INVALID_USERNAME: "username",
  INVALID_OTP: "otp",
  OTP_EXPIRED: "otp",
};

/** A refusal's code as a problem of the form, tied to its field when it has one. */
export function problemFor(code: string): FormProblem {
  const field = PROBLEM_FIELDS[code];
  return field ? { code, field } : { code };
}
