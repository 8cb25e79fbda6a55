import type { RateLimits } from "../route.ts";

// The built-in rate-limit rules beside the general one (rateLimit.window / rateLimit.max), first match wins:
// the core's, Better Auth's tight window on the paths that take a password, a code or create an account, and
// each optional feature's. They live here, not beside their routes, because the middleware needs every rule
// before a group's routes are loaded (they load on first request: routes/index.ts). A path ending in `*` is
// a prefix. docs/operations.md lists them (a test keeps the two in step); rateLimit.customRules replaces any
// of them.

const CORE: RateLimits = {
  limited: [
    { path: "/sign-in*", window: 10, max: 3 },
    { path: "/sign-up*", window: 10, max: 3 },
    { path: "/change-password*", window: 10, max: 3 },
    { path: "/change-email*", window: 10, max: 3 },
  ],
  // Readiness probes must not depend on (or fill) the counter store they partly check.
  unlimited: ["/ready"],
};

/** The passwordless paths' own rules (plugins.md). */
const magicLinkRateLimits: RateLimits = {
  limited: [
    { path: "/sign-in/magic-link", window: 60, max: 5 },
    { path: "/magic-link/verify", window: 60, max: 5 },
  ],
};

/** The passwordless paths' own rules (plugins.md). */
const emailOtpRateLimits: RateLimits = {
  limited: [
    { path: "/email-otp/send-verification-otp", window: 60, max: 3 },
    { path: "/email-otp/verify-email", window: 60, max: 3 },
    { path: "/sign-in/email-otp", window: 60, max: 3 },
  ],
};

/**
 * Each ceremony step stores a challenge or checks a signature: 10 a minute is plenty for a person and bounds
 * what a script can make the server store.
 */
const passkeyRateLimits: RateLimits = {
  limited: [
    { path: "/passkey/generate-register-options", window: 60, max: 10 },
    { path: "/passkey/verify-registration", window: 60, max: 10 },
    { path: "/passkey/generate-authenticate-options", window: 60, max: 10 },
    { path: "/passkey/verify-authentication", window: 60, max: 10 },
  ],
};

/** Better Auth's tight window on the paths that take a code. */
const twoFactorRateLimits: RateLimits = { limited: [{ path: "/two-factor/*", window: 10, max: 3 }] };

/**
 * A reverse proxy asks /forward-auth on every request to the sites behind it (a page and its images at once)
 * and turns a 429 into an error page; it guesses nothing, so no built-in rule counts it.
 */
const forwardAuthRateLimits: RateLimits = { unlimited: ["/forward-auth"] };

// The features' exact paths come before the core's prefixes: /sign-in* would catch /sign-in/magic-link.
const ALL: RateLimits[] = [
  magicLinkRateLimits,
  emailOtpRateLimits,
  passkeyRateLimits,
  CORE,
  twoFactorRateLimits,
  forwardAuthRateLimits,
];

export const BUILT_IN_RULES = ALL.flatMap((rules) => rules.limited ?? []);

/** Paths no built-in rule counts (a custom rule still may). */
export const UNLIMITED_PATHS: readonly string[] = ALL.flatMap((rules) => rules.unlimited ?? []);
