import * as z from "zod";
import { onOff, seconds } from "./schema-helpers.ts";

// Sign-in and account settings in the configuration schema (schema.ts): email and password, verification,
// account changes and deletion, sessions, cookies and the rate limits. Their order here is their order in
// the README table.

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of fields built on demand (schema.ts), not logic
export const accountFields = () => ({
  emailAndPassword: z
    .object({
      enabled: onOff.default(true).describe("email + password sign-up and sign-in"),
      disableSignUp: onOff.default(false).describe("refuse new sign-ups by email"),
      minPasswordLength: z.number().int().min(1).default(8).describe("shortest password accepted"),
      maxPasswordLength: z.number().int().min(1).default(128).describe("longest password accepted"),
      autoSignIn: onOff.default(true).describe("sign the user in after sign-up"),
      requireEmailVerification: onOff.default(false).describe("refuse sign-in until the email is verified"),
      resetPasswordTokenExpiresIn: seconds(3600, "lifetime of a password-reset token"),
      revokeSessionsOnPasswordReset: onOff.default(false).describe("sign out everywhere after a password reset"),
    })
    .prefault({}),
  emailVerification: z
    .object({
      sendOnSignUp: onOff
        .default(true)
        .describe("mail a verification link on sign-up and on a refused unverified sign-in"),
      autoSignInAfterVerification: onOff.default(false),
      expiresIn: seconds(3600, "lifetime of a verification token"),
    })
    .prefault({}),
  changeEmail: z.object({ enabled: onOff.default(true).describe("POST /change-email") }).prefault({}),
  deleteUser: z
    .object({
      enabled: onOff.default(true).describe("POST /delete-user (off: 404)"),
      requireVerification: onOff.default(true).describe("mail a confirmation link before deleting"),
      deleteTokenExpiresIn: seconds(86_400, "lifetime of a delete-account token"),
    })
    .prefault({}),
  account: z
    .object({
      accountLinking: z
        .object({
          enabled: onOff.default(true),
          allowDifferentEmails: onOff.default(false),
          allowUnlinkingAll: onOff.default(false).describe("allow unlinking the last account"),
          trustedProviders: z.array(z.string()).default([]),
        })
        .prefault({}),
      skipStateCookieCheck: onOff
        .default(false)
        .describe(
          "do not bind social sign-in to the browser that started it (for apps that open the authorization URL elsewhere); allows login CSRF",
        ),
      freshAge: seconds(
        600,
        "sensitive account changes (email, password, second factor, passkeys, API keys) need a sign-in at most this old (0 disables the check)",
      ),
    })
    .prefault({}),

  session: z
    .object({
      expiresIn: seconds(604_800, "session lifetime"),
      updateAge: seconds(86_400, "refresh a session once it is this old"),
      freshAge: seconds(86_400, "sessions younger than this are fresh (0 disables the check)"),
      rememberMeOffExpiresIn: seconds(86_400, "lifetime of a session created with rememberMe false"),
      cookieCache: z
        .object({
          enabled: onOff
            .default(false)
            .describe(
              "cache the session in a signed session_data cookie (get-session answers from it without a database read; a revoked session can then look alive until it expires)",
            ),
          maxAge: seconds(300, "lifetime of the cached session cookie"),
        })
        .prefault({}),
      memoryCache: z
        .object({
          enabled: onOff
            .default(true)
            .describe(
              "keep sessions read lately in the daemon's memory while provably current (every change drops them at once, in every daemon: SQLite data_version, Postgres LISTEN/NOTIFY); turn off behind a Postgres proxy that drops notifications (PgBouncer in transaction mode)",
            ),
          maxAge: z
            .number()
            .int()
            .min(1)
            .default(60)
            .describe("longest a session is served from memory before it is read again (seconds)"),
        })
        .prefault({}),
    })
    .prefault({}),
  cookies: z
    .object({
      prefix: z
        .string()
        .regex(/^[A-Za-z0-9._-]+$/)
        .default("better-auth")
        .describe("cookie name prefix"),
      secure: z
        .enum(["auto", "on", "off"])
        .default("auto")
        .describe("Secure + __Secure- prefix (auto: when the base URL is https)"),
      domain: z.string().optional().describe("cookie domain for cross-subdomain cookies"),
    })
    .prefault({}),
  rateLimit: z
    .object({
      enabled: onOff.default(true),
      window: z.number().int().min(1).default(10).describe("window in seconds"),
      max: z.number().int().min(1).default(100).describe("requests per window and path"),
      storage: z
        .enum(["memory", "database", "secondary"])
        .optional()
        .describe("where counters live (secondary: Redis); unset: Redis when AUTH_REDIS_URL is set, else memory"),
      customRules: z
        .record(
          z.string(),
          z.union([z.literal(false), z.object({ window: z.number().int().min(1), max: z.number().int().min(1) })]),
        )
        .default({})
        .describe("per-path rules; a path may end in * ; false disables the limit"),
      ipv6Subnet: z
        .number()
        .int()
        .min(1)
        .max(128)
        .default(64)
        .describe(
          "IPv6 clients are counted per network of this many leading bits (IPv4-mapped addresses count as IPv4)",
        ),
    })
    .prefault({}),
  accountThrottle: z
    .object({
      enabled: onOff
        .default(true)
        .describe(
          "limit password attempts per account (per submitted email or username) from every address, counted in the rate-limit storage",
        ),
      maxFailures: z
        .number()
        .int()
        .min(1)
        .default(10)
        .describe(
          "failed password attempts for one account before further attempts answer 429 without checking the password",
        ),
      window: seconds(
        900,
        "seconds without an attempt after which the count starts over; a correct password or a password reset clears it",
      ),
    })
    .prefault({}),
});
