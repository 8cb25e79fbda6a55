import type { RateLimits } from "../route.ts";
import { emailOtpRateLimits } from "./email-otp.ts";
import { forwardAuthRateLimits } from "./forward-auth.ts";
import { magicLinkRateLimits } from "./magic-link.ts";
import { passkeyRateLimits } from "./passkey.ts";
import { twoFactorRateLimits } from "./two-factor.ts";

// The built-in rate-limit rules beside the general one (rateLimit.window / rateLimit.max), first match wins.
// Each optional feature declares its own beside its routes (`<feature>RateLimits` in its route file); the
// core's are here: Better Auth's tight window on the paths that take a password, a code or create an
// account. A path ending in `*` is a prefix. docs/operations.md lists them (a test keeps the two in step);
// rateLimit.customRules replaces any of them.

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
